"""What editors read: the draft-07 JSON Schema of ``ds_config.json`` (:mod:`.jsonschema`), in both languages, and
completion at the cursor of a half-typed file (:mod:`.completion`, :mod:`.context`) for the language server and the
playground.

It imports the option tree and text, no other face.
"""
