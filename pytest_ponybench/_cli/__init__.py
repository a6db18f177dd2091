"""The `ponybench` command's subcommands, one module each (`add(sub)` adds its parser, `run(args)`
runs it), and `common`, what they share. Imported only by `cli.py`, the entry point."""

__all__: list[str] = []
