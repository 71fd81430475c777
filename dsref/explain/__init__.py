"""``dsref explain``: an option or a section in the terminal, from the generated index, in English or Chinese.

:mod:`.render` finds and draws a page, :mod:`.search` finds options by words, :mod:`.pages` prints the
pre-rendered pages of the everyday call, :mod:`.release` says how an earlier DeepSpeed release reads an option.
It imports the option tree and text, no other face.
"""
