"""Removing a folder that code the harness does not trust wrote into (a cell's scratch with its
workspace and HOME, a judge's copy, a scoring's job folder): however deep its tree, however long
its paths, whatever modes that code left on it.

`shutil.rmtree` recurses once per level, so a tree nested a thousand folders deep (a few lines of
`mkdir d; cd d` in a loop) raises RecursionError, which `ignore_errors` does not cover; a path
longer than PATH_MAX, reachable the same way, fails by name. What rmtree leaves is handed to
coreutils' `rm`, which walks by file descriptor at any depth.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["remove", "temporary"]


def _unlock(func: Any, path: str, _exc: Any) -> None:
    """A folder of mode 000 (or one whose folder is) stops a harness that is not root: open it
    for its owner and remove once more. What still fails (or failed to be opened or listed,
    which rmtree does by file descriptor and cannot be asked again by path) is left to `rm`."""
    try:
        os.chmod(os.path.dirname(path), 0o700)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
        if func in (os.rmdir, os.unlink, os.remove):
            func(path)
    except OSError:
        pass


def remove(path: Path) -> bool:
    """Remove path (a folder with all it holds, a file or a link); whether it is gone."""
    if not os.path.lexists(path):
        return True
    if os.path.islink(path) or not os.path.isdir(path):
        try:
            os.unlink(path)
        except OSError:
            pass
        return not os.path.lexists(path)
    try:
        shutil.rmtree(path, onerror=_unlock)
    except RecursionError:
        pass  # deeper than Python recurses: what is left goes to rm
    if not os.path.lexists(path):
        return True
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": False}
    if os.geteuid() != 0:  # root enters any folder; others must open what was locked first
        subprocess.run(["chmod", "-R", "u+rwx", "--", str(path)], **quiet)
    subprocess.run(["rm", "-rf", "--one-file-system", "--", str(path)], **quiet)
    return not os.path.lexists(path)


@contextmanager
def temporary(prefix: str, dir: Path | None = None) -> Iterator[Path]:
    """A new folder for a session or a scoring, removed after it with `remove`: where
    `tempfile.TemporaryDirectory` would raise RecursionError out of the harness (a plugin's hook
    nesting folders in a pre-flight session ended the whole run that way)."""
    made = Path(tempfile.mkdtemp(prefix=prefix, dir=dir))
    try:
        yield made
    finally:
        remove(made)
