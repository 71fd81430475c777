"""The loader's shortcut for strict JSON (``json`` instead of ``hjson``) reads every text as hjson does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsref.check.read.loader import LoadedConfig, _strict_json_as_hjson, load_text
from dsref.check.read.scanner import scan_hjson, scan_json, scan_valid_json
from tests import needs

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "real"


def _same_as_hjson(text: str) -> None:
    fast = _strict_json_as_hjson(text)
    if fast is None:
        return
    data, scan = fast
    expected = hjson.loads(text, object_pairs_hook=dict)
    assert json.dumps(data, sort_keys=False) == json.dumps(expected, sort_keys=False)
    assert [type(v) for v in _leaves(data)] == [type(v) for v in _leaves(expected)]
    slow = scan_hjson(text)
    assert slow.error is None
    assert scan.entries == slow.entries
    assert scan.duplicates == slow.duplicates
    assert (scan.max_depth, scan.deepest, scan.suspect) == (slow.max_depth, slow.deepest, slow.suspect)


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def test_real_configs() -> None:
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.json"))]
    assert sum(_strict_json_as_hjson(t) is not None for t in texts) >= len(texts) // 2 or not texts
    for text in texts:
        _same_as_hjson(text)


def test_numbers_and_odd_texts() -> None:
    for text in [
        '{"a": 1.0, "b": 1e9, "c": 1e10, "d": -0.0, "e": 2.5e-3, "f": 1E+2, "g": 12345678901234567890}',
        '{"a": 1e400}',
        '{"a": NaN, "b": Infinity}',
        '[1, 2.0, "x"]',
        '"text"',
        "5",
        '{"a": 1, "a": {"b": 2, "b": 3}}',
        '{"a": {"x": {"y": 1}}, "a": 2, "a": [3, {"z": 4}], "b": {"a": 1}}',
        '{"a": [1, [2, {"k": [], "k": {}}]], "a": {"c": 1}}',
        '{"k\\u00e9y": "\\ud83d\\ude00 \\/ \\" \\\\ \\t"}',
        " \n\t{}\r\n",
        '{"a": "line\\u2028sep"}',
    ]:
        _same_as_hjson(text)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@pytest.mark.slow  # a fuzzer or a cross-check of seconds; the fast tier has the plain cases
@settings(max_examples=needs.examples(300), deadline=None)
@given(_json, st.booleans(), st.sampled_from([None, 1, 2]))
def test_any_json_text(value: Any, ascii_only: bool, indent: int | None) -> None:
    _same_as_hjson(json.dumps(value, ensure_ascii=ascii_only, indent=indent))


def _same_as_full_scanner(text: str) -> None:
    """The one-pass tokenizer (for texts json.loads accepts, as Hugging Face reads them) finds what the scanner that
    checks the grammar finds."""
    json.loads(text)
    fast, full = scan_valid_json(text), scan_json(text)
    assert full.error is None
    assert fast.entries == full.entries
    assert fast.duplicates == full.duplicates
    assert (fast.max_depth, fast.deepest) == (full.max_depth, full.deepest)


_ODD_JSON = [
    '{"a": NaN, "b": [Infinity, -Infinity, -0.0, 1E+2, 2.5e-3], "c": null, "d": true, "e": false}',
    '"text"',
    "-12",
    "[]",
    " \n\t{}\r\n",
    '[[[], {}], [{"a": []}]]',
    '{"": "", "a:b": "c,d", "{": "[", "]": "}"}',
    '{"k\\"ey" : "v\\\\" ,"x":1,"y":[ 1 ,2 ] , "z" :{ } }',
    '{"k\\u00e9y": "\\ud83d\\ude00 \\/ \\" \\\\ \\t", "k\u00e9y": 2}',
    '{"a": 1, "a": {"b": 2, "b": 3}}',
    '{"a": {"x": {"y": 1}}, "a": 2, "a": [3, {"z": 4}], "b": {"a": 1}}',
    '{"a": [1, [2, {"k": [], "k": {}}]], "a": {"c": 1}}',
    '{"a": {"b": {"c": 1}}, "a": {"b": {"c": 2, "c": 3}}}',
]


def test_tokenizer_as_full_scanner() -> None:
    for text in [*_ODD_JSON, *(p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.json")))]:
        try:
            json.loads(text)
        except ValueError:
            continue
        _same_as_full_scanner(text)


_json_with_constants = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", 'q"', "\\", ":", "é"]) | st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)


@pytest.mark.slow  # a fuzzer of seconds; the fast tier has the plain cases
@settings(max_examples=needs.examples(300), deadline=None)
@given(
    _json_with_constants,
    st.booleans(),
    st.sampled_from([None, 0, 2, "\t"]),
    st.sampled_from([None, (",", ":"), (" ,", " : "), (",\n", ":\r\n")]),
    st.booleans(),
)
def test_tokenizer_as_full_scanner_any_text(
    value: Any, ascii_only: bool, indent: int | str | None, separators: tuple[str, str] | None, twice: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent, separators=separators)
    if twice and isinstance(value, dict) and value:  # every member written twice
        text = text[:-1] + ", " + text[1:]
    _same_as_full_scanner(text)


def test_json_reads_only_what_json_reads() -> None:
    """A config the loader marks as read by json (so that check does not parse it again to say whether it is strict
    JSON) is one json.loads reads; most real configs are marked."""
    real = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.json"))]
    odd = ["{'a': 1}", '{"a": 1,}', "// c\n{}", "\ufeff{}", '{"a": NaN}', "[" * 150 + "]" * 150, "a: 1", "{\r\n}"]
    marked = 0
    for text in [*_ODD_JSON, *odd, *real]:
        for profile in ("deepspeed", "hf"):
            loaded = load_text(text, profile)  # type: ignore[arg-type]
            if isinstance(loaded, LoadedConfig) and loaded.json_reads:
                json.loads(loaded.text)
                marked += text in real and profile == "deepspeed"
    assert marked >= len(real) // 2


_CHANGES = ["True", "None", ",", "}", "]", "{", "[", '"', ":", "#", "//", "/*", "*/", "\n", "'", "'''", " ", "x", "1"]


def _almost_configs(count: int) -> list[str]:
    """Texts that are nearly configs: corpus files (and a few written here) with up to three characters or words
    inserted, removed or replaced, the same ones at every run."""
    import random

    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.json"))[:120]]
    if not texts:
        pytest.skip(f"no corpus at {CORPUS} (../shared/ is not beside this checkout)")
    texts += ['{"a": 1, "b": [1, 2], "c": {"d": "e"}}', "a: 1\nb: [\n  x\n  'y'\n]\n", '{"x": true} // note\n']
    rng = random.Random(22)
    made = []
    for _ in range(count):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            at, roll = rng.randrange(len(text) + 1), rng.random()
            cut = at + (rng.randint(1, 3) if roll < 0.3 else 1 if roll >= 0.6 else 0)
            text = text[:at] + ("" if roll < 0.3 else rng.choice(_CHANGES)) + text[cut:]
        made.append(text)
    return made


def test_the_scanner_stops_where_and_as_hjson_stops() -> None:
    """The loader reports hjson's syntax error from the scanner, which drives hjson's own lexical functions, without
    reading the text with ``hjson.loads`` a second time: over almost-configs, the scanner accepts what hjson accepts,
    and where hjson refuses a text with its syntax error, the scanner stops at the same place with the same words."""
    from hjson.scanner import HjsonDecodeError

    refused = accepted = 0
    for text in _almost_configs(1500):
        scan = scan_hjson(text)
        try:
            hjson.loads(text, object_pairs_hook=dict)
        except HjsonDecodeError as exc:
            detail = exc.msg.replace("%r", repr(exc.doc[exc.pos : exc.pos + 1]))
            assert scan.error is not None, text
            if scan.error.reason == "decode":
                assert (scan.error.pos, scan.error.detail) == (exc.pos, detail), text
                refused += 1
        except Exception:  # hjson's crashes (IndexError, ...): the scanner names them another way
            assert scan.error is not None and scan.error.reason != "decode", text
        else:
            assert scan.error is None or scan.error.reason not in ("decode",), text
            accepted += 1
    assert refused > 300 and accepted > 300  # both kinds were met


@settings(max_examples=needs.examples(400))
@given(st.text(alphabet=' \t\r\n\x0c\xa0#/*ab"{}', max_size=30), st.integers(min_value=0, max_value=34))
def test_the_scanner_skips_blanks_and_comments_as_hjson_does(text: str, pos: int) -> None:
    from hjson.decoder import getNext

    from dsref.check.read.hjson_scanner import _Hjson
    from dsref.check.read.walker import ScanError

    try:
        expected: Any = getNext(text, pos)
    except IndexError:
        expected = "a comment never closed"
    try:
        got: Any = _Hjson(text).next(pos)
    except ScanError as exc:
        got = "a comment never closed" if exc.reason == "unterminated_comment" else exc.reason
    assert got == expected


@settings(max_examples=needs.examples(400))
@given(st.sampled_from(["'", '"']), st.text(alphabet="ab'\"\\\n\t\x01u0/ é", max_size=12), st.text(max_size=3))
def test_the_scanner_reads_quoted_strings_as_hjson_does(quote: str, inside: str, after: str) -> None:
    from hjson.decoder import scanstring
    from hjson.scanner import HjsonDecodeError

    from dsref.check.read.hjson_scanner import _string

    text = quote + inside + quote + after
    outcomes = []
    for read in (lambda: scanstring(text, 1, "utf-8", True), lambda: _string(text, 0)):
        try:
            outcomes.append(read())
        except HjsonDecodeError as exc:
            outcomes.append((exc.msg, exc.pos))
    assert outcomes[0] == outcomes[1]


def test_the_first_mistake_is_the_same_when_json_reads_whole_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """``first_mistake`` has ``json`` read each object or array it can whole, instead of walking it token by token:
    over almost-configs (and a few with ``NaN``, control characters and bad escapes, which ``json`` refuses or takes
    differently), in both modes, it finds what the walk alone finds."""
    from dsref.check.read import diagnose

    texts = [
        *_almost_configs(1500),
        '{"a": {"b": NaN}, "c": True}',
        '{"a": [1, Infinity], "b": [1 2]}',
        '{"a": {"s": "x\\qy"}, "b": $LR}',
        '{"a": {"s": "tab\there"}, "b": None}',
        '{"a": [1, 2,], "b": 1}',
        '{"a": {"b": 1}} "c": 2}',
        "[" * 3000 + "True",
    ]
    found = [(diagnose.first_mistake(t, strict=False), diagnose.first_mistake(t, strict=True)) for t in texts]
    monkeypatch.setattr(diagnose, "_read_as_json", lambda text, pos: (False, pos))  # the walk alone
    walked = [(diagnose.first_mistake(t, strict=False), diagnose.first_mistake(t, strict=True)) for t in texts]
    assert found == walked
    assert sum(m is not None for pair in found for m in pair) > 500  # mistakes were there to find
