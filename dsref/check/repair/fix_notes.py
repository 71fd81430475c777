"""What ``dsref check --fix`` does for each finding code, in both languages (``dsref rule CODE``, the rule pages and
the language server show it)."""

from __future__ import annotations

from ...text.i18n import Lang, messages

__all__ = ["NOTES", "fix_note"]

NOTES = messages(
    "fixnote",
    none="No automatic fix: what to change depends on what was meant.",
    DS000=(
        "A file that cannot be parsed is never edited. With `--profile hf`, when DeepSpeed's Hjson reads the file, an "
        "unsafe fix rewrites it as strict JSON (its comments are lost), once no key is written twice in it (the "
        "rewrite would silently keep only the later one: DS003's fix comes first)."
    ),
    DS003=(
        "Unsafe fix: removes the first of the two keys with its value and keeps the later one, the value json.load "
        "keeps (and Hjson, read without DeepSpeed's hook); DeepSpeed refuses the file, so which one was meant is the "
        "user's call. In a file Hugging Face's reader refuses, the fix is made as DeepSpeed's Hjson reads it, and "
        "the rewrite as strict JSON (DS000) follows on the next pass."
    ),
    DS004=(
        "Safe fix: removes a byte-order mark and trailing commas when nothing else keeps json.load from reading the "
        "file; DeepSpeed reads the same config. Comments and unquoted keys stay: rewriting them is the unsafe fix of "
        "`--profile hf`."
    ),
    DS101=(
        "A key DeepSpeed refuses that belongs in exactly one other written section is moved there (safe: the file "
        "could only mean that). A key DeepSpeed ignores is moved, and a key with exactly one close spelling renamed, "
        "only with `--unsafe-fixes`: both change what DeepSpeed does. A key with no close spelling in a section an "
        "earlier release read key by key (fp16, bf16), which that release ignored and the release checked for "
        "refuses, is removed (safe: that release did nothing with it)."
    ),
    DS201=(
        'Unsafe fix: a string that reads as the expected type (`"1e-4"`, `True`) is written as that value. DeepSpeed '
        "used the string, so this changes what it does."
    ),
    DS202="Safe fix: writes the value DeepSpeed converts the string to; DeepSpeed builds the same config.",
    DS204=(
        'Safe fix where the value is how an earlier release spelled an allowed one (`"bfp16"` for '
        "`communication_data_type`): writes today's spelling, which DeepSpeed reads as the same value. Otherwise no "
        "automatic fix: what to change depends on what was meant."
    ),
    DS301=(
        "Safe fix: renames the key, or writes the form DeepSpeed maps the old one to, so that DeepSpeed builds the "
        "same config; nothing is done when the new key is written already (DS305)."
    ),
    DS302=(
        "Safe fix where the key did nothing on the releases that still read it (a section switched off, its "
        "`enabled` false or left out; a value equal to the default): removing it keeps what the file did there. "
        "Otherwise unsafe: removes the key or section; what replaces it, if anything, is the user's call."
    ),
    DS401=(
        'Unsafe fix: removes the key; DeepSpeed uses the default either way, but Hugging Face would have filled "auto".'
    ),
    DS402='Unsafe fix: writes the option\'s default in place of "auto", when it has one.',
    DS502=(
        "Unsafe fix (with `--world-size`): sets train_batch_size to micro batch × accumulation steps × world size, "
        "when the micro batch is written."
    ),
    DS524="Unsafe fix: removes the option the configured ZeRO stage ignores (perhaps the stage was meant to change).",
)
"""What ``dsref check --fix`` does for each code (``dsref rule CODE`` and the rule pages show it)."""


def fix_note(code: str, lang: Lang) -> str:
    """Whether ``--fix`` repairs findings of ``code``, how, and whether it is safe."""
    return NOTES.text(code if code in NOTES.table else "none", lang)
