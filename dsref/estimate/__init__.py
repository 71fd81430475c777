"""``dsref estimate``: memory per GPU and per node for each ZeRO stage and offload, and what fits a GPU.

Pure arithmetic, no torch: :mod:`.model_states` (DeepSpeed's own formulas), :mod:`.activations`, :mod:`.table` (one
row per stage and offload), :mod:`.fit` (what fits a budget), :mod:`.model` (a transformer's shape from a Hugging
Face config.json), :mod:`.peak` (the peak of a run, part by part and phase by phase), :mod:`.gpus` (GPUs by name),
:mod:`.advice` (what makes a run fit), :mod:`.render` (tables and chart), with :mod:`.quantities` for reading and
printing numbers and :mod:`.messages` for every text. It imports the option tree and text, no other face: the
command line reads the DeepSpeed config with check's loader and hands the values in.
"""
