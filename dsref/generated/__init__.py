"""Generated artefacts, written by ``scripts/generate.py`` from the schema: do not edit.

The option index (``index/``), the pre-rendered ``dsref explain`` pages (``pages_<lang>.txt``, ``pages.py``), the
check tree (``check_tree.py``) and the site's search dictionary. Nothing here imports any other part of dsref;
``tests/unit/generator/test_generated.py`` regenerates every file and fails on a difference or on a file no longer
generated.

``releases/`` is recorded from the DeepSpeed releases themselves, not from the schema: what each release's config
layer does differently from 0.19.8's, and its verdict on each corpus config; ``scripts/releases.py`` rebuilds it.
"""
