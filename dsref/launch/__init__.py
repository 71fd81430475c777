"""The launch of a run: the command line or file that starts training with a ds_config, read as its tools read it.

What runs is the ds_config plus its launch: the launcher's flags decide the world size, and the training arguments
decide what Hugging Face's Trainer fills into ``"auto"`` and which explicit values it refuses. :func:`.read.read_launch`
turns a launch (a shell script or line, a LLaMA-Factory or axolotl YAML) into a :class:`~.model.Launch`;
:mod:`.arguments` holds the ``TrainingArguments`` facts the checks compare with. It imports text and the records, no
face: ``dsref check`` and ``dsref estimate`` both read launches through it.
"""
