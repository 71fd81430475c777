"""What editors read: the draft-07 JSON Schema of ``ds_config.json`` (:mod:`.jsonschema`), in both languages.

It imports the option tree and text, no other face.
"""
