"""Run a JavaScript snippet against the workspace's code in node, one process per call.

The checks run with the workspace as the current directory. Each call writes a small ES module
under the test's tmp_path that imports the deliverable from the workspace, runs the snippet as the body of an async
function (`mod` is the imported module, `pick(name)` an export by name, named or on the
CommonJS `module.exports`, `loadOther(path)` imports another workspace module), and writes the snippet's return value as JSON to a file named on
node's command line, so whatever the code under test prints cannot be mistaken for a result.
"""

import itertools
import json
import os
import shutil
import subprocess

import pytest

PROGRAM = r"""
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { writeFileSync } from "node:fs";
const [, , OUT, WS, REL] = process.argv;
%SETUP%
const put = (value) => writeFileSync(OUT, JSON.stringify(value));
const describe = (e) => ({ name: e?.name ?? typeof e, message: String(e?.message ?? e),
                           isError: e instanceof Error });
globalThis.attempt = (fn) => {
  try { return { ok: true, value: fn() }; } catch (e) { return { ok: false, ...describe(e) }; }
};
globalThis.attemptAsync = async (fn) => {
  try { return { ok: true, value: await fn() }; } catch (e) { return { ok: false, ...describe(e) }; }
};
let mod;
try {
  mod = await import(pathToFileURL(resolve(WS, REL)).href);
} catch (e) {
  put({ load_error: String(e?.stack ?? e).split("\n").slice(0, 3).join(" | ") });
  process.exit(0);
}
const pick = (name) => mod[name] ?? mod.default?.[name];
// another module of the workspace, by its path there
const loadOther = (rel) => import(pathToFileURL(resolve(WS, rel)).href);
try {
  put({ value: await (async () => { %BODY% })() });
} catch (e) {
  put({ thrown: describe(e) });
}
process.exit(0);
"""

_count = itertools.count()
# The checks start in the workspace; a check may chdir elsewhere (where a command would run).
WORKSPACE = os.getcwd()


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH where the checks run: these checks need Node.js 20")
    return node


def _runner(directory):
    """js(module, body, setup="", env=None, timeout=20) -> the body's return value, from JSON.

    `setup` runs before the module is imported (a fake clock, say).
    Fails the check with a message when the module cannot be loaded, the body throws, node
    crashes or it runs past the timeout; a snippet that expects a throw wraps the call in
    attempt(() => ...) (or await attemptAsync(async () => ...)), which returns
    {ok, value} or {ok: false, name, message, isError}.
    """

    def run(module, body, setup="", env=None, timeout=20):
        n = next(_count)
        script = directory / f"harness_{n}.mjs"
        out = directory / f"result_{n}.json"
        script.write_text(PROGRAM.replace("%SETUP%", setup).replace("%BODY%", body), encoding="utf-8")
        try:
            proc = subprocess.run(
                [_node(), str(script), str(out), WORKSPACE, module],
                capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                env={**os.environ, **(env or {})},
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"{module}: the call did not finish within {timeout}s (an endless loop or a wait?)")
        if not out.exists():
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            pytest.fail(f"{module}: node exited with code {proc.returncode} before the check finished: {' | '.join(tail)}")
        result = json.loads(out.read_text(encoding="utf-8"))
        if "load_error" in result:
            pytest.fail(f"could not load {module}: {result['load_error']}")
        if "thrown" in result:
            err = result["thrown"]
            pytest.fail(f"{module}: the call threw {err['name']}: {err['message']}")
        return result.get("value")

    return run


@pytest.fixture
def js(tmp_path):
    """One node process per call (see _runner)."""
    return _runner(tmp_path)


@pytest.fixture(scope="module")
def js_batch(tmp_path_factory):
    """The same, for a module-scoped fixture that runs many cases in one node process."""
    return _runner(tmp_path_factory.mktemp("js"))
