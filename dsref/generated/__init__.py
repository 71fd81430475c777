"""Generated artefacts, written by ``scripts/generate.py`` from the schema: do not edit.

The option index (``index/``), the pre-rendered ``dsref explain`` pages (``pages_<lang>.txt``, ``pages.py``), the
check tree (``check_tree.json``) and the site's search dictionary. Nothing here imports any other part of dsref;
``tests/test_generated.py`` regenerates every file and fails on a difference or on a file no longer generated.
"""
