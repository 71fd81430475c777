"""``dsref check``: a config file read as its reader reads it, validated, cross-checked, fixed and reported.

A file travels the stages in this order; each is a subpackage that imports only the ones before it (the layers
contract of ``pyproject.toml`` holds them to it):

1. :mod:`.read` — bytes to a :class:`~.read.loader.LoadedConfig` with the position of every key and value
   (:mod:`.read.loader`, over the scanners of :mod:`.read.scanner` and :mod:`.read.hjson_scanner`), or a
   :class:`~.read.loader.LoadError` placed at the first mistake (:mod:`.read.diagnose`);
2. :mod:`.validate` — the schema's findings (:mod:`.validate.validation`), over the generated check tree
   (:mod:`.validate.checktree`), and the config as DeepSpeed builds it (:mod:`.validate.effective`);
3. :mod:`.rules` — the cross-field findings, one module per area;
4. :mod:`.pipeline` — the stages run for one file (:func:`~.pipeline.check_file`, :func:`~.pipeline.check_text`),
   each finding given its fix by :mod:`.repair`; :mod:`.batch` runs many files;
5. :mod:`.report` — the findings drawn for a terminal or as JSON (:mod:`.report.draw`), with their texts
   (:mod:`.report.messages`) and the release they are for (:mod:`.report.target`);
6. :mod:`.fix` — ``--fix`` and ``--diff``: fixes applied and each pass proven (:mod:`.fix.fixer`,
   :mod:`.fix.proof`), the file replaced only if it is still what was read (:mod:`.fix.writer`).

Beneath them all: :mod:`.settings` (what a check is for, one :class:`~.settings.CheckSettings`), :mod:`.findings`
(what is found, as plain data), :mod:`.repairs` and :mod:`.edits` (what would set a finding right, and the text
edits that do), :mod:`.positions` (offsets, lines and columns). check imports the option tree and text, no other
face.
"""
