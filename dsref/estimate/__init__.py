"""``dsref estimate``: memory per GPU and per node for each ZeRO stage and offload, and what fits a GPU.

Pure arithmetic over the option tree's defaults; it imports the option tree and text, no other face.
"""
