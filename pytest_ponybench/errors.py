"""The one error type of a bad input: a file, key or flag named, nothing run, nothing lost.

Raised anywhere below the entry points; turned into a pytest usage error once (plugin.py) and
into the usage exit code once (cli.py), so no module but those two decides how it is shown.
"""

from __future__ import annotations

__all__ = ["PonybenchError"]


class PonybenchError(Exception):
    """A malformed setting, task folder, run dir or argument; the message names which."""
