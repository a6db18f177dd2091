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
