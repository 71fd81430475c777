"""The option tree: the schema walked into options addressed by dotted path, and the facts every face reads.

Here live the walked tree (:mod:`.options`), how a written path is split and resolved (:mod:`.paths`), DeepSpeed
release numbers (:mod:`.versions`), the two readers of a file (:mod:`.profiles`), where an option is on the site
(:mod:`.links`) and the fast, generated form of the tree (:mod:`.index`), which hands out typed, frozen option
records (:mod:`.record`), and how each earlier DeepSpeed release differs, as recorded from it (:mod:`.releases`).
It imports only :mod:`dsref.schema` and the generated data.
"""
