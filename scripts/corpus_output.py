"""Print what ``dsref check`` says over a corpus, every form of it, to compare two environments byte for byte.

    python scripts/corpus_output.py [--corpus ../shared/corpus/real] > out.txt
    python scripts/corpus_output.py --examples DIR > out.txt     # where ../shared is absent (GitHub)

``check`` for both profiles, as text in English and in Chinese, as JSON, and as the diff of ``--fix`` with unsafe
fixes, for DeepSpeed 0.19.8 and a world size of 8, one process (``--jobs 1``), as if neither DeepSpeed nor
transformers and accelerate were installed (the newest releases dsref knows fill ``"auto"``).
``scripts/lowest_pydantic.sh`` runs it with the locked pydantic and with the lowest one ``pyproject.toml`` admits,
and compares the two outputs.
``--examples DIR`` writes every option's example config (:func:`dsref.tree.examples.example_config`) into ``DIR``
and checks those instead: a corpus any checkout has (the GitHub workflow compares it across its matrix).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from compare_outputs import run  # this folder's: what ``dsref ARGV`` prints, run in-process

ROOT = Path(__file__).resolve().parents[1]


def _respelled(value: Any) -> Any:
    """``value`` with every number, bool and null written as a string and every string in capitals: what
    DeepSpeed's lax validation converts or refuses, which is pydantic-core's to judge."""
    if isinstance(value, dict):
        return {key: _respelled(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_respelled(item) for item in value]
    return value.upper() if isinstance(value, str) else json.dumps(value)


def write_examples(folder: Path) -> str:
    """Every option's example config, one JSON file each, named by the option's path, and the same respelled."""
    from dsref.tree.examples import example_config
    from dsref.tree.options import option_tree

    folder.mkdir(parents=True, exist_ok=True)
    for opt in option_tree():
        config = example_config(opt)
        if config is not None:
            name = opt.path.replace("[]", "_")
            for suffix, written in (("", config), (".respelled", _respelled(config))):
                text = json.dumps(written, indent=2, ensure_ascii=False) + "\n"
                (folder / f"{name}{suffix}.json").write_text(text, encoding="utf-8")
    return str(folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus" / "real"))
    parser.add_argument("--examples", metavar="DIR", help="write the options' example configs here and check them")
    args = parser.parse_args()
    if args.examples:
        args.corpus = write_examples(Path(args.examples))
    files = sorted(p.name for p in Path(args.corpus).glob("*.json"))
    if not files:
        print(f"no *.json files in {args.corpus}", file=sys.stderr)
        return 2
    import dsref.cli.main  # before the folder changes: a relative PYTHONPATH still finds this dsref
    from dsref.check.report import target
    from dsref.tree.profiles import HfReleases

    # as if neither DeepSpeed nor Hugging Face's libraries were installed: the same output in every environment
    target.installed_deepspeed = lambda *_args, **_kwargs: None
    target.installed_hugging_face = lambda *_args, **_kwargs: HfReleases()

    print(f"dsref from {Path(dsref.cli.main.__file__).parents[1]}", file=sys.stderr)
    os.chdir(args.corpus)  # the files by their names: the output does not depend on where the corpus is
    for profile in ("deepspeed", "hf"):
        common = ["check", "--jobs", "1", "--profile", profile, "--world-size", "8", "--deepspeed-version", "0.19.8"]
        forms = {
            "text en": ["--lang", "en"],
            "text zh": ["--lang", "zh"],
            "json": ["--format", "json"],
            "diff": ["--diff", "--unsafe-fixes"],
        }
        for name, extra in forms.items():
            sys.stdout.write(f"=== check {profile} {name}\n{run([*common, *extra, *files])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
