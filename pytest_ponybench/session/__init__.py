"""One claude session in one cell: its steps, the CLI, what it tried, what it must leave as it
found it.
"""
