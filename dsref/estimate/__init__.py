"""``dsref estimate``: memory per GPU and per node for each ZeRO stage and offload, and what fits a GPU.

Pure arithmetic, no torch: :mod:`.model_states` (DeepSpeed's own formulas), :mod:`.activations`, :mod:`.table` (one
row per stage and offload), :mod:`.fit` (what fits a budget), :mod:`.render` (table and chart), with
:mod:`.quantities` for reading and printing numbers and :mod:`.messages` for every text. It imports the option tree
and text, no other face.
"""
