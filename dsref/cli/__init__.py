"""The ``dsref`` command line: the command table (:mod:`.main`) and one module per command.

A thin shell over the library: it may import every package below it, and nothing imports it.
"""
