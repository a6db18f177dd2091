"""The python the scorer runs on: what it imports from outside this package, verified.

The scorer starts isolated (`python -I -S`), so no .pth file or sitecustomize runs in it, but
it imports pytest and pytest's own dependencies from site-packages, and every other python of
a session (pytest itself, its xdist workers) starts with `site`, which runs the `import` lines
of every .pth file there. Code that could write into site-packages could thus plant code in the
next session. The confinement keeps code in a cell away from it; this module makes a change by
any other hand visible before a session scores anything:

- `verify()`, at session start: every installed file of the scorer's distributions hashes as its
  RECORD says, no file was added to their packages, and every .pth file with an `import` line
  and every sitecustomize or usercustomize module in a site-packages folder belongs to an
  installed distribution;
- `watched()`: what the integrity check around every cell adds to its baseline (the scorer's
  packages, bytecode caches included, and the site-packages folders' .pth and customize files).

A folder with no RECORD at all (a distribution's packages installed by its package manager) is
not judged: there is nothing to compare with. What remains open is in docs/seal.md ("The
instrument is sealed").
"""

from __future__ import annotations

import base64
import csv
import hashlib
import os
import re
from pathlib import Path

from pytest_ponybench.isolation.sandbox import python_install

__all__ = ["CUSTOMIZE", "SCORER_DISTS", "verify", "watched"]

SCORER_DISTS = ("pytest", "pluggy", "iniconfig", "packaging")
CUSTOMIZE = ("sitecustomize.py", "usercustomize.py")
_DIST_INFO = re.compile(r"^(?P<name>[^-]+)-[^-]+\.dist-info$")


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            h.update(chunk)
    return "sha256=" + base64.urlsafe_b64encode(h.digest()).rstrip(b"=").decode()


def _rows(dist_info: Path) -> list[list[str]]:
    try:
        text = (dist_info / "RECORD").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [row for row in csv.reader(text.splitlines()) if row]


def _record(rows: list[list[str]], site: Path) -> dict[Path, str]:
    """Each file a distribution installed (absolute) -> the hash its RECORD gives ("" if none)."""
    return {Path(os.path.normpath(site / row[0])): row[1] if len(row) > 1 else "" for row in rows}


def _runs_code(pth: Path) -> bool:
    """Whether site would execute a line of this .pth file (it runs lines starting with import)."""
    try:
        lines = pth.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return True
    return any(line.startswith(("import ", "import\t")) for line in lines)


def _scorer_problems(record: dict[Path, str], site: Path) -> list[str]:
    problems = []
    tops: set[Path] = set()
    for path, expected in record.items():
        if path.parent != site and site in path.parents and path.suffix != ".pyc":
            tops.add(site / path.relative_to(site).parts[0])
        if not expected or "__pycache__" in path.parts or site not in path.parents:
            continue  # a console script in bin/ is not what the scorer imports
        if not path.is_file():
            problems.append(f"{path} is missing")
        elif _digest(path) != expected:
            problems.append(f"{path} was changed since it was installed")
    for top in sorted(t for t in tops if t.is_dir() and not t.name.endswith(".dist-info")):
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in filenames:
                path = Path(dirpath) / name
                if path not in record:
                    problems.append(f"{path} was added to an installed package")
    return problems


def verify() -> list[str]:
    """Problems with the scorer's python install, each naming a path; [] when it is as installed."""
    problems: list[str] = []
    for folder in python_install()[0]:
        site = Path(os.path.realpath(folder))
        owned: set[str] = set()  # top-level .pth and customize files some RECORD lists
        dists = sorted(site.glob("*.dist-info"))
        for dist_info in dists:
            rows = _rows(dist_info)
            owned.update(row[0] for row in rows if "/" not in row[0])
            found = _DIST_INFO.match(dist_info.name)
            name = found.group("name").lower().replace("_", "-") if found else ""
            if name in SCORER_DISTS:
                problems += _scorer_problems(_record(rows, site), site)
        if not any((d / "RECORD").is_file() for d in dists):
            continue  # installed by a package manager that keeps no RECORD: nothing to compare
        for entry in sorted(site.iterdir()):
            planted = entry.name in CUSTOMIZE or (entry.suffix == ".pth" and _runs_code(entry))
            if planted and entry.name not in owned:
                problems.append(f"{entry} is not part of any installed package (site runs it at every start)")
    return problems


def watched() -> tuple[list[Path], list[Path]]:
    """(the scorer's package folders, the site-packages folders): for the integrity baseline
    around every cell, the first as whole trees, the second by their .pth and customize files."""
    trees: list[Path] = []
    sites = [Path(os.path.realpath(f)) for f in python_install()[0]]
    for site in sites:
        for name in ("pytest", "_pytest", "pluggy", "iniconfig", "packaging"):
            if (site / name).is_dir():
                trees.append(site / name)
        if (site / "py.py").is_file():
            trees.append(site / "py.py")
    return trees, sites
