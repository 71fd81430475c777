"""Every message the JSON and Hjson parsers can stop with is said in Chinese (:mod:`dsref.check.read.parse_errors`):
each is made to happen here, and a message with no meaning fails the test; a file that starts with a UTF-8 BOM is
checked in both readings, in Chinese, with no English of the parser's left in what the reader sees."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import hjson
import pytest

from dsref.check.read.parse_errors import PARSER, meaning, said

JSON_STOPS = [
    "",
    '{"a": 1 "b": 2}',
    '{"a" 1}',
    '{"a": 1,}',
    "{} x",
    '{"a": "x',
    '{"a": "\t"}',
    r'{"a": "\q"}',
    r'{"a": "\u12"}',
    "\ufeff{}",
]
"""Texts json.loads refuses, one for each message it has (Python 3.13 says "Illegal trailing comma" for the fourth)."""
HJSON_STOPS = [
    r'{"a": "\q"}',
    r'{"a": "\u12"}',
    "{a",
    "{:1}",
    "{a b: 1}",
    "{,}",
    "[1",
    "{a: }",
    "{a: 1} x",
    '{"a": "x',
    '{"a": "\t"}',
    '{"a" 1}',
    "{a: '''\n  x}",
    "[1, 2",
]
"""Texts hjson.loads refuses, one for each message it has ("string index out of range", hjson's crash on a ''' string
in a file without a line break, is found and said by dsref before hjson runs)."""


def _stop(loads, text: str) -> str:
    with pytest.raises(ValueError) as caught:
        loads(text)
    return getattr(caught.value, "msg", str(caught.value))


@pytest.mark.parametrize(
    ("loads", "text"), [(json.loads, t) for t in JSON_STOPS] + [(hjson.loads, t) for t in HJSON_STOPS]
)
def test_every_parser_message_has_a_meaning(loads, text: str) -> None:
    raw = _stop(loads, text)
    assert meaning(raw), f"{loads.__module__} says {raw!r} for {text!r}, which parse_errors does not know"
    assert re.search(r"[\u4e00-\u9fff]", said(raw, "zh") or "")


def test_every_meaning_has_chinese() -> None:
    from dsref.check.read import parse_errors

    names = {name for _, name in parse_errors._MEANINGS}
    assert names
    for name in names:
        assert re.search(r"[\u4e00-\u9fff]", PARSER.text(name, "zh")), name


def _check(*argv: str) -> str:
    from dsref.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main(["check", "--lang", "zh", *argv])
    return out.getvalue()


@pytest.mark.parametrize("profile", ["deepspeed", "hf"])
def test_a_bom_file_is_reported_in_chinese_in_both_readings(tmp_path: Path, profile: str) -> None:
    path = tmp_path / "ds_config.json"
    path.write_bytes(b'\xef\xbb\xbf{"train_batch_size": 8}\n')
    said_ = _check("--profile", profile, str(path))
    assert "字节顺序标记（BOM）" in said_
    assert "Unexpected" not in said_ and "utf-8-sig" not in said_, said_
    if profile == "hf":  # json.load refuses it: an error, in Chinese
        assert "错误[DS000]" in said_ and "无法读取这个文件：文件以字节顺序标记（BOM）开头" in said_, said_
    else:  # the launcher skips it: a note that Hugging Face would not
        assert "提示[DS004]" in said_, said_


def test_the_json_output_says_it_in_chinese_too(tmp_path: Path) -> None:
    path = tmp_path / "ds_config.json"
    path.write_bytes(b'\xef\xbb\xbf{"train_batch_size": 8}\n')
    report = json.loads(_check("--profile", "hf", "--format", "json", str(path)))
    (finding,) = [f for f in report["files"][0]["findings"] if f["code"] == "DS000"]
    assert "字节顺序标记" in finding["message"]
