"""Stage 1, read: a file's bytes become a config with positions, read as its reader (DeepSpeed or Hugging Face) reads
it.

:mod:`.loader` decides how a file is read and returns a :class:`~.loader.LoadedConfig` or a
:class:`~.loader.LoadError`; :mod:`.scanner` (strict JSON) and :mod:`.hjson_scanner` (Hjson) find where every key and
value is written, both over the walk of :mod:`.walker`; :mod:`.diagnose` finds the first mistake of a text no reader
takes, and :mod:`.parse_errors` says it in the user's language.
"""
