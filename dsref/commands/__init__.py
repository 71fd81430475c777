"""One module per ``dsref`` subcommand: ``configure(parser)`` and ``run(args) -> int``.

Keep module-level imports light; import what the command needs inside ``run``.
"""
