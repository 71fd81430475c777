"""``dsref check``: a config file loaded as its reader does, validated, cross-checked, reported.

A file travels :mod:`.loader` (with :mod:`.scanner` for positions) → :mod:`.validation` (schema findings) →
:mod:`.rules` (cross-field findings, over :mod:`.effective`) → :mod:`.report`; :mod:`.pipeline` runs the steps,
:mod:`.batch` runs many files. ``--fix``: :mod:`.fixes` makes a fix per finding, :mod:`.fixer` applies them, and
:mod:`.writer` writes the result over the file only if it is still what was read. It imports the option tree and
text, no other face.
"""
