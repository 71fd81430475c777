"""The en explain pages under 'seq_parallel_communication_data_type' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'seq_parallel_communication_data_type': '\x1b[1mseq_parallel_communication_data_type\x1b[0m\n  \x1b[2mtype\x1b[0m           enum | null\n  \x1b[2mdefault\x1b[0m        "fp32"\n  \x1b[2mallowed\x1b[0m        "fp16", "bf16", "fp32"\n                 \x1b[36m"fp16"\x1b[0m  IEEE half precision.\n                 \x1b[36m"bf16"\x1b[0m  bfloat16.\n                 \x1b[36m"fp32"\x1b[0m  Single precision: the most accurate reduction, twice the traffic of the 16-bit types.\n  \x1b[2msince\x1b[0m          0.11.2\n\n  Data type of the gradient reduction while Ulysses sequence parallelism is active (a\n  sequence-parallel group of more than one rank); it then replaces communication_data_type. The fp32\n  default keeps the reduction over the combined data- and sequence-parallel ranks accurate at twice\n  the traffic of bf16; null falls back to the training precision.\n\n  \x1b[2mrelated\x1b[0m        communication_data_type, bf16\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/seq_parallel_communication_data_type/#seq_parallel_communication_data_type\n',
}
