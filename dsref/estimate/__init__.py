"""``dsref estimate``: memory per GPU and per node for each ZeRO stage and offload, and what fits a GPU.

Pure arithmetic, no torch: :mod:`.model_states` (DeepSpeed's own formulas), :mod:`.phases` (the model states phase by
phase as DeepSpeed's code holds them), :mod:`.activations`, :mod:`.table` (one
row per stage and offload), :mod:`.fit` (what fits a budget), :mod:`.model` (a transformer's shape from a Hugging
Face config.json), :mod:`.peak` (the peak of a run, part by part and phase by phase), :mod:`.gpus` (GPUs by name),
:mod:`.advice` (what makes a run fit), :mod:`.render` (tables and chart), with :mod:`.quantities` for reading and
printing numbers and :mod:`.messages` for every text. It imports the option tree and text, no other face, and reads
no file: the command line reads the DeepSpeed config and the model's config.json with check's loader (bounded, no
pipes or devices) and hands the values in. Its errors name its own parameters (:class:`.quantities.Param`) and,
for a value of either file, where in the file it is (``EstimateError.field``); the command line says them as its
flags and places.
"""
