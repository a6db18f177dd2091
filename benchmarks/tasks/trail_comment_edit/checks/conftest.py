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


# makeWorld(): WEB (maintainer ann) has issue 1 by bob, OPS (maintainer cat) issue 2 by dave.
# Comments: 1 by dave on issue 1, 2 by bob on issue 1, 3 by ann on issue 2. The clock moves a
# minute before each request, so editedAt tells when a change happened.
MAKE_WORLD = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
const makeWorld = () => {
  let clock = new Date("2024-03-05T12:00:00Z");
  const store = new Store({ clock: () => clock });
  const ann = store.addUser({ login: "ann" }), bob = store.addUser({ login: "bob" });
  const cat = store.addUser({ login: "cat" }), dave = store.addUser({ login: "dave" });
  store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id], labels: [] });
  store.addProject({ key: "OPS", name: "Operations", maintainers: [cat.id], labels: [] });
  store.addIssue("WEB", { title: "Login button misaligned", authorId: bob.id });
  store.addIssue("OPS", { title: "Disk full", authorId: dave.id });
  store.addComment(1, { authorId: dave.id, body: "Same heer on Firefox" });
  store.addComment(1, { authorId: bob.id, body: "Screenshot attached" });
  store.addComment(2, { authorId: ann.id, body: "Rotated the logs" });
  const tokens = { ann: store.issueToken(ann.id), bob: store.issueToken(bob.id),
                   cat: store.issueToken(cat.id), dave: store.issueToken(dave.id) };
  const app = createApp({ store });
  const send = async (method, url, who, body) => {
    clock = new Date(clock.getTime() + 60000);
    const headers = who === null ? {} : { authorization: `Bearer ${tokens[who] ?? who}` };
    const r = await app.handle({ method, url, headers, body: typeof body === "string" ? body : JSON.stringify(body) });
    let data = String(r.body ?? "");
    try { data = JSON.parse(data); } catch {}
    return { status: r.status, body: data };
  };
  return { store, send, stored: (id) => store.getComment(id) ?? null, now: () => clock.toISOString() };
};
"""

# The same names at the top level, for a check that uses one world.
WORLD = MAKE_WORLD + """
const { store, send, stored, now } = makeWorld();
"""
