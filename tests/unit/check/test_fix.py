"""``dsref check --fix``: each fix edits only what it must, keeps the file the user's, and is proven against DeepSpeed.

* Each kind of fix, on a small file: the exact text it leaves (comments, order, quoting, line ends kept).
* The command line: ``--fix``, ``--unsafe-fixes``, ``--diff``, ``-``, exit status, summary, read-only files,
  permissions and atomic writes (what the write keeps and refuses to overwrite: ``tests/unit/check/test_fix_write.py``).
* Every real config of ``../shared/corpus/real/`` and the seed configs: the fixed file parses, has no more findings,
  a second ``--fix`` changes nothing, and where DeepSpeed 0.19.8 built the original, ``DeepSpeedConfig`` of the
  file after the safe fixes equals the original's, field by field.
* Each unsafe kind: ``DeepSpeedConfig`` before and after, and that the difference is the intended one.
* Mutated real configs (hypothesis): fixing parses, is idempotent and adds no finding.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import stat
import subprocess
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsref.check.edits import Applicability
from dsref.check.fix.fixer import Original, apply_edits, fix_text, read_original
from dsref.check.fix.writer import write_fixed
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from tests.conftest import require_deepspeed, shared_path

ROOT = Path(__file__).resolve().parents[3]


def fixed(text: str, *, unsafe: bool = False, **kwargs: Any) -> str:
    return fix_text(text, "ds.json", CheckSettings(**kwargs), unsafe=unsafe).text


def codes_with_fixes(text: str, **kwargs: Any) -> dict[str, str]:
    report = check_text(text, "ds.json", CheckSettings(**kwargs))
    return {f.code: f.fix.applicability.value for f in report.findings if f.fix is not None}


# -- each kind of fix ---------------------------------------------------------------------------------------------

BASE = '"train_batch_size": 8'


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # DS202: a string DeepSpeed converts → the value it converts to
        (
            '{\n  "train_batch_size": 8,\n  "bf16": {"enabled": "true"}  // on\n}\n',
            '{\n  "train_batch_size": 8,\n  "bf16": {"enabled": true}  // on\n}\n',
        ),
        # DS202 on an Hjson Python literal (a quoteless string)
        (
            "{\n  train_batch_size: 8\n  bf16: {\n    enabled: True\n  }\n}\n",
            "{\n  train_batch_size: 8\n  bf16: {\n    enabled: true\n  }\n}\n",
        ),
        # DS301: a deprecated name renamed, quoting kept
        (
            "{\n  'train_batch_size': 8,\n  'bfloat16': {'enabled': true}\n}\n",
            "{\n  'train_batch_size': 8,\n  'bf16': {'enabled': true}\n}\n",
        ),
        # DS301: cpu_offload replaced by what DeepSpeed maps it to
        (
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2,\n    "cpu_offload": true\n  }\n}\n',
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2,\n'
            '    "offload_optimizer": {"device": "cpu"}\n  }\n}\n',
        ),
        # DS301: cpu_offload false is the default: the key goes, with its comma
        (
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "cpu_offload": false,\n'
            '    "stage": 2\n  }\n}\n',
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n',
        ),
        # DS101: aio inside zero_optimization (DeepSpeed refuses it) moves to the top level
        (
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2,\n'
            '    "aio": {\n      "block_size": 1048576\n    }\n  }\n}\n',
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2\n  },\n'
            '  "aio": {\n    "block_size": 1048576\n  }\n}\n',
        ),
        # DS004: a byte-order mark and trailing commas (nothing else keeps json.load from reading it)
        (
            '\ufeff{\n  "train_batch_size": 8,\n  "bf16": {"enabled": true,},\n}\n',
            '{\n  "train_batch_size": 8,\n  "bf16": {"enabled": true}\n}\n',
        ),
    ],
)
def test_safe_fixes_edit_only_what_they_must(before: str, after: str) -> None:
    assert fixed(before) == after
    assert fixed(after) == after


@pytest.mark.parametrize(
    ("before", "after", "kwargs"),
    [
        # DS003: the first of two keys goes (json.load keeps the later)
        (
            '{\n  "train_batch_size": 8,\n  "steps_per_print": 10,\n  "steps_per_print": 100\n}\n',
            '{\n  "train_batch_size": 8,\n  "steps_per_print": 100\n}\n',
            {},
        ),
        # DS003 in Hjson: a block over several lines, with comments and no comma after it, goes whole
        (
            '{\n  train_batch_size: 8\n  zero_optimization: {\n    stage: 3  # three\n    "overlap_comm": true,\n  }'
            "  # first\n  zero_optimization: {stage: 2}\n}\n",
            "{\n  train_batch_size: 8\n  zero_optimization: {stage: 2}\n}\n",
            {},
        ),
        # DS003 in Hjson, no comma after the first: the members between the two stay, with their commas
        (
            "{\n  steps_per_print: 10\n  train_batch_size: 8,\n  steps_per_print: 100\n}\n",
            "{\n  train_batch_size: 8,\n  steps_per_print: 100\n}\n",
            {},
        ),
        # DS101: one confident spelling
        (
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2, "reduce_bucket_sise": 5e8}\n}\n',
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}\n}\n',
            {},
        ),
        # DS524: an option the stage ignores, inline, first of several
        (
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage3_max_live_parameters": 1e9, "stage": 2}\n}\n',
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2}\n}\n',
            {},
        ),
        # DS302: a removed section, the last member: the comma before it goes
        (
            '{\n  "train_batch_size": 8,\n  "amp": {\n    "enabled": true\n  }\n}\n',
            '{\n  "train_batch_size": 8\n}\n',
            {},
        ),
        # DS502: the batch product for --world-size
        (
            '{\n  "train_batch_size": 64,\n  "train_micro_batch_size_per_gpu": 4,\n'
            '  "gradient_accumulation_steps": 2\n}\n',
            '{\n  "train_batch_size": 32,\n  "train_micro_batch_size_per_gpu": 4,\n'
            '  "gradient_accumulation_steps": 2\n}\n',
            {"world_size": 4},
        ),
        # DS201: a number written as a string where DeepSpeed keeps the string
        (
            '{\n  "train_batch_size": 8,\n  "gradient_clipping": "1.0"\n}\n',
            '{\n  "train_batch_size": 8,\n  "gradient_clipping": 1.0\n}\n',
            {},
        ),
    ],
)
def test_unsafe_fixes_wait_for_unsafe_fixes(before: str, after: str, kwargs: dict[str, Any]) -> None:
    assert fixed(before, **kwargs) == before
    assert fixed(before, unsafe=True, **kwargs) == after
    assert fixed(after, unsafe=True, **kwargs) == after


def test_hjson_becomes_strict_json_only_for_hugging_face() -> None:
    text = "{\n  // eight per step\n  train_batch_size: 8\n}\n"
    assert codes_with_fixes(text) == {}  # DeepSpeed reads Hjson: nothing to repair
    assert codes_with_fixes(text, profile="hf") == {"DS000": "unsafe"}
    assert fixed(text, profile="hf") == text
    assert fixed(text, unsafe=True, profile="hf") == '{\n  "train_batch_size": 8\n}\n'


def test_the_strict_json_rewrite_keeps_numbers_and_short_lists_as_written() -> None:
    """The rewrite drops what strict JSON cannot hold (comments, unquoted keys), not the file's spelling: seed 000
    once came back with ``1.0`` as ``1``, ``1e-8`` as ``1e-08`` and ``[0.9, 0.999]`` over four lines."""
    text = (
        "{\n  # comment\n  gradient_clipping: 1.0,\n"
        '  "optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": [0.9, 0.999], "eps": 1e-8}},\n'
        '  "zero_optimization": {"stage": 3, "reduce_bucket_size": 5e8, "x": [\n    1,\n    2\n  ]}\n}\n'
    )
    after = fixed(text, unsafe=True, profile="hf")
    assert json.loads(after) == {
        "gradient_clipping": 1.0,
        "optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": [0.9, 0.999], "eps": 1e-8}},
        "zero_optimization": {"stage": 3, "reduce_bucket_size": 5e8, "x": [1, 2]},
    }
    assert '"gradient_clipping": 1.0,' in after and '"eps": 1e-8' in after and '"reduce_bucket_size": 5e8' in after
    assert '"betas": [0.9, 0.999],' in after  # one line in the file, one line here
    assert '"x": [\n      1,\n      2\n    ]' in after  # several lines in the file, one item a line here


def test_a_hugging_face_file_with_comments_keeps_its_autos_once_rewritten() -> None:
    """A file that writes "auto" but has comments (as seed 000 does) is Hugging Face's, which json.load refuses:
    the unsafe fix rewrites it as strict JSON, and the rewritten file is still read as Hugging Face's, so its
    "auto" values stay for Hugging Face to fill (the passes after the rewrite once read it as the launcher's and
    wrote the learning rate's default over "auto")."""
    text = (
        '{\n  "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},  # filled by the Trainer\n'
        '  "bf16": {"enabled": "auto"}\n}\n'
    )
    result = fix_text(text, "ds.json", settings=CheckSettings(profile=None), unsafe=True)
    fixed = json.loads(result.text)
    assert fixed == {"optimizer": {"type": "AdamW", "params": {"lr": "auto"}}, "bf16": {"enabled": "auto"}}
    assert result.after.loaded is not None and result.after.loaded.profile == "hf"
    assert len(result.fixed) == 1  # the rewrite alone: no default written over an "auto"


def test_line_ends_and_comments_stay_as_written() -> None:
    text = '{\r\n  // keep me\r\n  "train_batch_size": 8,\r\n  "bfloat16": {"enabled": "true"}\r\n}\r\n'
    assert fixed(text) == '{\r\n  // keep me\r\n  "train_batch_size": 8,\r\n  "bf16": {"enabled": true}\r\n}\r\n'


def test_fixes_are_data_on_the_findings_in_the_json_report(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text('{\n  "train_batch_size": 8,\n  "bfloat16": {"enabled": true}\n}\n', encoding="utf-8")
    proc = _dsref("check", str(path), "--format", "json")
    [finding] = [f for f in json.loads(proc.stdout)["files"][0]["findings"] if f["code"] == "DS301"]
    assert finding["fix"] == {
        "title": 'rename "bfloat16" to "bf16"',
        "applicability": "safe",
        "edits": [{"line": 3, "column": 3, "end_line": 3, "end_column": 13, "replacement": '"bf16"'}],
    }
    zh = _dsref("check", str(path), "--format", "json", "--lang", "zh")
    [finding] = [f for f in json.loads(zh.stdout)["files"][0]["findings"] if f["code"] == "DS301"]
    assert finding["fix"]["title"] == "将“bfloat16”重命名为“bf16”"


def test_overlapping_fixes_wait_for_the_next_pass() -> None:
    """A deprecated name at a stage that ignores it: the rename (safe) first, then the removal (unsafe)."""
    text = (
        '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2,\n'
        '    "stage3_gather_fp16_weights_on_model_save": true\n  }\n}\n'
    )
    assert '"stage3_gather_16bit_weights_on_model_save": true' in fixed(text)
    assert fixed(text, unsafe=True) == '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n'


def test_a_fix_that_would_clash_is_not_applied() -> None:
    """Two deprecated switches both become offload_optimizer: the second waits, merges or stays, never a duplicate."""
    text = (
        '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2,\n    "cpu_offload": true,\n'
        '    "cpu_offload_use_pin_memory": true\n  }\n}\n'
    )
    result = fix_text(text, "ds.json")
    assert result.after.error is None
    assert not [f for f in result.after.findings if f.code == "DS003"]
    assert json.loads(result.text)["zero_optimization"]["offload_optimizer"] == {"device": "cpu", "pin_memory": True}


def test_apply_edits_maps_offsets_onto_crlf_text() -> None:
    from dsref.check.edits import Edit

    assert apply_edits("a\r\nbc\r\nd", [Edit(2, 4, "X\nY")]) == "a\r\nX\r\nY\r\nd"


# -- the command line ---------------------------------------------------------------------------------------------


def _dsref(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dsref", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=ROOT,
        env={**os.environ, "LANG": "C.UTF-8", "NO_COLOR": "1"},
    )


BROKEN = (
    '{\n  // mixed precision\n  "train_batch_size": 8,\n  "bfloat16": {"enabled": "true"},\n'
    '  "amp": {"enabled": true}\n}\n'
)


def test_diff_prints_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    proc = _dsref("check", "--diff", str(path))
    assert proc.returncode == 1
    assert '-  "bfloat16": {"enabled": "true"},\n+  "bf16": {"enabled": true},\n' in proc.stdout
    assert "would fix 2 findings in 1 file" in proc.stderr
    assert path.read_text(encoding="utf-8") == BROKEN
    unsafe = _dsref("check", "--diff", "--unsafe-fixes", str(path))
    assert '-  "amp": {"enabled": true}\n' in unsafe.stdout


PATCHED = {
    "CRLF line ends": b'{\r\n  // keep me\r\n  "train_batch_size": 8,\r\n  "bfloat16": {"enabled": "true"}\r\n}\r\n',
    "control characters": (
        b'{\n  // \x1b[31mred\x07 \x0c \x7f \xc2\x9b \xe2\x80\xa8 \xe2\x80\xae\n  "train_batch_size": 8,\n'
        b'  "bfloat16": {"enabled": "true"} // \x1b]0;title\x07\n}'
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("into", ["pipe", "file"])
@pytest.mark.parametrize("name", ["ds.json", "tab\there.json"], ids=["plain name", "name with a tab"])
@pytest.mark.parametrize("data", PATCHED.values(), ids=list(PATCHED))
def test_diff_is_a_patch_git_apply_and_patch_take(tmp_path: Path, data: bytes, name: str, into: str) -> None:
    """Written to a pipe or a file, ``--diff`` is the patch itself: the real ``git apply`` and ``patch`` accept it,
    and applying it gives the bytes ``--fix`` writes."""
    from tests import needs

    git, patch = needs.program("git"), needs.program("patch")
    (tmp_path / name).write_bytes(data)
    command = [sys.executable, "-m", "dsref", "check", "--diff", name]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8", "NO_COLOR": "1"}
    if into == "pipe":
        proc = subprocess.run(command, capture_output=True, cwd=tmp_path, env=env, timeout=120)
        diff = proc.stdout
    else:
        with open(tmp_path / "fix.diff", "wb") as out:
            proc = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, cwd=tmp_path, env=env, timeout=120)
        diff = (tmp_path / "fix.diff").read_bytes()
    assert proc.returncode == 1, proc.stderr
    assert b"\\r" not in diff and b"\\x1b" not in diff  # no escape written where the file has the character
    (tmp_path / "fix.diff").write_bytes(diff)
    tools = {
        "git apply": [git, "apply", "--check", "--verbose", "fix.diff"],
        "patch": [patch, "-p1", "--dry-run", "--batch", "-i", "fix.diff"],
    }
    for tool, args in tools.items():
        checked = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=60)
        assert checked.returncode == 0, f"{tool} refused the diff: {checked.stdout}{checked.stderr}\n{diff!r}"
    fixed = tmp_path / "fixed"
    fixed.mkdir()
    (fixed / name).write_bytes(data)
    subprocess.run([*command[:-2], "--fix", name], capture_output=True, cwd=fixed, env=env, timeout=120, check=True)
    subprocess.run([git, "apply", "fix.diff"], capture_output=True, cwd=tmp_path, timeout=60, check=True)
    assert (tmp_path / name).read_bytes() == (fixed / name).read_bytes() != data


@pytest.mark.slow
def test_diff_on_a_terminal_shows_control_characters_escaped(tmp_path: Path) -> None:
    import pty

    (tmp_path / "ds.json").write_bytes(PATCHED["control characters"])
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "dsref", "check", "--diff", "ds.json"],
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8", "NO_COLOR": "1"},
            timeout=120,
        )
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the other end is closed: all read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert proc.returncode == 1
    assert b"\x1b" not in shown and b"\x07" not in shown
    assert b"// \\x1b[31mred\\x07" in shown


def test_fix_writes_reports_what_remains_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    path.chmod(0o640)
    proc = _dsref("check", "--fix", str(path))
    assert proc.returncode == 1  # the removed amp section is still an error
    assert "1 fixable with --fix --unsafe-fixes" in proc.stdout
    assert proc.stdout.rstrip().endswith("fixed 2 findings in 1 file")
    assert path.read_text(encoding="utf-8") == BROKEN.replace(
        '"bfloat16": {"enabled": "true"}', '"bf16": {"enabled": true}'
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    again = _dsref("check", "--fix", str(path))
    assert again.stdout.rstrip().endswith("fixed 0 findings in 0 files")
    proc = _dsref("check", "--fix", "--unsafe-fixes", str(path))
    assert proc.returncode == 0
    assert "amp" not in path.read_text(encoding="utf-8")
    assert not [p for p in tmp_path.iterdir() if p.name != "ds.json"]  # no temporary file left


def test_fix_reads_stdin_and_writes_stdout() -> None:
    proc = _dsref("check", "--fix", "-", stdin=BROKEN)
    assert proc.stdout == BROKEN.replace('"bfloat16": {"enabled": "true"}', '"bf16": {"enabled": true}')
    assert "<stdin>:" in proc.stderr and "fixed 2 findings in 1 file" in proc.stderr


def test_a_read_only_file_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    path.chmod(0o444)
    proc = _dsref("check", "--fix", str(path))
    assert proc.returncode == 2
    assert "cannot write" in proc.stderr and "the file is unchanged" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert path.read_text(encoding="utf-8") == BROKEN


def test_an_unparsable_file_gets_no_edits(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    text = '{"train_batch_size": 8, "bfloat16": {"enabled": "true"}\n'  # never closed
    path.write_text(text, encoding="utf-8")
    proc = _dsref("check", "--fix", "--unsafe-fixes", str(path))
    assert proc.returncode == 2 and "DS000" in proc.stdout  # as check: a file that cannot be read
    assert path.read_text(encoding="utf-8") == text


def test_an_interrupted_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ds.json"
    path.write_text("old", encoding="utf-8")
    original = read_original(str(path))
    assert isinstance(original, Original)

    def interrupted(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_fixed(original.snapshot, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["ds.json"]


# -- proven on real configs ---------------------------------------------------------------------------------------


def _real_texts() -> list[tuple[str, str]]:
    files = sorted(shared_path("corpus", "real").glob("*.json"))
    seeds = sorted(shared_path("seeds").glob("000_*.txt"))
    return [(p.name, p.read_bytes().decode("utf-8", "replace")) for p in [*files, *seeds]]


def _deepspeed_view(text: str) -> Any:
    """What DeepSpeed 0.19.8 builds from the text (``DeepSpeedConfig``, every field), or the error it raises."""
    import hjson
    from deepspeed.runtime.config_utils import dict_raise_error_on_duplicate_keys

    try:
        config = hjson.loads(text.removeprefix("\ufeff"), object_pairs_hook=dict_raise_error_on_duplicate_keys)
    except Exception as exc:
        return f"refused: {type(exc).__name__}"
    return deepspeed_built(config)


def deepspeed_built(config: Any) -> Any:
    """What ``DeepSpeedConfig`` builds from a parsed config (every field), or the error it raises."""
    from deepspeed.runtime.config import DeepSpeedConfig

    try:
        built = DeepSpeedConfig(copy.deepcopy(config))
    except Exception as exc:
        return f"refused: {type(exc).__name__}"
    return {k: _plain(v) for k, v in vars(built).items() if k != "_param_dict"}


_DEPRECATED_ZERO_FIELDS = ("cpu_offload", "cpu_offload_param", "cpu_offload_use_pin_memory")


def _plain(value: Any) -> Any:
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        dump = value.model_dump()
        return {k: _plain(v) for k, v in dump.items() if k not in _DEPRECATED_ZERO_FIELDS}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if hasattr(value, "__dict__"):
        return {k: _plain(v) for k, v in vars(value).items()}
    return repr(value)


@pytest.fixture(scope="module")
def quiet_deepspeed() -> Any:
    require_deepspeed()
    from deepspeed.utils import logger

    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


@pytest.mark.slow
def test_safe_fixes_build_the_same_deepspeed_config_on_every_real_file(quiet_deepspeed: Any) -> None:
    texts = _real_texts()
    assert len(texts) > 300
    changed = proven = 0
    problems: list[str] = []
    for name, text in texts:
        result = fix_text(text, name)
        if not result.changed:
            continue
        changed += 1
        if result.after.error is not None and result.before.error is None:
            problems.append(f"{name}: no longer parses")
        if len(result.after.findings) > len(result.before.findings):
            problems.append(f"{name}: more findings after fixing")
        if fix_text(result.text, name).changed:
            problems.append(f"{name}: a second --fix changes it again")
        before = _deepspeed_view(text)
        if isinstance(before, dict):
            proven += 1
            if _deepspeed_view(result.text) != before:
                problems.append(f"{name}: DeepSpeedConfig differs after the safe fixes")
    assert not problems, "\n".join(problems)
    assert changed > 20 and proven > 10, (changed, proven)


@pytest.mark.slow
def test_unsafe_fixes_keep_every_real_file_parsable_and_stable() -> None:
    problems = []
    for name, text in _real_texts():
        result = fix_text(text, name, settings=CheckSettings(world_size=8), unsafe=True)
        if not result.changed:
            continue
        if result.after.error is not None:
            problems.append(f"{name}: no longer parses")
        if len(result.after.findings) > len(result.before.findings):
            problems.append(f"{name}: more findings after fixing")
        if fix_text(result.text, name, settings=CheckSettings(world_size=8), unsafe=True).changed:
            problems.append(f"{name}: a second --fix changes it again")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("before", "world_size", "field", "old", "new"),
    [
        # duplicate key: DeepSpeed refused the file; now the later value counts
        (
            '{"train_batch_size": 8, "steps_per_print": 10, "steps_per_print": 100}',
            None,
            "steps_per_print",
            "refused",
            100,
        ),
        # a section written twice in Hjson, the first over several lines with comments: the later one now counts
        (
            '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 3, // first\n  },\n'
            '  "zero_optimization": {"stage": 2}\n}',
            None,
            "zero_config.stage",
            "refused",
            2,
        ),
        # a typo DeepSpeed refused: the suggested key now takes effect
        (
            '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "reduce_bucket_sise": 1000}}',
            None,
            "zero_config.reduce_bucket_size",
            "refused",
            1000,
        ),
        # a section DeepSpeed ignored at the top level: moved, it now takes effect
        (
            '{"train_batch_size": 8, "zero_optimization": {"stage": 2}, "offload_optimizer": {"device": "cpu"}}',
            None,
            "zero_config.offload_optimizer.device",
            None,
            "cpu",
        ),
        # an option the stage ignores: gone, DeepSpeed's value is the default again
        (
            '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "stage3_max_live_parameters": 7}}',
            None,
            "zero_config.max_live_parameters",
            7,
            1000000000,
        ),
        # a removed section DeepSpeed refused: gone, the file builds
        ('{"train_batch_size": 8, "amp": {"enabled": true}}', None, "train_batch_size", "refused", 8),
        # batch arithmetic for a world size of 1 (DeepSpeedConfig takes 1 without torch.distributed)
        (
            '{"train_batch_size": 16, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}',
            1,
            "train_batch_size",
            "refused",
            8,
        ),
        # "auto" where nothing fills it: DeepSpeed kept the string (and fails at the first step); now the default
        ('{"train_batch_size": 8, "gradient_clipping": "auto"}', None, "gradient_clipping", "auto", 1.0),
        # "auto" DeepSpeed drops: removing it changes nothing for DeepSpeed (Hugging Face would have filled it)
        (
            '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": "auto"}}',
            None,
            "zero_config.reduce_bucket_size",
            500000000,
            500000000,
        ),
        # a number written as a string, which DeepSpeed kept as a string
        ('{"train_batch_size": 8, "gradient_clipping": "0.5"}', None, "gradient_clipping", "0.5", 0.5),
    ],
)
@pytest.mark.slow
def test_each_unsafe_fix_changes_what_it_says(
    quiet_deepspeed: Any, before: str, world_size: int | None, field: str, old: Any, new: Any
) -> None:
    after = fixed(before, unsafe=True, world_size=world_size)
    assert after != before

    def pick(view: Any) -> Any:
        if isinstance(view, str):
            return "refused"
        for step in field.split("."):
            view = view.get(step) if isinstance(view, dict) else None
        return view

    before_view, after_view = _deepspeed_view(before), _deepspeed_view(after)
    assert pick(before_view) == old
    assert pick(after_view) == new
    if isinstance(before_view, dict):  # nothing else changed
        top = field.split(".")[0]
        assert {k: v for k, v in before_view.items() if k != top} == {k: v for k, v in after_view.items() if k != top}


@pytest.mark.slow
def test_hjson_rewritten_as_json_builds_the_same_deepspeed_config(quiet_deepspeed: Any) -> None:
    """The one unsafe fix whose loss is not DeepSpeed's: comments and Hjson syntax go, the config stays."""
    hjson_texts = [
        t for _, t in _real_texts() if check_text(t, "x", settings=CheckSettings(profile="hf")).error is not None
    ]
    assert hjson_texts
    from dsref.check.fix.fixer import apply_edits
    from dsref.check.read.loader import LoadedConfig, load_text
    from dsref.check.repair.repairing import strict_json_fix

    rewritten = 0
    for text in hjson_texts:
        loaded = load_text(text)  # as DeepSpeed's Hjson reads it
        if not isinstance(loaded, LoadedConfig):
            continue
        fix = strict_json_fix(loaded, rewrite=True)
        assert fix is not None
        after = apply_edits(text, list(fix.edits))
        json.loads(after)
        before_view, after_view = _deepspeed_view(text), _deepspeed_view(after)
        if isinstance(before_view, dict):
            assert after_view == before_view
        else:  # refused before (a key written twice, say): the rewrite must not make DeepSpeed accept it
            assert isinstance(after_view, str) and after_view.startswith("refused")
        rewritten += 1
    assert rewritten > 3


def test_every_fix_kind_has_a_title_in_both_languages() -> None:
    from dsref.check.edits import TITLES

    names = ("old", "new", "key", "target", "section", "line", "later", "stage", "release", "micro", "gas", "world")
    args = {name: "x" for name in names}
    for key in TITLES.table:
        assert TITLES.text(key, "zh", **args) != TITLES.text(key, "en", **args), key
    assert {a.value for a in Applicability} == {"safe", "unsafe"}


# -- mutated real configs ------------------------------------------------------------------------------------------

_MUTATIONS = [
    ('"enabled": true', '"enabled": "true"'),
    ('"enabled": false', '"enabled": "False"'),
    ('"bf16"', '"bfloat16"'),
    ('"stage3_gather_16bit_weights_on_model_save"', '"stage3_gather_fp16_weights_on_model_save"'),
    ('"reduce_bucket_size"', '"reduce_bucket_sise"'),
    ("}\n}", "},\n}"),
    ('"overlap_comm": true', '"overlap_comm": true, "overlap_comm": false'),
    ('"offload_optimizer"', '"offload_optimizr"'),
]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fixing_mutated_real_configs_parses_is_idempotent_and_adds_nothing(data: st.DataObject) -> None:
    texts = _texts_once()
    name, text = data.draw(st.sampled_from(texts))
    for old, new in data.draw(st.lists(st.sampled_from(_MUTATIONS), max_size=4, unique=True)):
        text = text.replace(old, new, 1)
    unsafe = data.draw(st.booleans())
    result = fix_text(text, name, unsafe=unsafe)
    if result.before.error is not None:
        assert not result.changed or result.before.findings[0].fix is not None
        return
    assert result.after.error is None
    assert len(result.after.findings) <= len(result.before.findings)
    assert fix_text(result.text, name, unsafe=unsafe).text == result.text


_TEXTS: list[tuple[str, str]] = []


def _texts_once() -> list[tuple[str, str]]:
    if not _TEXTS:
        _TEXTS.extend(_real_texts())
    return _TEXTS


def test_a_comment_aligned_after_a_fixed_value_keeps_its_column() -> None:
    text = (
        '{\n  "train_batch_size": 8,\n  "gradient_clipping": "auto",   # clip\n  "steps_per_print": 10   # print\n}\n'
    )
    result = fix_text(text, "ds.json", unsafe=True)
    assert result.changed
    before, after = text.splitlines()[2], result.text.splitlines()[2]
    assert after.index("# clip") == before.index("# clip"), (before, after)
    assert after.startswith('  "gradient_clipping": 1.0,')
