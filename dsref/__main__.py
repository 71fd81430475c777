"""``python -m dsref``."""

from __future__ import annotations

import gc
import sys

# A short command allocates too little for a collection to free anything, yet its imports trigger several
# (about 1 ms, a tenth of `dsref explain`); cli.main turns the collector back on for the commands that run long.
gc.disable()

from .cli.main import main  # noqa: E402

sys.exit(main())
