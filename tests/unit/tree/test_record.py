"""Option records (dsref/tree/record.py) and the index that hands them out (dsref/tree/index.py): typed, frozen,
the same facts as the documented JSON record, and read lazily."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from functools import cache
from typing import Any

import pytest

from dsref.generator.index import index_document
from dsref.tree.index import OptionIndex
from dsref.tree.options import OptionTree, option_type, type_name, union_args
from dsref.tree.record import RECORD_FIELDS, Bounds, OptionRecord, OptionType


@cache
def _document() -> dict[str, Any]:
    return index_document()


def test_a_record_has_the_fields_of_the_json_record_in_their_order() -> None:
    assert tuple(_document()["options"][0]) == RECORD_FIELDS


def test_every_record_gives_back_its_json_record_exactly() -> None:
    """Same values and the same key order, so that ``dsref options --format json`` is the generated dump."""
    for data in _document()["options"]:
        record = OptionRecord.from_json(data)
        assert json.dumps(record.to_json(), ensure_ascii=False) == json.dumps(data, ensure_ascii=False), data["path"]


def test_the_dump_is_the_generated_document_in_its_order() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "options", "--format", "json"], capture_output=True, text=True, check=True
    )
    assert proc.stdout == json.dumps(_document(), ensure_ascii=False, indent=1) + "\n"


def test_records_are_frozen() -> None:
    record = OptionIndex.load().get("zero_optimization.stage3_prefetch_bucket_size")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.default = 3  # type: ignore[misc]
    assert record.aliases == ("prefetch_bucket_size",) and record.stages == (3,)
    assert record.type == OptionType(("int",)) and record.bounds == Bounds(ge=0)


def test_the_lazy_index_hands_out_the_records_of_the_full_one() -> None:
    full = OptionIndex.from_records(_document())
    lazy = OptionIndex.load()
    assert list(lazy) == list(full)


def test_a_type_is_written_and_read_back(tree: OptionTree) -> None:
    for opt in tree:
        written = option_type(opt.annotation)
        assert str(written) == opt.type and OptionType.parse(opt.type) == written, opt.path
        members = [arg for arg in union_args(opt.annotation) if arg is not type(None)]
        assert written.is_bool == (members == [bool]), opt.path
    assert OptionType.parse(type_name(list[int | list[int]] | None)).members == ("list[int | list[int]]", "null")


def test_bounds_are_written_in_one_order(tree: OptionTree) -> None:
    assert Bounds(le=3, ge=1).to_json() == {"ge": 1, "le": 3}
    for opt in tree:
        assert Bounds.from_json(opt.bounds).to_json() == dict(opt.bounds) and list(
            Bounds.from_json(opt.bounds).to_json()
        ) == list(opt.bounds), opt.path


def _index_modules_after(code: str) -> list[str]:
    """The modules of the generated index a fresh interpreter has read after running ``code``."""
    script = (
        "import json, sys\nfrom dsref.tree.index import OptionIndex\nindex = OptionIndex.load()\n"
        f"{code}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('dsref.generated.index.'))))"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return list(json.loads(proc.stdout))


def test_a_canonical_path_reads_its_shard_alone() -> None:
    assert _index_modules_after("index.get('zero_optimization.offload_param.device').description") == [
        "dsref.generated.index.zero_optimization"
    ]
    assert _index_modules_after("index.subtree(index.resolve('zero_optimization').record)") == [
        "dsref.generated.index.zero_optimization"
    ]


def test_another_spelling_reads_the_key_module_and_the_one_shard() -> None:
    assert _index_modules_after("index.resolve('offload_optimizer').record.description") == [
        "dsref.generated.index._keys",
        "dsref.generated.index.zero_optimization",
    ]
    assert _index_modules_after("index.paths()") == ["dsref.generated.index._keys"]
