"""Stage 4, report: the findings of many files drawn for a terminal or as JSON, in the user's language.

:mod:`.draw` writes the report; :mod:`.messages` holds the schema findings' texts, :mod:`.target` the statement of
the DeepSpeed release (and reading) checked for, :mod:`.show_effective` the config as DeepSpeed builds it.
"""
