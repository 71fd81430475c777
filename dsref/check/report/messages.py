"""The text of every schema finding and load problem: message, help line and explanation, by kind.

Rules keep their own texts next to their checks (:mod:`dsref.check.rules`); everything here goes through the catalogs
like any other interface message.
"""

from __future__ import annotations

import re
from typing import Any

from ...text.i18n import Lang, messages
from ...text.punctuation import both, either, listed, quoted
from ..findings import Example, Finding, Kind

MESSAGES = messages(
    "finding",
    unreadable="{detail}",
    not_a_mapping="the config must be a JSON object, not {got}",
    key_not_string="a key must be a string; {key} is {got}",
    duplicate_key="'{key}' is written twice in this object (also at line {other_line}); DeepSpeed refuses the file",
    duplicate_key_hf="'{key}' is written twice in this object (also at line {other_line}); json.load silently "
    "keeps the later value",
    not_strict_json="this file is Hjson, not strict JSON: the deepspeed launcher reads it, but Hugging Face Trainer "
    "and Accelerate (json.load) would fail here",
    not_strict_json_bom="the file starts with a byte-order mark (BOM): DeepSpeed's reader skips it, but Hugging Face "
    "Trainer and Accelerate (json.load) refuse the file",
    rule_failed="rule {rule} ({name}) stopped with an exception on this file, so its findings are missing: {error}",
    unknown_key_reject="unknown key '{key}'; DeepSpeed refuses unknown keys in {section}",
    unknown_key_ignore="unknown key '{key}'; DeepSpeed silently ignores it",
    unknown_key_passthrough="'{key}' is not an option dsref knows; DeepSpeed passes it on unchecked",
    docs_name="'{key}' is the name DeepSpeed's documentation uses, but DeepSpeed reads '{real}' and ignores this key",
    wrong_type="expected {expected}, got {got} {value}",
    wrong_type_null="expected {expected}, got null",
    coerced="{value} is a {got}; DeepSpeed converts it to {result}",
    out_of_range="{value} is out of range ({bounds})",
    out_of_range_unbounded="{value} is outside the range this option accepts",
    not_allowed="{value} is not one of {allowed}",
    deprecated="'{key}' is deprecated",
    deprecated_form="writing {key} as a {form} is deprecated",
    removed="'{key}' was removed in DeepSpeed {removed_in}; DeepSpeed {target} refuses it",
    docs_only="'{key}' is listed in DeepSpeed's documentation, but DeepSpeed {target} refuses it",
    too_new="'{key}' needs DeepSpeed {since} or later (checking for {target})",
    too_new_ignored="'{key}' needs DeepSpeed {since} or later; DeepSpeed {target} silently ignores it",
    alias_conflict="{keys} are two names of one option; DeepSpeed refuses them together",
    alias_conflict_ignored="{keys} are two names of one option; DeepSpeed uses '{used}' and ignores the other",
    auto_dropped='"auto" is dropped by DeepSpeed, which uses the default {default} here',
    auto_kept='DeepSpeed {target} keeps "auto" here as a string, which it takes as true',
    auto_unfilled='"auto" is not a value DeepSpeed understands here; only Hugging Face fills it in',
    help_suggest="did you mean {suggestions}?",
    help_elsewhere="'{key}' is an option under {paths}; move it there",
    help_top_level="'{key}' is a top-level key; move it out of {section}",
    help_use_instead="use {use_instead} instead",
    help_rename="rename it: {json}",
    help_replace="write {json} in {section} instead",
    help_replace_top="write {json} at the top level instead",
    help_delete_same="delete it: DeepSpeed behaves the same without it",
    help_remove="remove it",
    help_hf_auto='Hugging Face fills this "auto"; check the file with --profile hf if you launch through it',
    help_former='"{value}" is how DeepSpeed {last} and earlier wrote "{new}": write "{new}", it means the same',
    help_upgrade_unused="DeepSpeed {last} and earlier read it and did nothing with it as written here: removing it "
    "keeps what the file did there",
    help_upgrade_lenient="DeepSpeed {last} and earlier read {section} key by key and never looked this key up: "
    "removing it keeps what the file did there",
    help_former_name="DeepSpeed {last} and earlier read this key as {new}: renaming it keeps what the file did "
    "there, and changes what DeepSpeed {target} does, which ignores the key",
    help_written_for="the file was written for DeepSpeed {release} or earlier ({path} says so): the fixes carry it "
    "to {target}",
    help_hf_name='Hugging Face fills "auto" only under the name {name}; write that name if you launch through it',
    help_hf_no_longer='{library} {installed} no longer fills "auto" here (releases before {release} did); write the '
    "value",
    help_hf_no_longer_newest='the newest {library} no longer fills "auto" here (releases before {release} did); write '
    "the value",
    help_hf_not_yet='{library} {installed} does not fill "auto" here yet ({release} and later do); write the value or '
    "upgrade {library}",
    help_not_string="put the value in quotes",
    help_python="{word} is Python; JSON writes {json}",
    help_python_comma="{word} is Python; JSON writes {json}. Without quotes, Hjson reads a value to the end of its "
    "line, so the comma after it is part of the string DeepSpeed gets",
    section_root="the top level",
)

JSON_TYPES = messages(
    "jsontype",
    null="null",
    boolean="boolean",
    integer="integer",
    number="number",
    string="string",
    object="object",
    array="array",
    section="section",
)
"""The names of JSON's types as messages say them (``got string``), and of the option type ``section`` (a JSON object
of options), which ``expected section`` names."""

EXPLANATIONS = messages(
    "explanation",
    unreadable="The file could not be read or parsed by the reader of the chosen profile (the deepspeed launcher "
    "reads Hjson, Hugging Face reads strict JSON). Nothing else can be checked until it parses.",
    not_a_mapping="A DeepSpeed config is one JSON object whose keys are the sections and top-level options.",
    key_not_string="JSON object keys are strings; a config built in Python with other keys cannot be saved as JSON.",
    rule_failed="A cross-field rule met a value it did not expect and stopped with an exception instead of giving "
    "its verdict. The other checks still ran, but this rule said nothing about the file, so a clean result does not "
    "mean the rule found nothing. Without --debug, the summary names such rules; with it, each one is a finding of "
    "its own with the exception. It is a bug in dsref: please report it with the config.",
    duplicate_key="DeepSpeed reads config files with a hook that raises on any key written twice in one object, at "
    "any depth. Hugging Face's json.load instead keeps the later value without a word. Keep one of the two.",
    not_strict_json="The deepspeed launcher reads configs with Hjson, which allows comments, trailing commas and "
    "unquoted strings. Hugging Face Trainer and Accelerate read the same file with json.load, which does not. Use "
    "strict JSON if the file is shared.",
    unknown_key="A key dsref does not know at this place. Where DeepSpeed validates the section with its own "
    "models, it refuses the config; elsewhere it silently ignores the key, so a typo quietly does nothing. The "
    "finding suggests the closest spelling and, when the key is an option of another section, where it belongs.",
    wrong_type="The value is not of the type the option takes. In sections DeepSpeed validates, the config is "
    "refused; elsewhere DeepSpeed uses the value as written, which usually fails later or misbehaves.",
    coerced='DeepSpeed\'s validation converts some values silently, such as the string "true" to true or "2" to '
    "2. The config works, but write the value in its own type so every reader agrees.",
    out_of_range="The number is outside the range the option accepts.",
    not_allowed="The value is not one of the values the option accepts.",
    deprecated="DeepSpeed still accepts this key (or this form), usually with a warning, but a newer option "
    "replaces it. Giving both the old and the new key is an error.",
    removed="DeepSpeed 0.19.7 and 0.19.8 removed many features; their config keys now make DeepSpeed raise an "
    "error as soon as the config is read, whatever their value (even false). The finding says what to use now.",
    docs_only="DeepSpeed's documentation lists this key, but DeepSpeed's code does not accept it.",
    too_new="The option exists only in newer DeepSpeed releases than the one you check for (--deepspeed-version).",
    alias_conflict="Some options have two names (for example `stage3_prefetch_bucket_size` and "
    "`prefetch_bucket_size`). Each works alone; DeepSpeed refuses both together.",
    auto_dropped='Hugging Face replaces "auto" with real values before DeepSpeed sees the config. Launched with '
    'the deepspeed launcher, "auto" reaches DeepSpeed: in the sections it validates with its own models it '
    "drops the value without a warning and uses the default, so the file does not do what it says.",
    auto_unfilled='Outside the sections DeepSpeed validates with its own models, an "auto" left unfilled stays a '
    "string and makes DeepSpeed fail (the batch keys, gradient_clipping, optimizer and scheduler parameters). "
    'Only Hugging Face fills "auto", and only for the keys it knows.',
)


EXAMPLES: dict[str, Example] = {
    "unreadable": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
    "not_a_mapping": Example(
        """
        [
          {"train_micro_batch_size_per_gpu": 4, "bf16": {"enabled": true}}
        ]
        """,
        repaired="""
        {"train_micro_batch_size_per_gpu": 4, "bf16": {"enabled": true}}
        """,
    ),
    "duplicate_key": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true},
          "gradient_accumulation_steps": 8
        }
        """,
    ),
    "not_strict_json": Example(
        """
        {
          // four samples per GPU and step
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true},
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
    "unknown_key": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_step": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
    "wrong_type": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_clipping": [1.0],
          "bf16": {"enabled": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_clipping": 1.0,
          "bf16": {"enabled": true}
        }
        """,
    ),
    "coerced": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": "true"}
        }
        """,
    ),
    "out_of_range": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 0}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100}}
        }
        """,
    ),
    "not_allowed": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 4}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3}
        }
        """,
    ),
    "deprecated": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1, "cpu_offload": true}
        }
        """,
    ),
    "removed": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "amp": {"enabled": false}
        }
        """,
    ),
    "docs_only": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1, "grad_hooks": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1}
        }
        """,
    ),
    "too_new": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_master_weights_and_grads": true},
          "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        deepspeed_version="0.17.6",
    ),
    "alias_conflict": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 3,
            "stage3_prefetch_bucket_size": 50000000,
            "prefetch_bucket_size": 50000000
          }
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 3,
            "stage3_prefetch_bucket_size": 50000000
          }
        }
        """,
    ),
    "auto_dropped": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": "auto"}
        }
        """,
    ),
    "auto_unfilled": Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_clipping": "auto",
          "bf16": {"enabled": true}
        }
        """,
    ),
}
"""For each schema kind, a whole config that sets it off, shown on its page of the site (see :class:`Example`)."""


def message(finding: Finding, lang: Lang, *, target: str = "0.19.8") -> str:
    """The one-line message of a schema or load finding in ``lang``."""
    kind = finding.kind
    args: dict[str, Any] = dict(finding.args)
    key = _last_key(finding)
    if kind is Kind.unknown_key:
        if args.get("docs_name"):
            return MESSAGES.text("docs_name", lang, key=key, real=(args.get("suggestions") or ["?"])[0])
        section = args.get("section") or MESSAGES.text("section_root", lang)
        return MESSAGES.text(f"unknown_key_{args.get('policy', 'ignore')}", lang, key=key, section=section)
    if kind is Kind.duplicate_key:
        name = "duplicate_key_hf" if args.get("profile") == "hf" else "duplicate_key"
        return MESSAGES.text(name, lang, key=key, other_line=args.get("other_line", "?"))
    if kind is Kind.deprecated and args.get("form"):
        form = JSON_TYPES.text(args["form"], lang) if args["form"] in JSON_TYPES.table else args["form"]
        return MESSAGES.text("deprecated_form", lang, key=key, form=form)
    if kind is Kind.too_new and args.get("ignored"):
        return MESSAGES.text("too_new_ignored", lang, key=key, since=args.get("since"), target=target)
    if kind is Kind.alias_conflict:
        keys = both((quoted(k, lang) for k in args.get("keys", ())), lang)
        if args.get("used"):
            return MESSAGES.text("alias_conflict_ignored", lang, keys=keys, used=args["used"])
        return MESSAGES.text("alias_conflict", lang, keys=keys)
    if kind is Kind.out_of_range:
        signs = {"gt": ">", "ge": "≥", "lt": "<", "le": "≤", "min_length": "len ≥", "max_length": "len ≤"}
        args["bounds"] = ", ".join(f"{signs.get(k, k)} {v}" for k, v in (args.get("bounds") or {}).items())
        if not args["bounds"]:
            return MESSAGES.text("out_of_range_unbounded", lang, value=args.get("value"))
    if kind is Kind.not_strict_json and args.get("bom"):
        return MESSAGES.text("not_strict_json_bom", lang)
    if kind is Kind.wrong_type and isinstance(args.get("expected"), str):
        args["expected"] = re.sub(r"\bsection\b", JSON_TYPES.text("section", lang), args["expected"])
    if kind is Kind.wrong_type and args.get("got") == "null":
        return MESSAGES.text("wrong_type_null", lang, expected=args.get("expected"))
    if kind is Kind.not_allowed:
        args["allowed"] = listed((_show(v) for v in args.get("allowed") or ()), lang)
    if kind is Kind.auto_dropped and args.get("kept"):
        return MESSAGES.text("auto_kept", lang, target=target)
    if kind is Kind.auto_dropped:
        args["default"] = _show(args.get("default"))
    if args.get("got") in JSON_TYPES.table:
        args["got"] = JSON_TYPES.text(args["got"], lang)
    assert kind is not None
    return MESSAGES.text(kind.name, lang, key=key, target=target, **{k: v for k, v in args.items() if k != "key"})


def help_lines(finding: Finding, lang: Lang) -> list[str]:
    """Short fixes to show under a finding, in ``lang``."""
    args = finding.args
    key = _last_key(finding)
    lines: list[str] = []
    if finding.kind is Kind.unknown_key and not args.get("docs_name") and not args.get("former_lenient"):
        if args.get("suggestions"):
            lines.append(
                MESSAGES.text(
                    "help_suggest", lang, suggestions=either((quoted(s, lang) for s in args["suggestions"]), lang)
                )
            )
        elsewhere = list(args.get("elsewhere") or ())
        if key in elsewhere:  # a top-level key written inside a section
            lines.append(MESSAGES.text("help_top_level", lang, key=key, section=args.get("section") or ""))
            elsewhere.remove(key)
        if elsewhere:
            lines.append(MESSAGES.text("help_elsewhere", lang, key=key, paths=either(elsewhere, lang, english=", ")))
    if finding.kind in (Kind.wrong_type, Kind.coerced) and args.get("python"):
        which = "help_python_comma" if args.get("comma") else "help_python"
        lines.append(MESSAGES.text(which, lang, word=args["python"], json=args["python_json"]))
    if finding.kind is Kind.deprecated and args.get("replacement") is not None:
        if args["replacement"] and args["section"]:
            lines.append(MESSAGES.text("help_replace", lang, json=args["replacement"], section=args["section"]))
        elif args["replacement"]:
            lines.append(MESSAGES.text("help_replace_top", lang, json=args["replacement"]))
        else:
            lines.append(MESSAGES.text("help_delete_same", lang))
    elif finding.kind in (Kind.deprecated, Kind.removed) and args.get("use_instead"):
        if finding.kind is Kind.deprecated and args.get("key") and finding.option == args.get("use_instead"):
            new_key = str(args["use_instead"]).rsplit(".", 1)[-1]
            lines.append(MESSAGES.text("help_rename", lang, json=f'"{args["key"]}" → "{new_key}"'))
        else:
            lines.append(MESSAGES.text("help_use_instead", lang, use_instead=args["use_instead"]))
    if finding.kind is Kind.not_allowed and args.get("former_last"):
        value = str(args.get("value", "")).strip('"')
        new = args["former_new"]
        lines.append(MESSAGES.text("help_former", lang, value=value, new=new, last=args["former_last"]))
    if finding.kind is Kind.removed and args.get("former_last"):
        lines.append(MESSAGES.text("help_upgrade_unused", lang, last=args["former_last"]))
    if finding.kind is Kind.unknown_key and args.get("former_lenient"):
        section = args.get("section") or ""
        lines.append(MESSAGES.text("help_upgrade_lenient", lang, last=args["former_last"], section=section))
    if finding.kind is Kind.unknown_key and args.get("former_new"):
        new, target = args["former_new"], args.get("written_for_target", "")
        lines.append(MESSAGES.text("help_former_name", lang, last=args["former_last"], new=new, target=target))
    if args.get("written_for"):
        release, path, target = args["written_for"], args["written_for_by"], args["written_for_target"]
        lines.append(MESSAGES.text("help_written_for", lang, release=release, path=path, target=target))
    if finding.kind in (Kind.removed, Kind.docs_only) and not args.get("use_instead"):
        lines.append(MESSAGES.text("help_remove", lang))
    if finding.kind in (Kind.auto_dropped, Kind.auto_unfilled) and args.get("hf_fills"):
        lines.append(MESSAGES.text("help_hf_auto", lang))
    elif finding.kind in (Kind.auto_dropped, Kind.auto_unfilled) and args.get("hf_release"):
        which = "help_hf_not_yet" if args["hf_since"] else "help_hf_no_longer"
        if args.get("hf_installed") is None:
            which = "help_hf_no_longer_newest"
        lines.append(
            MESSAGES.text(
                which, lang, library=args["hf_library"], installed=args["hf_installed"], release=args["hf_release"]
            )
        )
    elif finding.kind in (Kind.auto_dropped, Kind.auto_unfilled) and args.get("hf_name"):
        lines.append(MESSAGES.text("help_hf_name", lang, name=args["hf_name"]))
    return lines


def explanation(kind: Kind, lang: Lang) -> str:
    name = kind.name
    return EXPLANATIONS.text(name, lang) if name in EXPLANATIONS.table else ""


def _last_key(finding: Finding) -> str:
    if finding.args.get("key"):
        return str(finding.args["key"])
    for step in reversed(finding.location):
        if isinstance(step, str):
            return step
    return finding.option or ""


def _show(value: Any) -> str:
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)
