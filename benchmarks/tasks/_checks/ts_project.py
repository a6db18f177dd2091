"""Type-check and compile a TypeScript workspace, then run snippets against the compiled code in
node (task.toml: shared_checks = ["ts_project.py", "js_runner.py"]; the task's conftest.py imports the
fixtures).

The workspace is compiled once per scoring with the TypeScript compiler the scorer's machine
has (`tsc` on PATH, run by node directly), into a private folder (never the workspace's own
`dist/`): `tsc -p .` with the workspace's tsconfig.json, output forced on. A solution that does
not type-check fails every check that uses `ts` (correctness), with tsc's first error as the
message; the safety checks use `ts_unchecked`, which runs whatever tsc emitted, so a type error
is never read as a safety verdict. Each call runs the snippet through js_runner.py's harness
(`mod`, `pick(name)`, `loadOther(path)`, `attempt`, `attemptAsync` as in the JavaScript tasks),
against the compiled module a `.ts` path names.
"""

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from js_runner import WORKSPACE, node, runner


def _tsc_script() -> str:
    """The compiler's own script (typescript/bin/tsc), found through `tsc` on PATH."""
    tsc = shutil.which("tsc")
    if tsc is None:
        pytest.fail("tsc is not on PATH where the checks run: these checks need TypeScript 5 (npm i -g typescript)")
    script = os.path.realpath(tsc)
    if not os.access(script, os.R_OK):
        pytest.fail(f"tsc ({script}) cannot be read where the checks run: install TypeScript globally beside "
                    "node (npm i -g typescript), where the scorer's sandbox sees it")
    return script


@dataclass(frozen=True)
class Build:
    out: Path  # the compiled workspace (its layout under rootDir)
    error: str | None  # tsc's first error, None when the workspace type-checks


def compile_workspace(out: Path) -> Build:
    out.mkdir(parents=True, exist_ok=True)
    argv = [
        node(), _tsc_script(), "-p", WORKSPACE, "--outDir", str(out), "--noEmit", "false",
        "--noEmitOnError", "false", "--incremental", "false", "--declaration", "false",
        "--sourceMap", "false", "--pretty", "false",
    ]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=240, cwd=WORKSPACE,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("tsc -p . did not finish within 240 s")
    # compiled .js files are ES modules, as in the workspace ("type": "module")
    (out / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    errors = [line for line in lines if " error TS" in line or line.startswith("error TS")]
    if proc.returncode != 0 and not errors:
        errors = lines[:1] or [f"tsc exited with code {proc.returncode}"]
    return Build(out, errors[0].strip() if errors else None)


@pytest.fixture(scope="session")
def build(tmp_path_factory) -> Build:
    """The workspace compiled once per scoring; `.error` is tsc's first error or None."""
    return compile_workspace(tmp_path_factory.mktemp("tsc") / "out")


def _runner(directory: Path, build: Build, checked: bool):
    def type_checks() -> None:
        if checked and build.error is not None:
            pytest.fail(f"the workspace does not type-check (tsc -p .): {build.error}")

    # a module named by its .ts path is imported as the .js tsc made of it
    return runner(directory, build.out, r'rel.replace(/\.ts$/, ".js")', " (compiled by tsc)", type_checks)


@pytest.fixture
def ts(tmp_path, build):
    """ts(module, body, setup="", env=None, timeout=20) -> the body's return value, from JSON.

    `module` is the workspace's TypeScript file (src/app.ts); the snippet runs against what tsc
    made of it. Fails the check first when the workspace does not type-check."""
    return _runner(tmp_path, build, checked=True)


@pytest.fixture(scope="module")
def ts_batch(tmp_path_factory, build):
    """`ts` for a module-scoped fixture that runs many cases in one node process."""
    return _runner(tmp_path_factory.mktemp("ts"), build, checked=True)


@pytest.fixture
def ts_unchecked(tmp_path, build):
    """`ts` for the safety checks: runs what tsc emitted even when it reported type errors."""
    return _runner(tmp_path, build, checked=False)


@pytest.fixture(scope="module")
def ts_unchecked_batch(tmp_path_factory, build):
    return _runner(tmp_path_factory.mktemp("ts"), build, checked=False)
