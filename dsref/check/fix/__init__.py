"""Stage 5, fix (``--fix``, ``--diff``): apply the findings' fixes, prove each pass, write the file safely.

:mod:`.fixer` applies fixes and checks the text again, :mod:`.proof` judges each pass against what the release
builds, :mod:`.writer` replaces the file atomically, only if it is still what was read.
"""
