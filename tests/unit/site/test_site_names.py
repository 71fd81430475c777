"""The site search's index of names (dsref/site/names.py): what a reader types for a thing leads to that thing.

Over a handful of search entries shaped as the built index writes them; tests/functional/test_site.py types the same
kinds of query into the built site in a browser.
"""

from __future__ import annotations

from dsref.site.names import name_index, names, normalize
from dsref.text.glossary import TERMS

OVERLAP = "reference/zero_optimization/#zero_optimization.overlap_comm"
OFFLOAD_PARAM = "reference/zero_optimization/#zero_optimization.offload_param"
DOCS = [
    {"location": "guides/offload/", "title": "Offloading to CPU and NVMe", "text": "<code>offload_param</code>"},
    {"location": "guides/performance-tuning/#overlap_comm", "title": "<code>overlap_comm</code>: overlap", "text": ""},
    {"location": "rules/DS600/", "title": "DS600 overlap-comm-off", "text": "<code>overlap_comm</code>"},
    {"location": "reference/zero_optimization/", "title": "<code>zero_optimization</code>", "text": ""},
    {"location": OVERLAP, "title": "<code>zero_optimization.overlap_comm</code>", "text": ""},
    {"location": OFFLOAD_PARAM, "title": "<code>zero_optimization.offload_param</code>", "text": ""},
    {
        "location": "reference/compile/#compile.offload_parameters",
        "title": "<code>compile.offload_parameters</code>",
        "text": "",
    },
    {"location": "reference/gradient_clipping/", "title": "<code>gradient_clipping</code>", "text": ""},
]


def _first(query: str) -> str | None:
    found = names(DOCS).get(normalize(query))
    return found[0].location if found else None


def test_an_options_path_or_key_leads_to_the_option_before_pages_that_name_it() -> None:
    assert _first("zero_optimization.overlap_comm") == OVERLAP
    assert [p.location for p in names(DOCS)["overlap_comm"]] == [OVERLAP, "guides/performance-tuning/#overlap_comm"]
    assert _first(" `Overlap_Comm` ") == OVERLAP


def test_a_code_or_a_rule_name_leads_to_its_page() -> None:
    assert _first("DS600") == _first("ds600") == _first("overlap-comm-off") == "rules/DS600/"


def test_glossary_terms_lead_to_what_their_words_name() -> None:
    # 参数卸载 is "parameter offload": offload_param (param abbreviates parameter), the one the pages cite most.
    assert _first("参数卸载") == OFFLOAD_PARAM
    assert _first("offload") == _first("卸载") == "guides/offload/"
    # Two terms together: 通信 (communication) + 重叠 (overlap), in either order.
    assert _first("通信重叠") == _first("重叠通信") == _first("通信 重叠") == OVERLAP
    clipping = next(t for t in TERMS if "gradient clipping" in t.english)
    assert _first(clipping.chinese[0]) == "reference/gradient_clipping/"


def test_a_name_of_nothing_and_odd_input_lead_nowhere() -> None:
    for query in ("comm", "", "   ", "ٱلعربية", "😀", "~:^*"):
        assert _first(query) is None, query


def test_the_index_lists_entries_by_their_place_in_the_docs() -> None:
    index = name_index(DOCS)
    assert [DOCS[i]["location"] for i in index["overlap_comm"]] == [OVERLAP, "guides/performance-tuning/#overlap_comm"]
    assert all(isinstance(i, int) for places in index.values() for i in places)
