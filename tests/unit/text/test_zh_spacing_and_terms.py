"""The house rules added for the last mile of the Chinese texts (issue 39): no space beside inline markup where
Chinese stands on both sides, no ASCII "x" between Chinese words, no italics on Chinese, and the glossary's terms for
the concepts that drifted (显存, 交换缓冲区, 数据并行度, 配置项, the ZeRO-3 knobs, micro batch). Each rule is shown
catching a seeded mistake, and leaving alone what is right."""

from __future__ import annotations

import pytest

from dsref.text.glossary import TERMS, expand, search_forms
from dsref.text.zhlint import lint


@pytest.mark.parametrize(
    ("text", "rule", "found"),
    [
        ("* **单卡时一点都不省。** 没有别的卡可以分担", "space", "省。** 没"),
        ("* **stage 3：** 只要不写 `false` 就是打开的", "space", "：** 只"),
        ("各个 stage 的区别见 [如何选择 ZeRO stage](a.md)。", "space", "见 [如"),
        ("与 [ZeRO 各 stage 对比](../zero.md) 中的算例相同", "space", "比](../zero.md) 中"),
        ("会多占一些显存 ，因此只在需要时开启", "space", "显存 ，"),
        ("见下文**交换缓冲区**。 它们都是锁页的", "space", "。 它"),
        ("第一行说明检查的对象，例如 `检查对象：DeepSpeed 0.19.8`", "space", "例如 `检"),
        ("构建数据 x 序列的 device mesh", "times", "据 x 序"),
        ("写作“行 x 列”", "times", "行 x 列"),
        ("默认值会把它们*全部*留在 CPU 内存中", "emphasis", "*全部*"),
        ("bucket 大小按*元素个数*计", "emphasis", "*元素个数*"),
    ],
)
def test_a_new_rule_catches_a_seeded_mistake(text: str, rule: str, found: str) -> None:
    problems = [p for p in lint(f"第一行\n{text}", "a.md", line=10) if p.rule == rule]
    assert [(p.where, p.line) for p in problems] == [("a.md", 11)], lint(text)
    assert found in problems[0].found
    assert problems[0].use


@pytest.mark.parametrize(
    "text",
    [
        "* **单卡时一点都不省**。没有别的卡可以分担",  # the mark outside the bold, no space
        "* **stage 3**：只要不写 `false` 就是打开的",
        "各个 stage 的区别见[如何选择 ZeRO stage](a.md)。",
        "配置段都有 [`device`](a.md#device) 键",  # code in the link: Latin beside the space
        "把 **DeepSpeed** 装好之后",  # Latin inside the bold
        "写作 `<行数>x<列数>`，如默认的 `4x1`",  # x in code
        "128,000 × 8,192 的 embedding；行×列",  # the multiplication sign
        "打开 *Settings → Languages & Frameworks*",  # a program's menu in emphasis
        "在你自己的列表中，`*` 匹配任意字符",
        "例如`检查对象：DeepSpeed 0.19.8`；设置 `stage` 为 3",  # Chinese in the code span: no space; Latin: a space
        "“{name}”以“-”开头，被当成了命令行选项",  # 选项 of a command line
        "DeepSpeed 会报“More elements … than buffer size”并退出",  # an English message quoted verbatim
    ],
)
def test_what_is_right_is_left_alone(text: str) -> None:
    assert lint(text) == []


@pytest.mark.parametrize(
    ("text", "use"),
    [
        ("offload 的 step 耗尽 GPU 内存时调小它", "显存"),
        ("以免超大模型耗尽设备内存", "显存"),
        ("锁页中转缓冲区的个数", "交换缓冲区"),
        ("锁页主机缓冲区的个数", "交换缓冲区"),
        ("NVMe 缓冲区相关的设置", "交换缓冲区"),
        ("元素个数除以数据并行卡数", "数据并行度"),
        ("把梯度除以数据并行 rank 数", "数据并行度"),
        ("上述选项随之失效", "配置项"),
        ("bucket 大小和持久化阈值", "参数常驻阈值"),
        ("调小最大活跃参数数", "驻留参数上限"),
        ("每卡的微批大小", "每卡 micro batch 大小"),
        ("重用距离越大越好", "复用距离"),
    ],
)
def test_a_drifting_rendering_is_named_with_the_term_to_use(text: str, use: str) -> None:
    found = [p for p in lint(text, "a.md", line=3) if p.rule == "term"]
    assert [(p.line, p.use) for p in found] == [(3, use)]


def test_the_glossary_holds_the_concepts_that_drifted() -> None:
    chinese = {s for term in TERMS for s in term.chinese}
    assert {
        "显存",
        "交换缓冲区",
        "数据并行度",
        "配置项",
        "micro batch",
        "参数常驻阈值",
        "驻留参数上限",
        "预取",
    } <= chinese
    assert {"连续梯度缓冲区", "复用距离"} <= chinese
    english = {s for term in TERMS for s in term.english}
    assert {"GPU memory", "swap buffer", "NVMe staging buffer", "option", "micro batch size"} <= english
    assert {"parameter persistence threshold", "max live parameters", "contiguous gradients", "prefetch"} <= english


@pytest.mark.parametrize(
    ("word", "means"),
    [
        ("显存", "gpu memory"),
        ("微批大小", "micro batch size"),
        ("参数持久化", "参数常驻阈值"),
        ("连续梯度", "contiguous gradients"),
    ],
)
def test_search_finds_the_term_from_any_of_its_spellings(word: str, means: str) -> None:
    assert means in expand(word) | search_forms(word).spellings


def test_the_vscode_extensions_chinese_settings_follow_the_glossary_and_the_house_rules() -> None:
    """The extension's settings texts are plain text (VS Code shows no code spans), so commands and names stand bare
    in them: English words are not judged, every other rule is."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "editors" / "vscode" / "package.nls.zh-cn.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    found = [str(p) for key, text in texts.items() for p in lint(text, key) if p.rule != "english"]
    assert not found, "\n".join(found)
