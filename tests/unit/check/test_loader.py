"""dsref.check.read.loader: a config read as DeepSpeed (Hjson) or Hugging Face (json) reads it, with where every entry
is."""

from __future__ import annotations

import json
import math
import os
import random
import re
import sys
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import hjson
import pytest
from hjson.decoder import scanstring
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsref.check.findings import Location
from dsref.check.positions import LineIndex, line_starts
from dsref.check.read.loader import (
    MAX_BYTES,
    Duplicate,
    LoadedConfig,
    LoadError,
    LoadErrorKind,
    Span,
    load,
    load_text,
    read_stdin,
)
from dsref.check.read.walker import MAX_DEPTH
from dsref.check.settings import CheckSettings
from dsref.tree.profiles import Profile
from tests import needs
from tests.conftest import require_deepspeed, shared_path

# --- helpers ---------------------------------------------------------------------------------------------------


def ok(text: str, profile: Profile = "deepspeed") -> LoadedConfig:
    result = load_text(text, profile)
    assert isinstance(result, LoadedConfig), result
    return result


def failed(text: str, profile: Profile = "deepspeed") -> LoadError:
    result = load_text(text, profile)
    assert isinstance(result, LoadError), result
    return result


def locations(value: Any, loc: Location = ()) -> Iterator[Location]:
    yield loc
    if isinstance(value, dict):
        for key, child in value.items():
            yield from locations(child, (*loc, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from locations(child, (*loc, i))


def at(value: Any, loc: Location) -> Any:
    for step in loc:
        value = value[step]
    return value


def same(a: Any, b: Any) -> bool:
    """Equal with types: 1, 1.0 and True differ; NaN equals NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def written(cfg: LoadedConfig, span: Span) -> str:
    """The text a span covers."""
    lines = cfg.source_lines
    if span.line == span.end_line:
        return lines[span.line - 1][span.col - 1 : span.end_col - 1]
    middle = lines[span.line : span.end_line - 1]
    return "\n".join([lines[span.line - 1][span.col - 1 :], *middle, lines[span.end_line - 1][: span.end_col - 1]])


def check_positions(cfg: LoadedConfig) -> None:
    """Every parsed entry has a position, and nothing else does; each span's text reads back as the parsed value."""
    assert set(cfg.positions) == set(locations(cfg.data))
    for loc, spans in cfg.positions.items():
        value = at(cfg.data, loc)
        if loc and isinstance(loc[-1], str):
            assert spans.key is not None
            key_text = written(cfg, spans.key)
            if cfg.profile == "hf":
                assert json.loads(key_text) == loc[-1]
            elif key_text[:1] in ("'", '"'):
                assert scanstring(key_text, 1)[0] == loc[-1]
            else:
                assert key_text == loc[-1]
        else:
            assert spans.key is None
        if not loc:
            continue
        text = written(cfg, spans.value)
        if cfg.profile == "hf":
            assert same(json.loads(text), value), (loc, text)
        elif not (spans.form == "multiline_string" and spans.value.line == 1):
            # in value position, at the same column: a quoteless value or a ''' string reads the same there
            wrapped = "[\n" + " " * (spans.value.col - 1) + text + "\n]"
            assert same(hjson.loads(wrapped, object_pairs_hook=dict)[0], value), (loc, text)


def S(line: int, col: int, end_line: int, end_col: int) -> Span:
    return Span(line, col, end_line, end_col)


# --- Hjson, the deepspeed profile --------------------------------------------------------------------------------


def test_plain_json_positions() -> None:
    cfg = ok('{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 3}\n}\n')
    assert cfg.data == {"train_batch_size": 8, "zero_optimization": {"stage": 3}}
    assert cfg.positions[()].value == S(1, 1, 4, 2)
    assert cfg.positions[("train_batch_size",)].key == S(2, 3, 2, 21)
    assert cfg.positions[("train_batch_size",)].value == S(2, 23, 2, 24)
    assert cfg.positions[("zero_optimization",)].value == S(3, 24, 3, 36)
    assert cfg.positions[("zero_optimization", "stage")].key == S(3, 25, 3, 32)
    assert cfg.positions[("zero_optimization", "stage")].value == S(3, 34, 3, 35)
    assert cfg.positions[("zero_optimization", "stage")].form == "number"
    assert cfg.duplicates == () and cfg.accepted_by_reader
    assert cfg.source_lines[1] == '  "train_batch_size": 8,'
    check_positions(cfg)


@pytest.mark.parametrize(
    "comment",
    ["// line comment", "# hash comment", "/* block */", "/* block\n   over lines */"],
)
def test_comments(comment: str) -> None:
    cfg = ok(f'{{\n  {comment}\n  "a": 1, {comment}\n  "b": 2\n}}')
    assert cfg.data == {"a": 1, "b": 2}
    extra = comment.count("\n")
    assert cfg.positions[("a",)].key == S(3 + extra, 3, 3 + extra, 6)
    assert cfg.positions[("b",)].value == S(4 + 2 * extra, 8, 4 + 2 * extra, 9)
    check_positions(cfg)


def test_trailing_and_missing_commas() -> None:
    cfg = ok('{\n  "a": [1, 2,],\n  "b": true\n  "c": "x" "d": null,\n}')
    assert cfg.data == {"a": [1, 2], "b": True, "c": "x", "d": None}
    assert cfg.positions[("a", 1)].value == S(2, 12, 2, 13)
    assert cfg.positions[("d",)].key == S(4, 12, 4, 15)
    assert cfg.positions[("d",)].form == "null"
    check_positions(cfg)


def test_quoteless_keys_and_values() -> None:
    text = (
        "{\n  fp16: {enabled: true}\n  a: NaN\n  b: True\n  c: 0x10\n  d: 01\n  e: auto # not a comment\n  f:  x y  \n}"
    )
    cfg = ok(text)
    assert cfg.data == {
        "fp16": {"enabled": True},
        "a": "NaN",
        "b": "True",
        "c": "0x10",
        "d": "01",
        "e": "auto # not a comment",
        "f": "x y",
    }
    assert cfg.positions[("fp16",)].key == S(2, 3, 2, 7)
    assert cfg.positions[("fp16", "enabled")].key == S(2, 10, 2, 17)
    assert cfg.positions[("fp16", "enabled")].value == S(2, 19, 2, 23)
    assert cfg.positions[("a",)].value == S(3, 6, 3, 9)
    assert cfg.positions[("a",)].form == "quoteless_string"
    assert cfg.positions[("b",)].form == "quoteless_string"
    assert cfg.positions[("e",)].value == S(7, 6, 7, 26)
    assert cfg.positions[("f",)].value == S(8, 7, 8, 10)  # the text hjson keeps, without the spaces around it
    check_positions(cfg)


def test_quoteless_value_swallows_the_closing_brace() -> None:
    error = failed('{"fp16": {"loss_scale": NaN}}')
    assert error.kind is LoadErrorKind.syntax and error.reason == "syntax_hjson"
    # the error stands at the unquoted value, not at the end of the file where Hjson gave up
    assert (error.line, error.col) == (1, 25)
    assert "'NaN' has no quotes, so Hjson reads it to the end of the line" in error.text()
    # where the first wrong token cannot be named, the hint still points at the quoteless value
    error = failed('{"a": 1,\n "fp16": {"loss_scale": NaN}}, x')
    assert error.hint in ("hint_quoteless", None) and error.line is not None


def test_single_quotes_and_escapes() -> None:
    cfg = ok("{'a': 'it\\'s', \"b\": 'say \"hi\"', 'c\\u00e9': \"\\t\"}")
    assert cfg.data == {"a": "it's", "b": 'say "hi"', "cé": "\t"}
    assert cfg.positions[("a",)].value == S(1, 7, 1, 14)
    assert cfg.positions[("cé",)].key == S(1, 33, 1, 42)
    check_positions(cfg)


def test_numbers_as_hjson_reads_them() -> None:
    cfg = ok("a: 1e9\nb: 5e8\nc: 1.0\nd: 2.5\ne: 1e10\nf: -0\ng: 1E3 \nh: 3,\ni: NaN,\n")
    expected = {"a": 10**9, "b": 5 * 10**8, "c": 1, "d": 2.5, "e": 1e10, "f": 0, "g": 1000, "h": 3, "i": "NaN,"}
    assert same(cfg.data, expected)
    assert cfg.positions[("g",)].value == S(7, 4, 7, 7)
    assert cfg.positions[("h",)].value == S(8, 4, 8, 5)  # a number ends at a comma, a quoteless string does not
    assert cfg.positions[("i",)].value == S(9, 4, 9, 8)
    assert cfg.positions[("i",)].form == "quoteless_string"
    check_positions(cfg)


def test_multiline_string() -> None:
    cfg = ok("{\n  comment:\n    '''\n    first\n      second\n    '''\n  b: 1\n}")
    assert cfg.data == {"comment": "first\n  second", "b": 1}
    assert cfg.positions[("comment",)].value == S(3, 5, 6, 8)
    assert cfg.positions[("comment",)].form == "multiline_string"
    check_positions(cfg)


def test_root_without_braces() -> None:
    cfg = ok("// top\ntrain_batch_size: 16\nzero_optimization: {\n  stage: 2\n}\n")
    assert cfg.data == {"train_batch_size": 16, "zero_optimization": {"stage": 2}}
    assert cfg.positions[()].value == S(2, 1, 5, 2)
    assert cfg.positions[("zero_optimization", "stage")].key == S(4, 3, 4, 8)
    check_positions(cfg)


@pytest.mark.parametrize(("text", "data"), [("5", 5), ("[1, 2]", [1, 2]), ("hello world", "hello world")])
def test_root_need_not_be_an_object(text: str, data: Any) -> None:
    assert ok(text).data == data


@pytest.mark.parametrize("text", ["", "   \n\t", "// only a comment\n", "/* c */ # d"])
def test_empty_file_is_an_empty_dict(text: str) -> None:
    cfg = ok(text)
    assert cfg.data == {} and list(cfg.positions) == [()]


def test_bom() -> None:
    cfg = ok('\ufeff{"a": 1}')
    assert cfg.data == {"a": 1}
    assert cfg.positions[("a",)].key == S(1, 2, 1, 5)  # the BOM takes no column
    assert cfg.source_lines == ('{"a": 1}',)
    # hjson only treats a text as empty when no BOM precedes it
    assert failed("\ufeff").reason == "syntax_hjson"


def test_line_ends_are_translated_as_text_mode_does() -> None:
    cfg = ok('{\r\n  "a": x\r\n  "b": 2\r}')
    assert cfg.data == {"a": "x", "b": 2}
    assert cfg.positions[("b",)].key == S(3, 3, 3, 6)
    assert cfg.source_lines == ("{", '  "a": x', '  "b": 2', "}")


def test_tabs_and_wide_characters_count_one_column() -> None:
    cfg = ok('{\n\t"名前": "値",\t"b": 1}')
    assert cfg.positions[("名前",)].key == S(2, 2, 2, 6)
    assert cfg.positions[("b",)].key == S(2, 13, 2, 16)


def test_duplicates_at_depth() -> None:
    text = (
        '{\n  "zero_optimization": {\n    "stage": 2,\n    "stage": 3\n  },\n'
        '  "steps_per_print": 1,\n  "steps_per_print": 2\n}'
    )
    cfg = ok(text)
    assert cfg.data == {"zero_optimization": {"stage": 3}, "steps_per_print": 2}
    assert cfg.duplicates == (
        Duplicate(("zero_optimization", "stage"), S(3, 5, 3, 12), S(4, 5, 4, 12)),
        Duplicate(("steps_per_print",), S(6, 3, 6, 20), S(7, 3, 7, 20)),
    )
    assert not cfg.accepted_by_reader  # DeepSpeed raises "Duplicate keys in DeepSpeed config"
    assert cfg.positions[("zero_optimization", "stage")].value == S(4, 14, 4, 15)  # the value the reader keeps
    check_positions(cfg)


def test_a_duplicate_replaces_the_whole_subtree() -> None:
    cfg = ok('{"a": {"x": 1, "y": [1, 2]}, "a": {"z": 3}}')
    assert cfg.data == {"a": {"z": 3}}
    assert set(cfg.positions) == {(), ("a",), ("a", "z")}
    assert len(cfg.duplicates) == 1


def test_locate_falls_back_to_the_nearest_written_entry() -> None:
    cfg = ok('{\n  "optimizer": {"type": "Adam"}\n}')
    assert cfg.locate(("optimizer", "type")) == S(2, 17, 2, 23)
    assert cfg.locate(("optimizer", "type"), "value") == S(2, 25, 2, 31)
    assert cfg.locate(("optimizer", "params", "lr")) == S(2, 3, 2, 14)
    assert cfg.locate(("nothing",)) == S(1, 1, 3, 2)


@pytest.mark.parametrize(
    ("text", "reason", "line", "col"),
    [
        ('{\n  "a": 1\n  "b": }', "syntax_hjson", 3, 8),
        ('{"a": 1} extra', "syntax_hjson", 1, 10),
        ('{"a": 1 /* open', "unterminated_comment", 1, 9),
        ("{\n  a: '''", "unterminated_multiline", 2, 6),
        ("{a: '''x'''}", "multiline_one_line", 1, 5),
        ("a: 1e400", "number_overflow", 1, 4),
        ("a: " + "7" * 5000, "too_many_digits", 1, 4),
        ('{"a": "tab\there"}', "syntax_hjson", 1, 12),
    ],
)
def test_hjson_errors(text: str, reason: str, line: int, col: int) -> None:
    error = failed(text)
    assert (error.kind, error.reason, error.line, error.col) == (LoadErrorKind.syntax, reason, line, col)
    assert error.message and error.source_lines
    with pytest.raises(Exception):  # noqa: B017 - whatever hjson raises, DeepSpeed fails too
        hjson.loads(text)


# --- strict JSON, the hf profile -------------------------------------------------------------------------------


def test_hf_reads_strict_json() -> None:
    cfg = ok('{"fp16": {"enabled": "auto"}, "gradient_clipping": 1.0, "x": NaN}', "hf")
    assert same(cfg.data, {"fp16": {"enabled": "auto"}, "gradient_clipping": 1.0, "x": math.nan})
    assert cfg.positions[("gradient_clipping",)].value == S(1, 52, 1, 55)
    assert cfg.profile == "hf"
    check_positions(cfg)


def test_hf_comments_break_the_run() -> None:
    error = failed('{\n  "a": 1 // one\n}', "hf")
    assert (error.kind, error.reason, error.line, error.col) == (
        LoadErrorKind.syntax,
        "json_comment",
        2,
        10,
    )  # said as a comment
    assert error.hint == "hint_hjson_only"


def test_hf_duplicates_keep_the_last_value_and_are_reported() -> None:
    cfg = ok('{"a": {"b": 1, "b": 2}}', "hf")
    assert cfg.data == {"a": {"b": 2}}
    assert cfg.duplicates == (Duplicate(("a", "b"), S(1, 8, 1, 11), S(1, 16, 1, 19)),)
    assert cfg.accepted_by_reader


def test_hf_refuses_a_bom() -> None:
    error = failed('\ufeff{"a": 1}', "hf")
    assert (error.reason, error.line, error.col, error.hint) == ("syntax_json", 1, 1, "hint_bom")


def test_hf_too_many_digits() -> None:
    error = failed('{"a": [' + "9" * 5000 + "]}", "hf")
    assert (error.reason, error.line, error.col) == ("too_many_digits", 1, 8)


# --- files and limits --------------------------------------------------------------------------------------------


def test_load_reads_files_like_load_text(tmp_path: Path) -> None:
    path = tmp_path / "ds_config.json"
    path.write_bytes(b'{\r\n  "a": 1,\r\n}')
    cfg = load(path)
    assert isinstance(cfg, LoadedConfig) and cfg.path == path
    assert cfg.data == {"a": 1} and cfg.positions[("a",)].key == S(2, 3, 2, 6)
    assert isinstance(load(str(path), "hf"), LoadError)


BOTH: tuple[Profile, ...] = ("deepspeed", "hf")


@pytest.mark.parametrize(
    ("content", "profiles", "kind", "reason", "line", "col"),
    [
        (b'{"a": "caf\xe9"}', BOTH, LoadErrorKind.encoding, "encoding", 1, 11),
        (b'{\n"a": \xff}', BOTH, LoadErrorKind.encoding, "encoding", 2, 6),
        ('{"a": 1}'.encode("utf-16"), BOTH, LoadErrorKind.encoding, "encoding_utf16", 1, 1),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff", BOTH, LoadErrorKind.binary, "binary", None, None),
        (b'{"a": 1}\x00\x00', BOTH, LoadErrorKind.binary, "binary", None, None),
        (b"[" * 10_000 + b"]" * 10_000, BOTH, LoadErrorKind.too_deep, "too_deep", 1, MAX_DEPTH + 1),
        (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, BOTH, LoadErrorKind.too_deep, "too_deep", 1, MAX_DEPTH * 5 + 1),
        (b"[" * 900 + b"]" * 900, ("deepspeed",), LoadErrorKind.too_deep, "too_deep", 1, 900),  # RecursionError
        (b"a: n" + b"," * 100_000, ("deepspeed",), LoadErrorKind.too_large, "too_costly", 1, 4),
        (b"a: 1" + b" " * 20_000 + b"x" + b"," * 20_000, ("deepspeed",), LoadErrorKind.too_large, "too_costly", 1, 4),
        (b'{"a": "' + b"x" * (MAX_BYTES + 1) + b'"}', BOTH, LoadErrorKind.too_large, "too_large", None, None),
        (b'{"a": "' + b"x" * 10_000_000 + b'"}', BOTH, LoadErrorKind.too_large, "too_large", None, None),
    ],
)
def test_bad_files_give_a_clear_error(
    tmp_path: Path,
    content: bytes,
    profiles: tuple[Profile, ...],
    kind: LoadErrorKind,
    reason: str,
    line: int | None,
    col: int | None,
) -> None:
    path = tmp_path / "ds_config.json"
    path.write_bytes(content)
    for profile in profiles:
        start = time.perf_counter()
        error = load(path, profile)
        assert time.perf_counter() - start < 10
        assert isinstance(error, LoadError), profile
        assert (error.kind, error.reason, error.line, error.col) == (kind, reason, line, col)
        assert error.message


class _Recursed(BaseException):
    """Raised where a reader was asked to read a text nested past MAX_DEPTH (no ``except Exception`` catches it)."""


@pytest.mark.parametrize(
    ("text", "profile"),
    [
        *(("[" * 5_000 + "]" * 5_000, profile) for profile in (*BOTH, None)),
        *(('{"train_batch_size": "auto", "a": ' + "[" * 3_000 + "]" * 3_000 + "}", p) for p in (*BOTH, None)),
        # Hjson alone (json stops at the comment, before any nesting)
        *(("// a comment\n{a: " + "[" * 3_000 + "]" * 3_000 + "}", profile) for profile in ("deepspeed", None)),
    ],
)
def test_nesting_past_the_limit_is_refused_before_any_reader_recurses(
    monkeypatch: pytest.MonkeyPatch, text: str, profile: Profile | None
) -> None:
    """In a browser, json's C reader can exhaust the JavaScript stack before Python's recursion limit stops it, which
    kills Pyodide (the playground): so no reader is asked to read a text nested deeper than MAX_DEPTH, and the text
    gets the same DS000 (place and depth) it got when the reader stopped on it."""
    import hjson as hjson_module

    def recursed(*_: object, **__: object) -> None:
        raise _Recursed

    expected = load_text(text, profile)
    monkeypatch.setattr(json, "loads", recursed)
    monkeypatch.setattr(hjson_module, "loads", recursed)
    error = load_text(text, profile)
    assert isinstance(error, LoadError) and error.kind is LoadErrorKind.too_deep
    assert error == expected and error.args["depth"] == MAX_DEPTH + 1


def test_missing_paths_and_directories(tmp_path: Path) -> None:
    assert load(tmp_path / "nope.json").kind is LoadErrorKind.not_found  # type: ignore[union-attr]
    assert load(tmp_path).kind is LoadErrorKind.is_directory  # type: ignore[union-attr]
    (tmp_path / "file").write_text("{}")
    assert load(tmp_path / "file" / "ds_config.json").kind is LoadErrorKind.not_found  # type: ignore[union-attr]
    assert load("bad\x00path").kind is LoadErrorKind.unreadable  # type: ignore[union-attr]
    link = tmp_path / "dangling.json"
    link.symlink_to(tmp_path / "gone.json")
    assert load(link).kind is LoadErrorKind.not_found  # type: ignore[union-attr]


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.json"
    path.write_text("{}")

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("dsref.check.read.loader.open", refuse, raising=False)
    error = load(path)
    assert isinstance(error, LoadError) and error.kind is LoadErrorKind.unreadable
    assert error.message == "cannot read the file: permission denied"


def test_unknown_profile_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown profile"):
        load_text("{}", "yaml")  # type: ignore[arg-type]


# --- the real corpus ---------------------------------------------------------------------------------------------


@cache
def corpus() -> tuple[Path, ...]:
    return tuple(sorted(shared_path("corpus", "real").glob("*.json")))


@cache
def corpus_texts() -> tuple[str, ...]:
    return tuple(p.read_bytes().decode("utf-8", "replace") for p in corpus())


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["deepspeed", "hf"])
def test_corpus_loads_with_positions_for_every_entry(profile: Profile) -> None:
    paths = corpus()
    assert len(paths) >= 300
    loaded = 0
    for path in paths:
        result = load(path, profile)
        if isinstance(result, LoadError):
            assert result.kind is LoadErrorKind.syntax and result.line is not None, path
            continue
        loaded += 1
        check_positions(result)
    assert loaded >= (320 if profile == "deepspeed" else 270)


@pytest.mark.slow
def test_corpus_agrees_with_deepspeeds_own_loader() -> None:
    require_deepspeed()
    from deepspeed.runtime.tensor_parallel.init_utils import load_ds_config

    for path in corpus():
        try:
            expected = load_ds_config(str(path))
        except Exception:
            expected = None
        ours = load(path)
        accepted = isinstance(ours, LoadedConfig) and ours.accepted_by_reader
        assert accepted == (expected is not None), path
        if expected is not None:
            assert isinstance(ours, LoadedConfig) and same(ours.data, expected), path


@pytest.mark.slow
def test_corpus_agrees_with_json_load() -> None:
    for path in corpus():
        try:
            with open(path, encoding="utf-8") as handle:
                expected = json.load(handle)
        except ValueError:
            expected = None
        ours = load(path, "hf")
        assert isinstance(ours, LoadedConfig) == (expected is not None), path
        if expected is not None:
            assert isinstance(ours, LoadedConfig) and same(ours.data, expected), path


# --- properties --------------------------------------------------------------------------------------------------

_NOISE = st.text(alphabet="{}[],:\"'#/*\\\n\r \tabcefilnrstu0123456789.-+eE\ufeff\x00é", max_size=8)


def reader_result(text: str, profile: Profile) -> tuple[bool, Any]:
    """What the reader itself makes of a text read from a file (line ends translated)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        if profile == "hf":
            return True, json.loads(text)
        return True, hjson.loads(text, object_pairs_hook=dict)
    except (Exception, RecursionError):
        return False, None


def check_against_reader(text: str, profile: Profile) -> None:
    start = time.perf_counter()
    result = load_text(text, profile)
    assert time.perf_counter() - start < 5
    accepted, expected = reader_result(text, profile)
    if isinstance(result, LoadError):
        assert not accepted or result.kind is LoadErrorKind.too_deep, (text, result)
        assert result.message
        return
    assert accepted, text
    assert same(result.data, expected)
    check_positions(result)


@pytest.mark.slow
@settings(max_examples=needs.examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), profile=st.sampled_from(["deepspeed", "hf"]))
def test_mutated_corpus_files_agree_with_the_reader(data: st.DataObject, profile: Profile) -> None:
    texts = corpus_texts()
    text = data.draw(st.sampled_from(texts))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 12)))
        text = text[:i] + data.draw(_NOISE) + text[j:]
    check_against_reader(text, profile)


@settings(max_examples=needs.examples(300), deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("{}[],:\"'#/*\\\n \tatrue0123.e-x'")), max_size=60))
def test_small_hjson_texts_agree_with_the_reader(text: str) -> None:
    check_against_reader(text, "deepspeed")
    check_against_reader(text, "hf")


@settings(max_examples=needs.examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.binary(max_size=3000))
def test_random_bytes_never_escape(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "random.json"
    path.write_bytes(content)
    for profile in ("deepspeed", "hf"):
        start = time.perf_counter()
        result = load(path, profile)
        assert time.perf_counter() - start < 5
        assert isinstance(result, LoadedConfig | LoadError)


# Generated Hjson documents, written in every style DeepSpeed accepts.

_KEY = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,8}", fullmatch=True)
_ANY_KEY = st.one_of(_KEY, st.text(max_size=6))
_WORD = st.from_regex(r"[A-Za-z_][A-Za-z0-9_ .-]{0,10}[A-Za-z0-9_]", fullmatch=True).filter(
    lambda w: w not in ("true", "false", "null")
)
_SCALAR = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    _WORD,
)


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(inner, max_size=4), st.dictionaries(_ANY_KEY, inner, max_size=4))


_TREE = st.recursive(_SCALAR, _containers, max_leaves=20)
_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_ .-]*[A-Za-z0-9_]")
_GAP = st.sampled_from([",\n", "\n", ", ", ",", " ,\n", "\n// c\n", ",  # c\n", " /* c */,", "\n\n"])


@st.composite
def hjson_document(draw: st.DrawFn) -> tuple[str, Any]:
    def key(k: str) -> str:
        style = draw(st.sampled_from(["double", "single", "bare"]))
        if style == "bare" and _KEY_RE.fullmatch(k):
            return k
        if style == "single" and "'" not in k and "\\" not in k and all(ord(c) >= 32 for c in k):
            return "'" + k + "'"
        return json.dumps(k)

    def value(v: Any) -> tuple[str, bool]:
        """The value's text and whether it runs to the end of the line."""
        if isinstance(v, dict):
            return members([(key(k), *value(x)) for k, x in v.items()], "{", "}"), False
        if isinstance(v, list):
            return members([("", *value(x)) for x in v], "[", "]"), False
        if isinstance(v, str) and v and _WORD_RE.fullmatch(v) and draw(st.booleans()):
            return v, True
        if isinstance(v, str) and v.isprintable() and "'" not in v and "\\" not in v and draw(st.booleans()):
            return "'" + v + "'", False
        return json.dumps(v), False

    def members(items: list[tuple[str, str, bool]], open_: str, close: str) -> str:
        out = open_ + draw(st.sampled_from(["", "\n", " "]))
        for i, (k, text, to_eol) in enumerate(items):
            out += (k + draw(st.sampled_from([": ", ":", " : "])) if k else "") + text
            last = i == len(items) - 1
            gap = draw(st.sampled_from(["", ",", "\n"])) if last else draw(_GAP)
            if to_eol:  # a quoteless value takes everything to the end of its line
                gap = "\n" + gap.lstrip(" ")
            out += gap
        return out + close

    tree = draw(st.dictionaries(_ANY_KEY, _TREE, max_size=5))
    text, _ = value(tree)
    if draw(st.booleans()):
        text = draw(st.sampled_from(["// header\n", "# header\n", "/* header */\n", "\ufeff"])) + text
    return text, tree


@pytest.mark.slow
@settings(max_examples=needs.examples(300), deadline=None)
@given(document=hjson_document())
def test_generated_hjson_documents(document: tuple[str, Any]) -> None:
    text, tree = document
    cfg = ok(text)
    assert set(locations(cfg.data)) == set(locations(tree))
    check_positions(cfg)


@pytest.mark.parametrize(
    ("text", "profile", "raw"),
    [
        ('{"a": }', "hf", "Expecting value"),
        ('{"a": 1} {"b": 2}', "hf", "Extra data"),
        ('{"a": 1} x', "deepspeed", "Extra data"),
        ('{"a": 1,', "deepspeed", "Bad key name (eof)"),
    ],
)
def test_a_parser_message_is_said_in_the_users_language_and_kept_in_json(text: str, profile: str, raw: str) -> None:
    from dsref.check.pipeline import check_text
    from dsref.check.read.parse_errors import PARSER, meaning
    from dsref.check.report.draw import render_json

    report = check_text(text, "ds_config.json", settings=CheckSettings(profile=profile))  # type: ignore[arg-type]
    finding = json.loads(render_json([report], "zh"))["files"][0]["findings"][0]
    assert finding["code"] == "DS000"
    assert finding["detail"].startswith(raw)
    name = meaning(raw)
    assert name is not None
    assert PARSER.text(name, "zh") in finding["message"]
    assert raw not in finding["message"]


@pytest.mark.parametrize(
    "raw",
    [
        "Expecting value",
        "Expecting ',' delimiter",
        "Expecting ':' delimiter",
        "Expecting property name enclosed in double quotes",
        "Extra data",
        "Unterminated string starting at",
        "Invalid control character at",
        "Invalid \\escape",
        "Illegal trailing comma before end of object",
        "Bad key name (eof)",
        "End of input while parsing an array (did you forget a closing ']'?)",
        "Found whitespace in your key name (use quotes to include)",
        "Found ':' but no key name (for an empty key name use quotes)",
        "Found a punctuator character when expecting a quoteless string (check your syntax)",
        "Bad multiline string",
    ],
)
def test_every_message_of_json_and_hjson_has_a_meaning(raw: str) -> None:
    from dsref.check.read.parse_errors import said

    english, chinese = said(raw, "en"), said(raw, "zh")
    assert english and chinese and english != chinese and raw not in chinese


def test_line_starts_at_every_line_end() -> None:
    """Lines start after each \\r\\n, \\r and \\n, and nowhere else (str.splitlines also ends lines at \\v, \\x85,
    U+2028, ...): the shortcut through str.splitlines agrees with a plain search on texts of any mix."""
    pick = random.Random(11)
    pieces = ["a", "é", "零", "😀", " ", "\n", "\r", "\r\n", "\n\r", "\v", "\f", "\x1c", "\x85", "\u2028", "\u2029"]
    texts = ["", "\n", "\n\n", "a", "a\n", "\r", "{\n}", *("".join(pick.choices(pieces, k=n)) for n in range(1, 40))]
    texts += ["".join(pick.choices(pieces[:6], k=30)) for _ in range(200)]  # most with "\n" as the only line end
    for text in texts:
        expected = [0, *(match.end() for match in re.finditer(r"\r\n|\r|\n", text))]
        assert line_starts(text) == expected, repr(text)
        assert LineIndex(text).lines == len(expected)


# -- standard input -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "standard input is closed"), ("zh", "标准输入已关闭")],
)
@pytest.mark.parametrize("extra", [[], ["--fix"], ["--format", "json"]], ids=["check", "fix", "json"])
def test_check_dash_with_stdin_closed_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, said: str, extra: list[str]
) -> None:
    """Python has no ``sys.stdin`` when descriptor 0 is closed (``dsref check - <&-``): that is said, in the user's
    language, never "file not found" (a file named ``-``) nor a traceback."""
    from dsref.cli.main import main

    monkeypatch.setattr(sys, "stdin", None)
    assert main(["check", "-", "--lang", lang, *extra]) == 2
    out = capsys.readouterr()
    assert said in out.out + out.err
    assert "not found" not in out.out + out.err and "找不到" not in out.out + out.err


def test_a_failing_read_of_stdin_is_said_with_the_system_s_reason() -> None:
    import errno
    import io

    class Failing(io.RawIOBase):
        def __init__(self, code: int) -> None:
            self.code = code

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            raise OSError(self.code, os.strerror(self.code))

    closed = read_stdin(Failing(errno.EBADF))
    failed = read_stdin(Failing(errno.EIO))
    assert isinstance(closed, LoadError) and closed.reason == "stdin_closed"
    assert isinstance(failed, LoadError) and failed.reason == "stdin_unreadable"
    assert failed.text("en").startswith("cannot read standard input: ")


@pytest.mark.parametrize(
    ("name", "shown"),
    [("ds.json", "ds.json"), ("-n.json", "./-n.json"), ("-my config.json", "'./-my config.json'")],
)
def test_the_utf16_hint_names_the_file_so_that_no_command_takes_it_for_an_option(
    tmp_path: Path, name: str, shown: str
) -> None:
    """The conversion the hint suggests works when pasted: ``iconv`` and ``mv`` read a name that starts with ``-``
    as an option, so it is written ``./-n.json`` (and quoted where the shell needs it)."""
    import shlex
    import subprocess

    path = tmp_path / name
    path.write_bytes('{"train_batch_size": 8}'.encode("utf-16"))
    error = load(path)
    assert isinstance(error, LoadError) and error.reason == "encoding_utf16"
    command = error.text("en").split("convert it: ", 1)[1]
    assert f"-t UTF-8 {shown} > " in command
    assert shlex.split(command)[5] == ("./" if name.startswith("-") else "") + name
    subprocess.run(["sh", "-c", command], cwd=tmp_path, check=True, capture_output=True, timeout=30)
    assert json.loads(path.read_text(encoding="utf-8")) == {"train_batch_size": 8}
