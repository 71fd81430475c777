"""The documented key where it is seen (``dsref/site/keylines.py``): every ```json example outside the reference
highlights the key it is about, read from what the page already says (its expected codes, the repair of a wrong
example, the option its heading names), and none where it says nothing."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from dsref.site.hooks import on_page_markdown

ROOT = Path(__file__).resolve().parents[3]


def _built(markdown: str, src: str = "en/guides/keys.md") -> list[str]:
    """The opening fences of the page as the build writes them."""
    out = on_page_markdown(markdown, page=SimpleNamespace(meta={}, file=SimpleNamespace(src_uri=src)))
    return [line for line in out.split("\n") if line.startswith("```json")]


def test_the_option_a_heading_names_is_highlighted_in_its_sections_example() -> None:
    page = (
        "# Keys\n\n## `overlap_comm`: reduce early\n\n```json\n{\n"
        '  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {"stage": 2, "overlap_comm": true}\n}\n```\n'
        '\n## `"auto"` and the launcher\n\n```json\n{\n  "train_micro_batch_size_per_gpu": 1\n}\n```\n'
    )
    assert _built(page) == ['```json hl_lines="3"', "```json"]


def test_a_dotted_heading_picks_the_key_under_its_section() -> None:
    page = (
        '# Keys\n\n## `offload_param.pin_memory`\n\n```json\n{\n  "train_micro_batch_size_per_gpu": 1,\n'
        '  "zero_optimization": {\n    "stage": 3,\n    "offload_optimizer": {"device": "cpu", "pin_memory": true},\n'
        '    "offload_param": {"device": "cpu",\n      "pin_memory": true}\n  }\n}\n```\n'
    )
    assert _built(page) == ['```json hl_lines="7"']


def test_a_wrong_example_highlights_where_its_code_is_reported_and_its_repair_what_changed() -> None:
    page = (
        '# Keys\n\n<!-- dsref-check: expect DS510 -->\n```json\n{\n  "train_micro_batch_size_per_gpu": 4,\n'
        '  "fp16": {"enabled": true},\n  "bf16": {"enabled": true}\n}\n```\n\nRepaired:\n\n```json\n{\n'
        '  "train_micro_batch_size_per_gpu": 4,\n  "bf16": {"enabled": false},\n  "fp16": {"enabled": true}\n}\n```\n'
    )
    fences = _built(page)
    wrong = sorted(int(n) for n in re.findall(r"\d+", fences[0]))
    assert wrong and set(wrong) <= {3, 4}, fences
    assert fences[1] == '```json hl_lines="3"'


def test_an_example_of_many_keys_and_a_reference_fence_are_left_as_they_are() -> None:
    page = (
        "# Keys\n\n## `device`\n\n```json\n{\n"
        + "".join(f'  "s{i}": {{"device": "cpu"}},\n' for i in range(4))
        + '  "train_micro_batch_size_per_gpu": 1\n}\n```\n\n```json hl_lines="2"\n{\n  "train_batch_size": 8\n}\n```\n'
    )
    assert _built(page) == ["```json", '```json hl_lines="2"']


def test_guides_and_rule_pages_highlight_their_documented_keys_in_both_languages() -> None:
    counts = {}
    for lang in ("en", "zh"):
        shown = total = 0
        for folder in ("guides", "rules"):
            for path in sorted((ROOT / "docs" / lang / folder).glob("*.md")):
                fences = _built(path.read_text(encoding="utf-8"), f"{lang}/{folder}/{path.name}")
                total += len(fences)
                shown += sum("hl_lines" in fence for fence in fences)
        counts[lang] = (shown, total)
    assert counts["en"] == counts["zh"], counts
    shown, total = counts["en"]
    assert shown >= total * 2 // 3, counts
