"""The `ponybench` command's subcommands, one module each (`add(sub)` adds its parser through
`common.command`, `run(args)` runs it; the module's docstring is the subcommand's --help
description), and `common`, what they share (the arguments several subcommands take among it).
Imported only by `cli.py`, the entry point."""

__all__: list[str] = []
