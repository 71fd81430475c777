"""dsref's command line run in this process, for the tests about what it prints and returns.

The ``main`` the console script calls, with its output captured and its status returned as a finished process, so
a test reads it as it would read ``subprocess.run``. What only a real process shows (an argument that is not UTF-8,
the modules a start imports, a signal, the environment's locale at start) stays with ``subprocess``.
"""

from __future__ import annotations

import contextlib
import io
import signal
import subprocess

from dsref.cli.main import main


def run_dsref(*args: str) -> subprocess.CompletedProcess[str]:
    """``dsref ARGS`` in this process, as a finished process (argparse's refusal included, with its status)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 2
    return subprocess.CompletedProcess(["dsref", *args], status, out.getvalue(), err.getvalue())


def ctrl_c_as_at_a_terminal() -> None:
    """``preexec_fn`` for a dsref process a test sends Ctrl-C to: SIGINT at its default, as a terminal starts
    dsref, whatever the test runner inherited (a background job of a non-interactive shell, a CI runner's step,
    ignores it, and Python then leaves it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
