"""The package's shape: wings by responsibility, imports in one direction only.

Every `pytest_ponybench` import in the package is parsed with `ast` (deferred imports inside
functions and TYPE_CHECKING blocks included: a cycle hidden in a function is still a cycle) and
checked against the allowed direction, which ARCHITECTURE.md states in words.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from pytest_ponybench import PUBLIC
from pytest_ponybench._util.paths import PACKAGE_ROOT, PROBES

PACKAGE = "pytest_ponybench"
ROOT_MODULES = {"plugin", "hooks", "cli", "errors", "__init__"}
# wing -> the wings it may import (itself always). The entry points (ROOT_MODULES) may import
# any wing; a wing may import `errors` and the package's `__version__`.
ALLOWED: dict[str, set[str]] = {
    # The ponybench command's subcommands: what cli.py imported before they moved out of it.
    "_cli": {"plan", "htmlreport", "cpe", "scaffold", "mutation", "store", "analysis", "core"},
    "roles": {
        "plan",
        "agents",
        "gateway",
        "session",
        "store",
        "scoring",
        "analysis",
        "isolation",
        "offline",
        "core",
        "_util",
        "htmlreport",
        "cpe",
        "mutation",
    },
    # Settled before any cell runs, without pytest: options, settings, the plan, the pre-flight.
    "plan": {
        "htmlreport",  # the pre-flight's line per arm says what it brings as the report does
        "agents",
        "gateway",
        "session",
        "store",
        "scoring",
        "analysis",
        "isolation",
        "offline",
        "core",
        "_util",
    },
    "htmlreport": {"agents", "gateway", "store", "scoring", "analysis", "core", "_util"},
    "cpe": {"core", "_util"},
    "scaffold": {"core", "_util"},
    "mutation": {"scoring", "core", "_util"},
    "suite": {"roles"},
    "session": {"agents", "gateway", "store", "scoring", "isolation", "core", "_util"},
    "store": {"analysis", "core", "_util"},
    "scoring": {"isolation", "core", "_util"},
    "analysis": {"core", "_util"},
    "offline": {"agents", "core", "_util"},
    "agents": {"gateway", "isolation", "core", "_util"},
    "gateway": {"core", "_util"},
    "isolation": {"_util"},
    "core": {"_util"},
    "_util": set(),
    "_probe": set(),
}
SHARED = {"errors", "__init__", "__version__"}


def wing_of(module: str) -> str:
    """The wing of a dotted module name under the package (its root modules are their own)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        rel = path.relative_to(PACKAGE_ROOT).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"] or ["__init__"]
        out.append((".".join([PACKAGE, *parts]), path))
    return out


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Every package module this file imports, absolute (relative imports are refused)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: relative import"
            if node.module == PACKAGE:
                # The public face's names are their modules' (pytest_ponybench.PUBLIC).
                found += [(node.lineno, PUBLIC.get(a.name, f"{PACKAGE}.{a.name}")) for a in node.names]
            elif node.module and node.module.startswith(PACKAGE + "."):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith(PACKAGE + ".")]
    return found


def test_the_package_root_holds_only_the_entry_points_and_the_wings() -> None:
    loose = sorted(p.name for p in PACKAGE_ROOT.glob("*.py") if p.stem not in ROOT_MODULES)
    assert loose == []
    wings = sorted(p.name for p in PACKAGE_ROOT.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert set(wings) <= set(ALLOWED)


def test_imports_run_in_one_direction() -> None:
    wrong = []
    for module, path in modules():
        here = wing_of(module)
        if here in ROOT_MODULES:
            continue
        for line, target in imports_of(path):
            there = wing_of(target)
            if there == here or there in SHARED or there in ALLOWED[here]:
                continue
            wrong.append(f"{path.relative_to(PACKAGE_ROOT)}:{line}: {here} -> {target}")
    assert wrong == []


def pytest_imports(path: Path, *, top_level: bool = False) -> list[int]:
    """The lines where this file imports pytest or _pytest: anywhere (deferred imports too), or
    with `top_level` only in the module's body, where importing the module runs it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in tree.body if top_level else ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(name.split(".")[0] in {"pytest", "_pytest"} for name in names):
            found.append(node.lineno)
    return found


def test_the_roles_hold_pytest_objects_only() -> None:
    # roles/ is where pytest's objects live (options registered, items, hooks, the fixture's
    # runner): a module there that imports pytest only for types, in a function, or through
    # another role belongs in plan/ or a wing below.
    bare = [
        str(path.relative_to(PACKAGE_ROOT))
        for module, path in modules()
        if wing_of(module) == "roles"
        and path.name != "__init__.py"
        and not pytest_imports(path, top_level=True)
    ]
    assert bare == []


# Imports each module named on the command line with pytest unimportable; prints what failed.
_WITHOUT_PYTEST = """
import importlib, json, sys
sys.modules["pytest"] = sys.modules["_pytest"] = None
failed = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except ImportError as e:
        failed[name] = str(e)
print(json.dumps(failed))
"""


def test_only_the_roles_need_pytest_to_be_imported() -> None:
    # What ARCHITECTURE.md states, as Python sees it: with pytest absent every module of every
    # wing but roles/ imports (plan/ settles a run without it), and no module of roles/ does.
    names = [m for m, path in modules() if wing_of(m) not in {"_probe", "suite", *ROOT_MODULES}]
    names = [m for m in names if m != f"{PACKAGE}.roles"]
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_PYTEST, *names],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=PACKAGE_ROOT.parent,
    )
    failed = json.loads(done.stdout)
    roles = {m for m in names if wing_of(m) == "roles"}
    assert len(roles) >= 10 and len(names) > 100
    assert sorted(set(failed) - roles) == []
    assert sorted(roles - set(failed)) == []
    assert all("pytest" in why for why in failed.values())


def test_only_the_roles_and_the_entry_points_import_pytest() -> None:
    # Every other wing is plain Python, plan/ included: a run is settled without pytest. The
    # probes run inside the scorer's own pytest; the built-in suite is a test module.
    stray = [
        f"{path.relative_to(PACKAGE_ROOT)}:{line}"
        for module, path in modules()
        if wing_of(module) not in {"roles", "_probe", "suite", *ROOT_MODULES}
        for line in pytest_imports(path)
    ]
    assert stray == []
    assert pytest_imports(PACKAGE_ROOT / "roles" / "settings.py")  # the check sees an import


def test_only_the_command_imports_its_subcommands() -> None:
    # No wing may import `_cli` (ALLOWED names it nowhere); among the entry points only cli.py.
    wrong = [
        f"{path.relative_to(PACKAGE_ROOT)}:{line}: {target}"
        for module, path in modules()
        if wing_of(module) not in {"cli", "_cli"}
        for line, target in imports_of(path)
        if wing_of(target) == "_cli"
    ]
    assert wrong == []
    assert any(wing_of(target) == "_cli" for _line, target in imports_of(PACKAGE_ROOT / "cli.py"))


def test_every_module_says_what_it_exports() -> None:
    missing = [
        str(path.relative_to(PACKAGE_ROOT))
        for module, path in modules()
        if path.name != "__init__.py"
        and wing_of(module) != "_probe"
        and "__all__" not in path.read_text(encoding="utf-8")
    ]
    assert missing == []


def test_the_confined_agent_is_kept_from_the_package_it_runs_under() -> None:
    # What a confined session must not see is named by PACKAGE_ROOT; a move of a module must
    # not silently change it (session/run.py hides it, the scorer's sandbox reads probes from it).
    import pytest_ponybench
    from pytest_ponybench.session import run

    assert PACKAGE_ROOT == Path(pytest_ponybench.__file__).resolve().parent
    assert PROBES == PACKAGE_ROOT / "_probe" and (PROBES / "ponybench_probe.py").is_file()
    source = Path(run.__file__).read_text(encoding="utf-8")
    assert "PACKAGE_ROOT" in source
    root_by_file = re.compile(r"Path\(__file__\)(\.resolve\(\))?\.parents?\b")
    stray = [
        str(path.relative_to(PACKAGE_ROOT))
        for _module, path in modules()
        if root_by_file.search(path.read_text(encoding="utf-8")) and path.name != "paths.py"
    ]
    assert stray == []


def test_architecture_names_every_module() -> None:
    text = (PACKAGE_ROOT.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    unnamed = []
    for _module, path in modules():
        if path.name == "__init__.py":
            continue
        rel = path.relative_to(PACKAGE_ROOT).as_posix()
        # A module is named by its path, or by its name in the row of its folder.
        if rel not in text and f"`{path.stem}`" not in text:
            unnamed.append(rel)
    assert unnamed == []


# The unit tests mirror the package: tests/unit/<wing>/test_<module>.py (sub-packages as
# sub-folders). Two folders are not a wing: project/ (the whole project and the package's root
# modules: docs, layout, the public face, the command's help, hostile inputs across wings) and
# _support/ (helpers the tests share, so no test module imports another); data/ holds recordings.
UNIT = PACKAGE_ROOT.parent / "tests" / "unit"
NOT_WINGS = {"project", "_support", "data", "__pycache__"}
# How many of the package's modules have a unit test file of their name; it only goes up.
TESTED_AT_LEAST = 109


def unit_folders() -> list[Path]:
    """Every folder of tests/unit that holds tests: data/, caches and hidden folders aside."""
    return sorted(
        p
        for p in UNIT.rglob("*")
        if p.is_dir()
        and not any(
            part in {"data", "__pycache__"} or part.startswith(".") for part in p.relative_to(UNIT).parts
        )
    )


def module_names(folder: Path) -> set[str]:
    """What a test file in the mirror of this package folder may be named for: its modules and
    its sub-packages."""
    return {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"} | {
        p.name for p in folder.iterdir() if p.is_dir() and (p / "__init__.py").is_file()
    }


def named_module(name: str, candidates: set[str]) -> str | None:
    """The module `test_<name>.py` is of: the longest module name it starts with (a file may
    be `test_<module>_<topic>.py`), or None."""
    fits = [m for m in candidates if name == m or name.startswith(m + "_")]
    return max(fits, key=len, default=None)


def mirrored() -> dict[Path, str | None]:
    """Each test file of a wing's folder and the package module (path) it is named for."""
    out: dict[Path, str | None] = {}
    for folder in unit_folders():
        rel = folder.relative_to(UNIT)
        if rel.parts[0] in NOT_WINGS:
            continue
        package = PACKAGE_ROOT / rel
        names = module_names(package) if package.is_dir() else set()
        for test in sorted(folder.glob("test_*.py")):
            module = named_module(test.stem.removeprefix("test_"), names)
            out[test] = None if module is None else (rel / module).as_posix()
    return out


def test_the_unit_tests_mirror_the_wings() -> None:
    # A folder of tests/unit is a folder of the package (or project/, _support/); a test file
    # sits in one and is named for a module of it; every folder is a package, so two files of
    # one name in two folders both collect.
    folders = [f.relative_to(UNIT) for f in unit_folders()]
    assert folders and sorted(UNIT.glob("test_*.py")) == []
    stray = [f.as_posix() for f in folders if f.parts[0] not in NOT_WINGS and not (PACKAGE_ROOT / f).is_dir()]
    assert stray == []
    assert [f.as_posix() for f in folders if not (UNIT / f / "__init__.py").is_file()] == []
    assert sorted(p.name for p in (UNIT / "_support").glob("test_*.py")) == []
    unnamed = [test.relative_to(UNIT).as_posix() for test, module in mirrored().items() if module is None]
    assert unnamed == []


def test_no_test_module_imports_another() -> None:
    # What unit tests share is in tests/unit/_support (or tests/support.py), what integration
    # tests share in tests/support.py (or tests/browser.py), never in a test file.
    wrong = []
    for path in sorted((PACKAGE_ROOT.parent / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names] + [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            wrong += [
                f"{path.relative_to(PACKAGE_ROOT.parent)}:{node.lineno}: {name}"
                for name in names
                if name.startswith("tests.") and name.split(".")[-1].startswith("test_")
            ]
    assert wrong == []


def test_modules_with_a_unit_test_file_are_counted() -> None:
    # A module of a wing has a test file when one in its wing's folder is named for it; a root
    # module (cli, plugin, hooks, errors) when project/test_<module>.py is.
    package = [p.relative_to(PACKAGE_ROOT).with_suffix("").as_posix() for _m, p in modules()]
    package = [m for m in package if not m.endswith("__init__")]
    named = {m for m in mirrored().values() if m is not None}
    named |= {p.stem.removeprefix("test_") for p in (UNIT / "project").glob("test_*.py")}
    tested = sorted(m for m in package if m in named)
    print(f"{len(tested)} of {len(package)} modules have a unit test file of their name")
    assert len(tested) >= TESTED_AT_LEAST
