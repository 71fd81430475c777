"""The en explain pages under 'log_level' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'log_level': '\x1b[1mlog_level\x1b[0m\n  \x1b[2mtype\x1b[0m           enum | null\n  \x1b[2mdefault\x1b[0m        null\n  \x1b[2mallowed\x1b[0m        "debug", "info", "warning", "error", "critical"\n  \x1b[2msince\x1b[0m          0.19.3\n\n  Level of DeepSpeed\'s own logger and its handlers, set when the engine starts. The logger otherwise\n  stays at warning, which hides info-level output such as the steps_per_print progress line and\n  dump_state; info shows them, error or critical quiets DeepSpeed further. The change is process-wide\n  and outlasts the engine; null leaves the current level alone.\n\n  \x1b[2mexample\x1b[0m\n    {"log_level": "warning"}\n\n  \x1b[2mrelated\x1b[0m        steps_per_print, dump_state\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/log_level/#log_level\n',
}
