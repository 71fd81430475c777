"""Between the stages: a finding's repair (:mod:`dsref.check.repairs`) turned into edits of the text as written.

:mod:`.repairing` makes the fix of each repair with the toolkit of :mod:`.members` (where a member starts and ends,
how to insert or remove one keeping comments and layout); :mod:`.fix_notes` says what each kind of fix does.
"""
