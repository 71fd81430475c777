"""The pre-commit hook for launch files (.pre-commit-hooks.yaml, dsref-check-launch): it takes the launch files of
public repositories kept in tests/data/launch, and none of a repository's other YAML or scripts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
DATA = ROOT / "tests" / "data" / "launch"


def _pattern() -> re.Pattern[str]:
    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "dsref-check-launch"]
    assert hook["entry"] == "dsref check"
    return re.compile(hook["files"])


@pytest.mark.parametrize(
    "path",
    [
        "examples/train_full/llama3_full_sft.yaml",  # LLaMA-Factory's examples
        "session/tiny-llama/run-instructions-16k-rag.sh",
        "script/fintune_full_llama3.2_3B_Instruct.sh",
        "examples/accelerate_configs/deepspeed_zero3.yaml",  # TRL's Accelerate configs
        "scripts/train.sh",
        "configs/qwen2_lora_sft.yaml",
    ],
)
def test_the_hook_takes_launch_files(path: str) -> None:
    assert _pattern().search(path), path


def test_the_hook_takes_the_stored_launch_files_whose_names_say_so() -> None:
    launches = [p for p in DATA.rglob("*") if p.suffix in (".sh", ".yaml", ".yml")]
    missed = [str(p.relative_to(DATA)) for p in launches if not _pattern().search(p.relative_to(DATA).as_posix())]
    assert missed == ["finlora/lora/example_config.yml"]  # a name that says nothing: the hook's files: is for it


@pytest.mark.parametrize(
    "path",
    [".github/workflows/test.yml", "mkdocs.yml", ".pre-commit-config.yaml", "docker-compose.yaml", "setup.sh"],
)
def test_the_hook_leaves_other_files(path: str) -> None:
    assert not _pattern().search(path)
