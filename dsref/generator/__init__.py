"""The generator: every committed file derived from the schema (:mod:`.files`), written by ``scripts/generate.py``.

:mod:`.releases` records what each DeepSpeed release does with a config (``scripts/releases.py``), installing
each into a scratch folder (:mod:`.release_env`) and running :mod:`.release_probe` inside it.

It draws on every face (pages, schemas, pre-rendered explain pages, the check tree) and sits on top with the CLI and
the site; nothing but scripts and tests imports it.
"""
