"""The zh explain pages under 'use_data_before_expert_parallelism' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'use_data_before_expert_parallelism': '\x1b[1muse_data_before_expert_parallelism\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n  \x1b[2m引入版本\x1b[0m           0.12.4\n\n  让 MoE 进程组按数据并行优先、而不是专家并行优先的顺序排列。默认情况下，相邻的 rank 组成一个专家并行\n  组，使 token 的 all-to-all 停留在相邻（通常位于同一节点）的 rank 之间，而同一专家的各个副本按跨步分\n  布；设为 true 则反过来，相邻的 rank 持有相同专家的副本。它不支持模型并行或张量并行（mp size > 1），\n  也不支持 AutoEP+AutoTP folding；除非确实需要另一种布局，否则请保持 false。\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/use_data_before_expert_parallelism/#use_data_before_expert_parallelism\n',
}
