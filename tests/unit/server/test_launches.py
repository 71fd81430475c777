"""Which launch the server checks a ds_config with (:mod:`dsref.server.launches`), and a launch file checked in the
editor as ``dsref check LAUNCH`` checks it (:func:`dsref.server.analysis.analyse_launch`)."""

from __future__ import annotations

import os
from pathlib import Path

from dsref.check.pipeline import check_file
from dsref.check.report.draw import rendered
from dsref.check.settings import CheckSettings
from dsref.launch.opened import open_launch
from dsref.server.analysis import analyse, analyse_launch
from dsref.server.launches import choose_launch, launch_for, walk_launch_files
from dsref.server.settings import Settings

CONFIG = '{"train_micro_batch_size_per_gpu": 4, "bf16": {"enabled": true}, "train_batch_size": "auto"}\n'


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _yaml(config: str, batch: int = 2) -> str:
    return f"stage: sft\nper_device_train_batch_size: {batch}\nbf16: true\ndeepspeed: {config}\n"


def test_only_a_launch_that_resolves_to_the_config_is_chosen(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "ds.json": CONFIG,
            "other/ds.json": CONFIG,  # same name, another file
            "other/train.yaml": _yaml("ds.json"),  # resolves to other/ds.json, beside it
            "scripts/run.sh": "deepspeed train.py --deepspeed ds.json --per_device_train_batch_size 4\n",
            "notes.yaml": "deepspeed: ds.json\n",  # none of the launch forms
        },
    )
    found = walk_launch_files([str(tmp_path)])
    chosen = launch_for(str(tmp_path / "ds.json"), {}, found.paths)
    # scripts/run.sh resolves ds.json from the folder above it (a script in scripts/ runs from the root)
    assert chosen is not None and chosen.path == str(tmp_path / "scripts/run.sh")
    other = launch_for(str(tmp_path / "other/ds.json"), {}, found.paths)
    assert other is not None and other.path == str(tmp_path / "other/train.yaml")
    assert launch_for(str(tmp_path / "nowhere.json"), {}, found.paths) is None


def test_an_open_launch_comes_first_then_the_nearest_then_by_path(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "cfg/ds.json": CONFIG,
            "cfg/b.yaml": _yaml("ds.json"),
            "cfg/a.yaml": _yaml("ds.json"),
            "cfg/sub/deep.yaml": _yaml("../ds.json"),
        },
    )
    config = str(tmp_path / "cfg/ds.json")
    read = {n: open_launch(str(tmp_path / n), (tmp_path / n).read_text()) for n in ("cfg/b.yaml", "cfg/a.yaml")}
    deep = open_launch(str(tmp_path / "cfg/sub/deep.yaml"), (tmp_path / "cfg/sub/deep.yaml").read_text())
    on_disk = [(deep, False), (read["cfg/b.yaml"], False), (read["cfg/a.yaml"], False)]
    assert choose_launch(config, on_disk) == read["cfg/a.yaml"]
    assert choose_launch(config, [(deep, True), (read["cfg/a.yaml"], False)]) == deep
    assert choose_launch(config, [(deep, False)]) == deep
    assert choose_launch(config, []) is None


def test_an_open_documents_text_is_read_not_the_disk(tmp_path: Path) -> None:
    _tree(tmp_path, {"ds.json": CONFIG, "train.yaml": "stage: sft\nbf16: true\n"})  # on the disk: no ds_config
    path = str(tmp_path / "train.yaml")
    assert launch_for(str(tmp_path / "ds.json"), {}, [path]) is None
    open_texts = {os.path.realpath(path): _yaml("ds.json")}  # in the editor: names it
    chosen = launch_for(str(tmp_path / "ds.json"), open_texts, [path])
    assert chosen is not None and chosen.path == path


def test_the_walk_stops_at_its_limit_and_says_so(tmp_path: Path) -> None:
    _tree(tmp_path, {f"d{i}/run.sh": "deepspeed t.py --deepspeed ds.json\n" for i in range(30)})
    _tree(tmp_path, {".hidden/run.sh": "x", "node_modules/run.sh": "x"})
    whole = walk_launch_files([str(tmp_path)])
    assert len(whole.paths) == 30 and not whole.capped  # hidden folders and node_modules left out
    part = walk_launch_files([str(tmp_path)], limit=20)
    assert part.capped and len(part.paths) < 30


def test_a_launch_file_gets_what_check_launch_finds(tmp_path: Path) -> None:
    _tree(tmp_path, {"ds.json": CONFIG, "train.yaml": _yaml("ds.json")})
    text = (tmp_path / "train.yaml").read_text()
    analysis = analyse_launch((tmp_path / "train.yaml").as_uri(), text, Settings(), "en")
    assert analysis is not None
    opened = open_launch(str(tmp_path / "train.yaml"), text)
    assert opened.launch is not None
    expected = check_file(str(tmp_path / "ds.json"), CheckSettings(None).launched_by(opened.launch))
    drawn = rendered(expected, "en", CheckSettings().deepspeed_version)
    assert [d.code for d in analysis.diagnostics] == [f.code for f in drawn]
    assert "DS589" in [d.code for d in analysis.diagnostics]  # 4 against per_device_train_batch_size 2
    for diagnostic, shown in zip(analysis.diagnostics, drawn, strict=True):
        assert diagnostic.range.start.line == 3  # the deepspeed: line
        assert diagnostic.message.startswith(f"ds.json:{shown.line}:{shown.column}: ")
        assert diagnostic.related_information is not None
        assert diagnostic.related_information[0].location.uri == (tmp_path / "ds.json").as_uri()
    # the ds_config checked with that launch gets the same findings on its own lines
    config = analyse((tmp_path / "ds.json").as_uri(), CONFIG, Settings(), "en", launch=opened)
    assert [d.code for d in config.diagnostics] == [f.code for f in drawn]
    assert config.launch == str(tmp_path / "train.yaml")


def test_a_launch_file_says_what_is_wrong_with_it_and_other_files_get_nothing(tmp_path: Path) -> None:
    text = "stage: sft\ndeepspeed: missing/ds.json\n"
    analysis = analyse_launch((tmp_path / "train.yaml").as_uri(), text, Settings(language="zh"), "en")
    assert analysis is not None
    [said] = analysis.diagnostics
    assert (said.code, said.range.start.line, said.severity) == ("ds_config_missing", 1, 1)
    assert "missing/ds.json" in said.message and "不存在" in said.message
    assert analyse_launch((tmp_path / "compose.yaml").as_uri(), "services: {}\n", Settings(), "en") is None
    assert analyse_launch((tmp_path / "build.sh").as_uri(), "make all\n", Settings(), "en") is None
