"""The glossary: how each DeepSpeed term is written in English and in Chinese.

One table serves the translators (the glossary pages are generated from it) and
search (``dsref explain --search 卸载`` also finds "offload").

>>> sorted(expand("卸载"))
['offload', 'offloading', '卸载']
"""

from __future__ import annotations

from typing import NamedTuple


class Term(NamedTuple):
    english: tuple[str, ...]
    """English spellings; the first is shown."""
    chinese: tuple[str, ...]
    """Chinese spellings; the first is shown (English words Chinese engineers keep are listed as they are)."""
    note_en: str = ""
    note_zh: str = ""
    avoid: tuple[str, ...] = ()
    """Renderings the Chinese texts must not use for this term (``tests/unit/text/test_glossary.py`` scans the catalog
    and the pages); a plain English word here means the word in Chinese running text, outside code."""
    keep: tuple[str, ...] = ()
    """Phrases that hold a rendering of ``avoid`` and stay right (命令行选项 holds 选项)."""


TERMS: tuple[Term, ...] = (
    Term(
        ("ZeRO", "ZeRO stage", "Zero Redundancy Optimizer"),
        ("ZeRO", "ZeRO stage", "阶段", "零冗余优化器"),
        "kept in both languages",
        "不译；行文中 stage 也可写作“阶段”",
    ),
    Term(
        ("ZeRO-Offload", "ZeRO-Infinity", "ZeRO++"),
        ("ZeRO-Offload", "ZeRO-Infinity", "ZeRO++"),
        "proper names",
        "专有名词，不译",
    ),
    Term(
        ("offload", "offloading"),
        ("offload", "卸载"),
        "glossed once in Chinese, then kept",
        "首次出现可写“offload（卸载）”，之后直接用 offload",
    ),
    Term(("parameter offload",), ("参数 offload", "参数卸载")),
    Term(("optimizer offload",), ("优化器 offload", "优化器卸载")),
    Term(("bucket", "bucket size"), ("bucket", "bucket 大小", "桶"), "kept", "不译"),
    Term(
        ("micro batch", "micro-batch"),
        ("micro batch", "微批次"),
        "kept; the batch one GPU runs in one forward and backward pass",
        "不译；必要时括注“微批次”",
        ("微批量",),
    ),
    Term(
        ("micro batch size", "micro batch size per GPU", "train micro batch size per GPU"),
        ("每卡 micro batch 大小", "micro batch 大小", "每卡微批次大小"),
        "train_micro_batch_size_per_gpu: the samples one GPU runs in one forward and backward pass",
        "`train_micro_batch_size_per_gpu`：每块 GPU 一次前向和反向传播处理的样本数",
        ("微批大小", "微批尺寸", "每卡微批大小"),
    ),
    Term(
        ("global batch size", "train batch size"),
        ("全局 batch 大小", "全局批大小"),
        "train_batch_size: micro batch size × gradient accumulation steps × data-parallel size",
        "`train_batch_size`：每卡 micro batch 大小 × 梯度累积步数 × 数据并行度",
    ),
    Term(("gradient accumulation",), ("梯度累积",)),
    Term(("gradient accumulation steps",), ("梯度累积步数",)),
    Term(("gradient clipping",), ("梯度裁剪",)),
    Term(("optimizer state", "optimizer states"), ("优化器状态",)),
    Term(("master weights",), ("主权重", "master weights")),
    Term(("mixed precision",), ("混合精度",)),
    Term(("loss scaling", "loss scale"), ("损失缩放", "loss scale"), "", "动态损失缩放（dynamic loss scaling）"),
    Term(
        ("activation checkpointing",),
        ("激活检查点", "重计算"),
        "also known as recomputation; a checkpointed block is one whose activations are recomputed",
        "即“重计算”，必要时括注；“做 checkpoint”会被读成保存模型，被重计算的块写作“做激活检查点的块”",
        ("做 checkpoint", "被 checkpoint", "checkpoint 输入", "checkpoint 调用", "checkpoint 占用", "激活 checkpoint"),
    ),
    Term(
        ("checkpoint",),
        ("checkpoint", "检查点"),
        "a saved model; never activation checkpointing",
        "保存模型时多用 checkpoint；激活检查点见上一条",
    ),
    Term(
        ("partition", "partitioned"),
        ("切分", "分片"),
        "what ZeRO does to model states",
        "ZeRO 把状态“切分”到各个 rank；“分区”多指磁盘分区",
        ("分区",),
    ),
    Term(("data parallel", "data parallelism"), ("数据并行",)),
    Term(
        ("data-parallel size", "data-parallel world size"),
        ("数据并行度",),
        "GPUs divided by the tensor, pipeline and sequence parallel sizes",
        "GPU 数除以张量并行、流水线并行和序列并行的并行度；“数据并行 GPU 数”在有张量或流水线并行时容易被读成 GPU 总数",
        (
            "数据并行大小",
            "数据并行规模",
            "数据并行 world size",
            "数据并行的 world size",
            "数据并行 GPU 数",
            "数据并行的 GPU 数",
            "数据并行卡数",
            "数据并行的卡数",
            "数据并行 rank 数",
        ),
    ),
    Term(("tensor parallel", "tensor parallelism", "AutoTP"), ("张量并行", "AutoTP")),
    Term(("pipeline parallel", "pipeline parallelism"), ("流水线并行",)),
    Term(("expert parallel", "expert parallelism", "AutoEP", "MoE"), ("专家并行", "AutoEP", "MoE", "混合专家")),
    Term(("sequence parallel", "sequence parallelism"), ("序列并行",)),
    Term(("rank", "world size"), ("rank", "world size"), "kept", "不译"),
    Term(
        ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast"),
        ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast"),
        "collective primitives, kept",
        "集合通信原语，不译",
    ),
    Term(("collective", "collective communication"), ("集合通信",)),
    Term(("reduce", "reduction"), ("规约",), "summing or averaging across ranks", "跨 rank 求和或求平均", ("归约",)),
    Term(
        ("gather", "gathered"),
        ("收集",),
        "what stage 3 does to a layer's parameters before using it",
        "stage 3 在用到某层之前把它的参数收集起来；集合通信原语 all-gather 不译",
        ("gather", "聚合"),
    ),
    Term(("overlap",), ("重叠", "通信与计算重叠")),
    Term(("pinned memory", "page-locked memory"), ("锁页内存", "pinned memory")),
    Term(
        ("element", "elements"),
        ("元素", "元素个数"),
        "the unit of bucket sizes, not bytes",
        "bucket 大小以元素个数计，不是字节",
    ),
    Term(("throughput",), ("吞吐",)),
    Term(("latency",), ("延迟",)),
    Term(("learning rate",), ("学习率",)),
    Term(("warmup",), ("warmup", "预热")),
    Term(("scheduler",), ("调度器", "scheduler")),
    Term(("default",), ("默认值",)),
    Term(("deprecated",), ("已弃用",)),
    Term(("removed",), ("已移除",)),
    Term(("config", "config file"), ("配置", "配置文件")),
    Term(
        ("section",),
        ("配置段",),
        "a JSON object of options in ds_config.json",
        "如“`zero_optimization` 配置段”；“配置块”“配置节”指的是同一样东西，只用一个词",
        ("配置块", "配置节", "应为 section"),
    ),
    Term(
        ("preset",),
        ("预设",),
        "a built-in set of names for a known model family (AutoEP, AutoTP)",
        "如“预设模型”“沿用预设的名字”；同一段里 preset 与预设混用会被读成两样东西，"
        "英文只留在配置项名（`preset_model`）中",
        ("preset",),
    ),
    Term(
        ("sub-group", "sub group"),
        ("子组",),
        "the slice of a rank's parameters the optimizer steps (and offload moves) at once, sized by sub_group_size",
        "优化器一次更新（offload 一次搬运）的那部分参数，大小由 `sub_group_size` 决定；写成英文与配置项名难以区分",
        ("sub-group", "sub group", "子分组"),
    ),
    Term(
        ("buffer", "module buffer"),
        ("缓冲区",),
        "a preallocated memory area; PyTorch's module buffers (register_buffer) too",
        "预先分配的一块内存；PyTorch 模块的 buffer（`register_buffer` 注册的张量，如 BatchNorm 的统计量）也写作缓冲区；"
        "“缓存区”会与 cache（缓存）混淆",
        ("buffer", "缓存区"),
    ),
    Term(
        ("swap", "swap in", "swap out", "swapping"),
        ("交换", "换入", "换出"),
        "moving tensors between GPU or CPU memory and NVMe files",
        "张量在显存、内存与 NVMe 文件之间搬进搬出，与操作系统的“交换”同义，中文读者熟悉；交换文件即 swap file",
        ("swap",),
    ),
    Term(
        ("swap buffer", "swap buffers", "NVMe staging buffer"),
        ("交换缓冲区",),
        "the pinned host buffers (GPU memory with aio.use_gds) every tensor passes through on its way to or from NVMe; "
        "DeepSpeed's own messages call them swap buffers",
        "张量在 NVMe 与 GPU、CPU 之间搬运时经过的锁页主机内存缓冲区（开启 `aio.use_gds` 时在显存中），"
        "个数和大小由 `buffer_count`、`buffer_size` 决定；DeepSpeed 的报错也叫它 swap buffer，只用这一个名字",
        ("中转缓冲区", "主机缓冲区", "NVMe 缓冲区"),
    ),
    Term(
        ("pydantic model", "config model"),
        ("配置模型", "pydantic 模型"),
        "the pydantic classes DeepSpeed validates a section with, not a neural network",
        "指 pydantic 的数据模型；单写“模型”会被读成神经网络",
        ("用模型解析", "自己的模型校验", "不用自己的模型"),
    ),
    Term(
        ("option", "key", "config option"),
        ("配置项", "键"),
        "a setting of ds_config.json; a command's flags are command-line options",
        "`ds_config.json` 里的一个设置写作“配置项”（JSON 层面也可写“键”）；“选项”只用于命令行选项，"
        "同一页里“选项”与“配置项”混用会被读成两样东西",
        ("选项",),
        ("命令行选项",),
    ),
    Term(
        ("data loader", "dataloader"),
        ("数据加载器",),
        "PyTorch's DataLoader, or the one DeepSpeed builds; the class name stays code",
        "PyTorch 的 `DataLoader`，或 DeepSpeed 自己构建的那一个；类名写作代码；"
        "同一段里“dataloader”与数据加载器混写会被读成两样东西",
        ("dataloader",),
    ),
    Term(("engine",), ("引擎",), "", "`DeepSpeedEngine`、`engine.step()` 等代码名保持原样", ("engine",)),
    Term(("profiler",), ("性能分析器", "profiler")),
    Term(("autotuning",), ("自动调优",)),
    Term(("quantization", "quantized"), ("量化",)),
    Term(("gradient", "gradients"), ("梯度",)),
    Term(("parameter", "parameters"), ("参数",)),
    Term(("communication",), ("通信",)),
    Term(
        ("memory", "CPU memory", "host memory"),
        ("内存", "主机内存", "CPU 内存"),
        "host (CPU) memory is 内存; GPU memory is 显存 (next term)",
        "主机（CPU）上的写“内存”；GPU 上的写“显存”",
    ),
    Term(
        ("GPU memory", "device memory"),
        ("显存", "GPU 显存"),
        "the memory on the GPU; never 内存, which readers take for host memory",
        "GPU 上的内存一律写“显存”；写“内存”会被读成主机内存",
        ("GPU 内存", "GPU 的内存", "GPU 上的内存", "显卡内存", "设备内存"),
    ),
    Term(
        ("activation memory", "activations"),
        ("激活显存", "激活值"),
        "the GPU memory the forward pass keeps for the backward pass",
        "前向传播为反向传播保留的显存；激活值在 GPU 上，所以不写“激活内存”",
        ("激活内存",),
    ),
    Term(
        ("first moment", "second moment", "moment estimates"),
        ("一阶矩", "二阶矩", "矩估计"),
        "Adam's running averages of the gradient and its square",
        "动量（momentum）是 SGD、Lion、Muon 等优化器的另一个概念；Adam 的两个状态写作一阶矩和二阶矩（或合称矩估计）",
        ("一阶动量", "二阶动量", "两个动量", "Adam 的动量", "动量和方差"),
    ),
    Term(
        ("parameter persistence threshold", "persistence threshold"),
        ("参数常驻阈值", "常驻阈值"),
        "stage3_param_persistence_threshold: parameters this small stay gathered on every GPU",
        "`stage3_param_persistence_threshold`：不超过它的小参数收集后常驻每块 GPU；“持久化”会被读成写盘",
        ("持久化阈值", "参数持久化", "参数持久化阈值"),
    ),
    Term(
        ("model persistence threshold",),
        ("常驻参数总量上限",),
        "stage3_model_persistence_threshold: the most parameter elements the persistence threshold may keep on a GPU",
        "`stage3_model_persistence_threshold`：因常驻阈值而常驻每块 GPU 的参数元素合计不超过它",
        ("模型持久化阈值", "模型常驻阈值"),
    ),
    Term(
        ("max live parameters", "live parameters"),
        ("驻留参数上限", "已收集参数"),
        "stage3_max_live_parameters: how many gathered parameter elements the GPU may hold before prefetching stops",
        "`stage3_max_live_parameters`：GPU 上已收集的参数元素达到这个数就停止预取",
        ("最大活跃参数", "活跃参数上限"),
    ),
    Term(
        ("prefetch", "prefetching", "prefetch bucket"),
        ("预取", "预取 bucket"),
        "stage3_prefetch_bucket_size: gathering parameters before the module that needs them runs",
        "`stage3_prefetch_bucket_size`：在模块运行之前提前收集它的参数",
        ("预拉取", "预获取"),
    ),
    Term(
        ("gather 16bit weights on model save", "gather 16-bit weights on model save"),
        ("保存时收集 16 位权重",),
        "stage3_gather_16bit_weights_on_model_save: save_16bit_model() gathers the partitioned weights into one file",
        "`stage3_gather_16bit_weights_on_model_save`：`save_16bit_model()` 把切分的 16 位权重收集成一份完整权重再写出",
    ),
    Term(
        ("module granularity threshold",),
        ("模块粒度阈值",),
        "stage3_module_granularity_threshold: modules this fine-grained become leaf modules, gathered at once",
        "`stage3_module_granularity_threshold`：粒度不超过它的模块成为叶子模块，参数一次收集",
    ),
    Term(
        ("reuse distance",),
        ("复用距离",),
        "stage3_max_reuse_distance, counted in parameter elements",
        "`stage3_max_reuse_distance`，以参数元素个数计",
        ("重用距离",),
    ),
    Term(
        ("contiguous gradients", "contiguous gradient buffer"),
        ("连续梯度缓冲区", "连续梯度"),
        "contiguous_gradients: gradients copied into one preallocated buffer as they are produced",
        "`contiguous_gradients`：梯度一产生就拷进一块预先分配的连续缓冲区，避免显存碎片",
        ("梯度连续化", "连续梯度内存"),
    ),
    Term(("mode",), ("模式",), avoid=("mode",)),
    Term(("type",), ("类型",), "", "配置项 `type` 本身写作代码", ("type",)),
    Term(("workspace",), ("工作区",), avoid=("workspace",)),
    Term(("leaf module", "leaf"), ("叶子模块", "叶子"), avoid=("leaf",)),
    Term(
        ("error", "warning", "note"),
        ("错误", "警告", "提示"),
        "the severities of check's findings",
        "检查结果的严重级别",
    ),
)


class Rule(NamedTuple):
    """A house rule of Chinese writing that is not a term: how ranges, counts, sizes and punctuation are written."""

    topic_en: str
    topic_zh: str
    write: str
    """How the Chinese texts write it."""
    not_: str
    """What they do not write."""
    note_zh: str = ""


RULES: tuple[Rule, ...] = (
    Rule(
        "range",
        "范围",
        "stage 1～3、0.95～0.98；相邻的两个写作 stage 1 和 2",
        "stage 1-3、0.95–0.98、1 到 3",
        "浪纹线“～”，依 GB/T 15834",
    ),
    Rule(
        "spacing",
        "空格",
        "汉字与英文、数字之间空一格：打印 profile 时、4 位存储",
        "profile时、4 位 存储、**数据并行度** 等于",
        "汉字之间不留空格；终端表格的列间距是两个以上的空格",
    ),
    Rule("large counts", "大数", "5亿、70亿、1.2万", "500M、7B、1e8（配置值和代码除外）", "以万、亿计"),
    Rule("sizes in bytes", "字节数", "`16 GB`、`512 MB`", "`16G`、`16GB`", "数与单位之间空一格，用 GB、MB"),
    Rule(
        "punctuation",
        "标点",
        "中文句子用全角标点：，。；：？（）",
        "与汉字相邻的半角 , ; : ? ( )，全角句号后再加空格",
        "代码、配置项名、JSON 和命令行保持半角",
    ),
    Rule(
        "quotes",
        "引号",
        "“bfloat16”或 `bfloat16`",
        "同一条消息里混用 'x' 和 “x”",
        '代码用反引号，其余用中文引号；ASCII 双引号只用于 JSON（"auto"）',
    ),
)
"""Checked by :mod:`dsref.text.zhlint` over every Chinese text."""


class Found(NamedTuple):
    """What a search word stands for: the spellings the texts use, and the renderings they rule out."""

    spellings: frozenset[str]
    ruled_out: frozenset[str]


def search_forms(word: str) -> Found:
    """A search word's spellings, as :func:`expand` gives them, and the ruled-out renderings of its terms; a word
    that is itself a ruled-out rendering (归约, 聚合) stands for its term. Search ranks a match that only a ruled-out
    rendering makes below one of the chosen terms (readers type them; dsref's texts do not use them).

    >>> sorted(search_forms("归约").spellings), sorted(search_forms("归约").ruled_out)
    (['reduce', 'reduction', '规约'], ['归约'])
    >>> sorted(search_forms("规约").ruled_out)
    ['归约']
    """
    lowered = word.lower()
    spellings, ruled_out = set(expand(word)), set()
    for term in TERMS:
        avoided = {a.lower() for a in term.avoid}
        chosen = {s.lower() for s in (*term.english, *term.chinese)}
        if lowered in avoided:
            spellings.discard(lowered)
            spellings.update(chosen)
        if lowered in avoided or lowered in chosen:
            ruled_out.update(avoided)
    return Found(frozenset(spellings), frozenset(ruled_out - spellings))


def expand(word: str) -> set[str]:
    """A search word and every spelling of the terms it names, in both languages."""
    lowered = word.lower()
    found = {lowered}
    for term in TERMS:
        spellings = [s.lower() for s in (*term.english, *term.chinese)]
        if lowered in spellings:
            found.update(spellings)
    return found


def page(lang: str) -> str:
    """The glossary page in Markdown (generated; see ``scripts/generate.py``)."""
    if lang == "zh":
        lines = [
            "# 术语表",
            "",
            "dsref 的中文文本统一使用下表中的译法。DeepSpeed 自己的名字和中文工程师日常保留英文的词"
            "（ZeRO、offload、bucket、micro batch 等）不翻译；配置项名、取值和代码一律保持原样，用反引号标出。"
            "`dsref explain --search` 也认识表中的每一种写法，例如搜索“卸载”会找到 offload 相关的配置项。",
            "",
            "| English | 中文 | 说明 |",
            "|---|---|---|",
        ]
        rows = [f"| {', '.join(t.english)} | {'、'.join(t.chinese)} | {_note(t.note_zh, t, 'zh')} |" for t in TERMS]
    else:
        lines = [
            "# Glossary",
            "",
            "The terms dsref's texts use, with the Chinese the Chinese pages use for each. DeepSpeed's own names, and "
            "the words Chinese engineers keep in English (ZeRO, offload, bucket, micro batch), stay in English in both "
            "languages; option names, values and code are written as they are, in backticks. "
            "`dsref explain --search` understands every spelling listed here, in either language.",
            "",
            "| English | Chinese | Notes |",
            "|---|---|---|",
        ]
        rows = [f"| {', '.join(t.english)} | {'、'.join(t.chinese)} | {_note(t.note_en, t, 'en')} |" for t in TERMS]
    if lang == "zh":
        rows += ["", "## 书写规范", "", "| 项目 | 写作 | 不写作 | 说明 |", "|---|---|---|---|"]
        rows += [f"| {r.topic_zh} | {r.write} | {r.not_} | {r.note_zh} |" for r in RULES]
    else:
        rows += ["", "## How the Chinese texts write", "", "| Topic | Written | Not written |", "|---|---|---|"]
        rows += [f"| {r.topic_en} | {r.write} | {r.not_} |" for r in RULES]
    header = "<!-- generated from dsref/text/glossary.py by scripts/generate.py; do not edit -->"
    return "\n".join([header, *lines, *rows]) + "\n"


def _note(note: str, term: Term, lang: str) -> str:
    """A term's note with the renderings it rules out."""
    if not term.avoid:
        return note
    avoided = "、".join(term.avoid) if lang == "zh" else ", ".join(term.avoid)
    said = f"不写作：{avoided}" if lang == "zh" else f"not: {avoided}"
    return f"{note}；{said}" if note and lang == "zh" else f"{note}; {said}" if note else said


KEEP: tuple[tuple[str, str], ...] = (
    (
        "JSON's literals and the options' values, which the texts write bare as DeepSpeed's documentation does",
        "true false null auto none cpu nvme",
    ),
    (
        "words of deep learning that Chinese engineers write in English (as the PyTorch and DeepSpeed Chinese "
        "communities do): translating them would make the text harder to match with code and logs",
        "step token tokens kernel kernels dtype epoch batch batching embedding embeddings hook hooks logits dropout "
        "tensor tensors stream streams pass forward backward dict list tuple mask padding softmax sigmoid tanh "
        "attention transformer layer norm bias hidden size seqlen topk id ids eager inductor graph trace fused "
        "foreach worker workers tag tags logger log shell socket queue pair device mesh mpu "
        "multi-tensor trust ratio inf autocast adapter handler prompt actor decoder-only encoder-only reentrant "
        "non-reentrant saved-tensor grouped gate up down experts pooler head tokenizer docstring schema beta alpha",
    ),
    ("the options' type names, as the schema writes them", "int bool str float enum map section list dict any len"),
    (
        "names that come from data or dsref's own options: a model's model_type in its config.json, the attention "
        "implementations --attention takes",
        "llama gpt2 mistral qwen2 qwen3 mixtral bloom chatglm llava gpt-oss eager sdpa flash en zh hf "
        "gemma gemma2 gemma3_text glm baichuan yi",
    ),
    (
        "names of programs and commands written as their users type them",
        "dsref deepspeed torch accelerate transformers libaio pip python ulimit iconv envsubst mv nvidia-smi memlock "
        "mup zip stderr pre-commit liger-kernel torchrun launch axolotl llama-factory llamafactory-cli",
    ),
    (
        "what the services and formats call their own things: W&B's entity and team, a Comet experiment, "
        "DeepSpeed's universal checkpoint",
        "entity team experiment universal checkpoint",
    ),
)
"""English words that Chinese running text keeps, with the reason for each group. Besides these: every English
spelling in a term's Chinese column above, and names (see :data:`NAMES`)."""

NAMES: tuple[tuple[str, str], ...] = (
    (
        "editors and tools the editor and playground pages name, written as their makers write them (VS Code, "
        "Neovim, Helix, Zed, Markdown, Ajv, Prettier, Pyodide)",
        "Code Neovim Helix Zed Markdown Ajv Prettier Pyodide",
    ),
    (
        "names of products, methods and features whose English texts put them after a capital or a symbol, not "
        "after a lower-case word: NVIDIA's Tensor Core, Weights & Biases, DeepSpeed's Hybrid Engine and Progressive "
        "Layer Dropping, the Longformer model, the Gram matrix",
        "Core Biases Hybrid Engine Progressive Longformer Gram",
    ),
)
"""Capitalised words Chinese running text keeps as names although dsref's English texts never use them inside a
sentence (the linter takes those, and any word with a second capital or a digit, as names already), with the reason
for each group."""


def _kept_words() -> frozenset[str]:
    words = {word for _, group in KEEP for word in group.split()}
    for term in TERMS:
        for spelling in term.chinese:
            # a hyphenated name is kept whole: all-to-all keeps neither "to" nor "all" alone, reduce-scatter not
            # "reduce" (which Chinese running text writes 规约)
            words.update(w.lower() for w in spelling.split() if w.isascii())
    return frozenset(words)


KEEP_IN_ENGLISH = _kept_words()
"""Lower-case words :mod:`dsref.text.zhlint` accepts in Chinese running text."""
