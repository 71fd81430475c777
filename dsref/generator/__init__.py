"""The generator: every committed file derived from the schema (:mod:`.files`), written by ``scripts/generate.py``.

It draws on every face (pages, schemas, pre-rendered explain pages, the check tree) and sits on top with the CLI and
the site; nothing but scripts and tests imports it.
"""
