"""Language choice and catalog loading."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsref.text.i18n import UnknownLanguage, option_text, resolve_language
from tests import needs


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_SG"}, "zh"),
        ({"LANG": "zh_Hans"}, "zh"),
        ({"LANG": "zh-Hans-CN"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "klingon!!"}, "en"),
        ({"LANG": ""}, "en"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
    ],
)
def test_environment_decides(environ: dict[str, str], expected: str) -> None:
    assert resolve_language(None, environ) == expected


def test_explicit_language_wins() -> None:
    assert resolve_language("zh", {"LANG": "en_US.UTF-8"}) == "zh"
    assert resolve_language("en", {"LANG": "zh_CN.UTF-8"}) == "en"
    assert resolve_language("zh_CN", {}) == "zh"
    for bad in ("fr", "xx", "", "zh_TW"):
        with pytest.raises(UnknownLanguage):
            resolve_language(bad, {})


def test_option_texts_are_translated() -> None:
    from dsref.tree.index import OptionIndex

    english = OptionIndex.load().get("bf16.enabled").description
    assert option_text("bf16.enabled", english, "en") == english
    chinese = option_text("bf16.enabled", english, "zh")
    assert chinese and chinese != english and "bf16" in chinese


def test_broken_catalog_falls_back_to_english_and_says_so_once(tmp_path: Path) -> None:
    """Run dsref against a copy of the package whose .mo is garbage."""
    import shutil

    import dsref

    package = Path(dsref.__file__).parent
    copy = tmp_path / "dsref"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    mo = copy / "text" / "locales" / "zh_CN" / "LC_MESSAGES" / "dsref.mo"
    mo.write_bytes(b"\x00garbage")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    # --recursive renders live (a plain option path prints its page, rendered when the index was generated)
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "explain", "zero_optimization", "--recursive", "--lang", "zh"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0
    assert "zero_optimization.stage" not in proc.stderr
    assert proc.stderr.count("cannot read the catalog") == 1
    assert "default" in proc.stdout  # English labels
    mo.unlink()
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "explain", "bf16", "-r", "--lang", "zh"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0 and "cannot read the catalog" in proc.stderr


# -- locale names are read without Babel, with Babel's result ----------------------------------------------

_LOCALE_PARTS = st.tuples(
    st.sampled_from(["zh", "en", "de", "ZH", "C", "POSIX", "yue", "x", "zh-", "", "ç"]),
    st.sampled_from(
        [
            "",
            "_CN",
            "_TW",
            "_SG",
            "_Hans",
            "_Hans_CN",
            "_hant_tw",
            "_419",
            "_cn",
            "_",
            "_C",
            "_CN_x",
            "-CN",
            "_CN_posix",
        ]
    ),
    st.sampled_from(["", "_1901", "_valencia", "_x1"]),
    st.sampled_from(["", ".UTF-8", ".gb18030", "."]),
    st.sampled_from(["", "@euro", "@", "@x.y"]),
)


@given(_LOCALE_PARTS)
@settings(max_examples=needs.examples(600), deadline=None)
def test_locale_names_read_as_babel_reads_them(parts: tuple[str, str, str, str, str]) -> None:
    from babel.core import parse_locale

    from dsref.text.language import _locale_parts

    name = "".join(parts).replace("-", "_")
    ours = _locale_parts(name)
    try:
        language, territory, script = parse_locale(name)[:3]
    except ValueError:
        assert ours is None, name
    else:
        assert ours == (language, territory, script), name


def test_locales_choose_without_importing_babel() -> None:
    code = (
        "import sys; from dsref.text.language import resolve_language as r; "
        "print(r(None, {'LANG': 'zh_CN.UTF-8'}), r(None, {'LANG': 'C.UTF-8'}), r(None, {'LC_ALL': 'en_US'}), "
        "r(None, {'LANG': 'zh_Hans_SG'}), r(None, {'LANG': 'zh_Hant_TW'}), 'babel' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["zh", "en", "en", "zh", "en", "False"]


# -- the catalog reader ------------------------------------------------------------------------------------


def test_the_compiled_catalog_reads_the_same_with_gettext_and_with_dsref() -> None:
    """dsref's .mo is a standard GNU catalog: GNU gettext's reader (Python's) finds every translation in it."""
    import gettext

    from dsref.text.i18n import MoCatalog, catalog_path

    path = catalog_path("zh")
    data = Path(path).read_bytes()
    ours = MoCatalog(data)
    with open(path, "rb") as handle:
        theirs = gettext.GNUTranslations(handle)
    entries = {k: v for k, v in theirs._catalog.items() if k}  # type: ignore[attr-defined]
    assert len(entries) > 1000
    for key, text in entries.items():
        context, _, msgid = key.rpartition("\x04")
        assert ours.get(context or None, msgid) == text
    assert ours.get("zero_optimization.stage", "no such text") is None


@given(st.dictionaries(st.tuples(st.none() | st.text(max_size=8), st.text(max_size=12)), st.text(min_size=1)))
@settings(max_examples=needs.examples(200), deadline=None)
def test_catalog_round_trip(texts: dict[tuple[str | None, str], str]) -> None:
    from dsref.text.catalog import mo_bytes
    from dsref.text.i18n import MoCatalog

    texts = {k: v for k, v in texts.items() if "\x00" not in "".join(filter(None, (*k, v))) and "\x04" not in k[1]}
    catalog = MoCatalog(mo_bytes(texts))
    for (context, msgid), text in texts.items():
        assert catalog.get(context, msgid) == text


def test_a_catalog_in_the_other_byte_order_reads_too() -> None:
    import array

    from dsref.text.catalog import mo_bytes
    from dsref.text.i18n import MoCatalog

    data = mo_bytes({("a", "Hello"): "你好", (None, "b"): "乙"})
    count = 7 + 4 * 2
    words = array.array("I", data[: 4 * count])
    words.byteswap()
    swapped = words.tobytes() + data[4 * count :]
    assert MoCatalog(swapped).get("a", "Hello") == "你好"


@pytest.mark.parametrize("data", [b"", b"\x00garbage", b"\xde\x12\x04\x95" + b"\xff" * 24, bytes(64)])
def test_a_damaged_catalog_is_refused(data: bytes) -> None:
    from dsref.text.i18n import MoCatalog

    with pytest.raises(ValueError):
        MoCatalog(data)


def test_explain_json_in_chinese_has_every_text_field() -> None:
    """`explain --format json --lang zh`: each free text of an option comes in Chinese, hf_auto_source included."""
    import json

    from dsref.explain.render import explain, render_json

    for path in ("train_batch_size", "zero_optimization.stage3_prefetch_bucket_size", "optimizer.params.lr"):
        record = json.loads(render_json(explain(path, lang="zh"), "zh"))["option"]
        english = json.loads(render_json(explain(path, lang="en"), "en"))["option"]["text"]
        texts = record["text"]
        assert record["hf_auto_source"], path
        assert texts["hf_auto_source"], path
        if path == "train_batch_size":  # words around the formula, said in Chinese
            assert texts["hf_auto_source"] != english["hf_auto_source"]
        for field in ("summary", "description"):
            assert texts[field] != english[field], (path, field)
