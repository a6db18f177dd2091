"""Requirement lines from pyproject.toml for CI.

    python3 .ci/deps.py lowest          constraints pinning every dependency (and the test and
                                        neighbours extras) to the lowest version it allows
    python3 .ci/deps.py extra NAME      the requirements of one extra, as they are written
    python3 .ci/deps.py lowest NAME     the requirements of one extra, pinned to their lowest

`>=X` becomes `==X`: the lower bounds the package states are known to work.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
extras = project["optional-dependencies"]


def pinned(spec: str) -> str | None:
    found = re.match(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*>=\s*([0-9][0-9A-Za-z.]*)", spec)
    return f"{found.group(1)}=={found.group(2)}" if found else None


mode = sys.argv[1]
if mode == "extra":
    lines = list(extras[sys.argv[2]])
elif len(sys.argv) > 2:
    lines = [p for s in extras[sys.argv[2]] if (p := pinned(s))]
else:
    lines = [
        p for s in [*project["dependencies"], *extras["test"], *extras["neighbours"]] if (p := pinned(s))
    ]
print("\n".join(lines))
