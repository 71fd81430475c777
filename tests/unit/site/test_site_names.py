"""The site search's index of names (dsref/site/names.py): what a reader types for a thing leads to that thing.

Over a handful of search entries shaped as the built index writes them; tests/functional/test_site.py types the same
kinds of query into the built site in a browser.
"""

from __future__ import annotations

from dsref.site.names import glossary_words, name_index, names, normalize
from dsref.text.glossary import TERMS

OVERLAP = "reference/zero_optimization/#zero_optimization.overlap_comm"
OFFLOAD_PARAM = "reference/zero_optimization/#zero_optimization.offload_param"
LIVE = "reference/zero_optimization/#zero_optimization.stage3_max_live_parameters"
MICRO = "reference/train_micro_batch_size_per_gpu/"
ELASTIC_MICRO = "reference/elasticity/#elasticity.micro_batch_sizes"
FP32_STATES = "reference/optimizer/#optimizer.params.fp32_optimizer_states"
BF16_STATES = "reference/bf16/#bf16.bf16_optimizer_states"
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
    {"location": "reference/fp16/#fp16.loss_scale_window", "title": "<code>fp16.loss_scale_window</code>", "text": ""},
    {"location": "rules/DS544/", "title": "DS544 loss-scale-window", "text": "<code>loss_scale_window</code>"},
    {"location": LIVE, "title": "<code>zero_optimization.stage3_max_live_parameters</code>", "text": ""},
    {"location": MICRO, "title": "<code>train_micro_batch_size_per_gpu</code>", "text": ""},
    {"location": ELASTIC_MICRO, "title": "<code>elasticity.micro_batch_sizes</code>", "text": ""},
    {"location": BF16_STATES, "title": "<code>bf16.bf16_optimizer_states</code>", "text": ""},
    {"location": FP32_STATES, "title": "<code>optimizer.params.fp32_optimizer_states</code>", "text": ""},
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


def test_an_options_words_with_spaces_lead_to_it_before_a_rule_about_it() -> None:
    # issue 39: "loss scale window" listed DS544 before the option
    assert _first("loss scale window") == _first("Loss  Scale Window") == "reference/fp16/#fp16.loss_scale_window"
    assert _first("zero optimization overlap comm") == _first("overlap comm") == OVERLAP


def test_a_zero3_knob_is_found_by_its_glossary_name_its_name_without_stage3_and_renderings_readers_type() -> None:
    # the term's English words name the key DeepSpeed also reads without "stage3_" (max_live_parameters)
    assert _first("max live parameters") == LIVE
    # the Chinese name the heading shows, and the renderings the glossary rules out (readers type them)
    assert _first("驻留参数上限") == _first("最大活跃参数") == _first("活跃参数上限") == LIVE


def test_micro_batch_size_names_the_per_gpu_key_first() -> None:
    assert _first("微批大小") == _first("每卡 micro batch 大小") == _first("micro batch size") == MICRO
    assert ELASTIC_MICRO in [p.location for p in names(DOCS)["微批大小"]]


def test_a_chinese_name_two_options_share_is_told_apart_by_the_keys_other_words() -> None:
    assert {p.location for p in names(DOCS)["优化器状态"][:2]} == {FP32_STATES, BF16_STATES}
    assert _first("bf16 优化器状态") == BF16_STATES
    assert _first("fp32 优化器状态") == FP32_STATES


def test_the_glossary_words_the_worker_lets_stand_beside_a_name_are_normalized_spellings() -> None:
    words = glossary_words()
    assert {"混合精度", "mixed precision", "微批大小", "每卡micro batch大小"} <= set(words)
    assert all(word == normalize(word) for word in words)


def _reference_docs() -> list[dict[str, str]]:
    """A search entry for every option, as the built index writes the reference's (a page per top-level key, a
    section per option under it), and the guides a glossary term names, which compete with the options."""
    from dsref.tree.index import OptionIndex
    from dsref.tree.links import reference_page

    docs = [
        {"location": f"guides/{name}/", "title": name, "text": ""}
        for name in ("offload", "mixed-precision", "huggingface", "choosing-zero-stage")
    ]
    for option in OptionIndex.load():
        page = reference_page(option.path)
        location = f"reference/{page}/" if option.path == page else f"reference/{page}/#{option.path}"
        docs.append({"location": location, "title": f"<code>{option.path}</code>", "text": ""})
    return docs


def test_every_option_is_found_first_by_its_path_key_words_and_chinese_name() -> None:
    """Over every option of the reference: its dotted path; its key and its key's words with spaces, where no other
    option has the key and no glossary term is spelled so (those name a guide: "offload"); and in Chinese, the name
    its heading shows and the other Chinese spellings of its terms, where no other option is named so too."""
    from collections import Counter

    from dsref.site.keyterms import key_terms
    from dsref.site.reference import glossary_terms
    from dsref.tree.index import OptionIndex

    docs = _reference_docs()
    found = names(docs)
    index = [o for o in OptionIndex.load() if any(d["title"] == f"<code>{o.path}</code>" for d in docs)]
    keys = Counter(o.key for o in index)
    spelled = {normalize(s) for term in TERMS for s in (*term.english, *term.chinese)}
    shown = Counter("".join(glossary_terms(o.key)) for o in index)
    wrong = []
    for option in index:
        location = next(d["location"] for d in docs if d["title"] == f"<code>{option.path}</code>")
        queries = [option.path]
        words = option.key.replace("_", " ")
        if keys[option.key] == 1 and normalize(words) not in spelled:
            queries += [option.key, words]
        name = "".join(glossary_terms(option.key))
        if name and shown[name] == 1:
            queries.append(name)
            if len(key_terms(option.key)) == 1:
                queries += [s for s in key_terms(option.key)[0].term.chinese if "\u4e00" <= s[-1] <= "\u9fff"]
        for query in queries:
            places = found.get(normalize(query), [])
            if not places or places[0].location != location:
                wrong.append((query, location, places[0].location if places else None))
    assert len(index) > 500
    assert wrong == []
