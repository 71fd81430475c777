"""What the site search's index holds beside Material's words (dsref/site/search.py): the glossary's Chinese terms
for the English ones an entry uses, on the entry that uses them only."""

from __future__ import annotations

import re

from dsref.site.search import entry_synonyms

# the site's separator (mkdocs.yml), less the HTML entities
SPLIT = re.compile(r"[\s\u200b\u3000\-_,:!=\[\]()\"/、。，．？！；]+|\.(?!\d)")


def test_an_options_title_counts_its_own_key_not_the_sections_above_it() -> None:
    # zero_optimization.offload_optimizer.ratio is not about offload as a term: 卸载 stays with offload_optimizer
    assert entry_synonyms("<code>zero_optimization.offload_optimizer.ratio</code>", "", SPLIT) == ([], [])
    assert entry_synonyms("<code>zero_optimization.offload_optimizer</code>", "", SPLIT)[0] == ["卸载"]


def test_an_example_config_or_code_naming_another_option_adds_no_term() -> None:
    # issue 39: 微批次 was on every option whose example sets train_micro_batch_size_per_gpu
    example = '<pre><code>{\n  "train_micro_batch_size_per_gpu": 1,\n  "gradient_clipping": 1.0\n}</code></pre>'
    prose = "<p>见 <code>gradient_accumulation_steps</code></p>"
    assert entry_synonyms("<code>fp16.loss_scale_window</code> · 损失缩放", prose + example, SPLIT) == ([], [])


def test_the_entrys_prose_adds_its_terms_to_its_text() -> None:
    title, text = entry_synonyms("<code>x.y</code>", "<p>把优化器状态 offload 到 CPU，做 gradient clipping</p>", SPLIT)
    assert title == [] and set(text) == {"卸载", "梯度裁剪", "梯度"}
