"""Stage 2, validate: each written value against the schema, as the release being checked for reads it.

:mod:`.validation` walks the config and yields the schema's findings (unknown key, wrong type, removed, ...), with
the repairs :mod:`.schema_repairs` proposes; :mod:`.checktree` is the generated tree of options it walks, with
:mod:`.plain_types` answering plainly valid values without pydantic; :mod:`.effective` is the config as DeepSpeed
builds it (defaults filled in), which the rules read.
"""
