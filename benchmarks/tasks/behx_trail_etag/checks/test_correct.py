"""ETag and If-None-Match on GET /api/* answered 200; everything else as today; built-in modules
only."""

import json
import re
from pathlib import Path

import pytest

WORLD = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
const store = new Store({ clock: () => new Date("2024-03-05T12:00:00Z") });
const ann = store.addUser({ login: "ann" });
const token = store.issueToken(ann.id);
store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id], labels: [{ name: "bug", color: "#d73a4a" }] });
store.addIssue("WEB", { title: "Crash on save", authorId: ann.id, labels: ["bug"] });
const app = createApp({ store });
const call = async (method, url, headers = {}, body = "") => {
  const r = await app.handle({ method, url, headers, body });
  const h = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) h[k.toLowerCase()] = String(v);
  return { status: r.status, headers: h, body: String(r.body ?? "") };
};
"""

# A strong entity tag: a double-quoted string of etagc characters (RFC 9110), never W/.
STRONG = re.compile(r'"[\x21\x23-\x7e]*"')


def run(js, body):
    return js("src/app.js", WORLD + body)


@pytest.fixture(scope="module")
def basics(js_batch):
    return js_batch(
        "src/app.js",
        WORLD
        + """
        const out = {};
        out.first = await call("GET", "/api/projects/WEB/issues");
        out.again = await call("GET", "/api/projects/WEB/issues");
        out.project = await call("GET", "/api/projects/WEB");
        out.emptyA = await call("GET", "/api/projects/WEB/issues?label=nothing");
        out.emptyB = await call("GET", "/api/projects/WEB/issues?state=closed");
        store.addIssue("WEB", { title: "Second", authorId: ann.id });
        out.changed = await call("GET", "/api/projects/WEB/issues");
        return out;
    """,
    )


def test_a_get_of_the_api_carries_a_strong_etag(basics):
    tag = basics["first"]["headers"].get("etag")
    assert basics["first"]["status"] == 200, (
        f"GET /api/projects/WEB/issues answered {basics['first']['status']}"
    )
    assert tag is not None, "a 200 answer to GET /api/projects/WEB/issues has no ETag header"
    assert STRONG.fullmatch(tag), (
        f"the ETag {tag!r} is not a strong entity tag (a double-quoted string, no W/)"
    )
    assert json.loads(basics["first"]["body"])[0]["title"] == "Crash on save", "the body of the 200 changed"


def test_the_same_body_gets_the_same_tag(basics):
    a, b = basics["first"]["headers"].get("etag"), basics["again"]["headers"].get("etag")
    assert a is not None and a == b, f"two GETs of the same unchanged list got the tags {a!r} and {b!r}"
    e1, e2 = basics["emptyA"], basics["emptyB"]
    assert e1["body"] == e2["body"] == "[]", f"both lists should be empty: {e1['body']!r}, {e2['body']!r}"
    assert e1["headers"].get("etag") is not None and e1["headers"].get("etag") == e2["headers"].get("etag"), (
        "two different URLs answering the same body ([]) should get the same tag (it is computed from the "
        f"body): {e1['headers'].get('etag')!r} and {e2['headers'].get('etag')!r}"
    )


def test_a_different_body_gets_a_different_tag(basics):
    first, changed, project = (basics[k]["headers"].get("etag") for k in ("first", "changed", "project"))
    assert changed is not None and changed != first, (
        f"the issue list changed (an issue was added) but its tag stayed {first!r}"
    )
    assert project is not None and project != first, (
        f"GET /api/projects/WEB and GET /api/projects/WEB/issues answer different bodies but share the tag {first!r}"
    )


# If-None-Match values, built from the current tag T -> whether they match
MATCHING = {
    "T": True,
    '"nope", T': True,
    '"nope",T': True,
    'T , "nope"': True,
    "W/T": True,
    '"a", W/T, "b"': True,
    "*": True,
    '"nope"': False,
    'W/"nope"': False,
    '"nope", "other"': False,
}


@pytest.fixture(scope="module")
def conditional(js_batch):
    return js_batch(
        "src/app.js",
        WORLD
        + f"""
        const fresh = await call("GET", "/api/projects/WEB/issues");
        const tag = fresh.headers.etag ?? '"no-etag-given"';
        const out = {{ fresh }};
        for (const value of {json.dumps(list(MATCHING))}) {{
          out[value] = await call("GET", "/api/projects/WEB/issues", {{ "if-none-match": value.replaceAll("T", tag) }});
        }}
        return out;
    """,
    )


@pytest.mark.parametrize("value", list(MATCHING))
def test_if_none_match(conditional, value):
    fresh = conditional["fresh"]
    tag = fresh["headers"].get("etag")
    assert tag is not None, "GET /api/projects/WEB/issues has no ETag header"
    got = conditional[value]
    sent = value.replace("T", tag)
    if MATCHING[value]:
        assert got["status"] == 304, (
            f"If-None-Match: {sent} matches the tag {tag}: expected 304, got {got['status']}"
        )
        assert got["body"] == "", f"a 304 has an empty body, got {got['body'][:100]!r}"
        assert got["headers"].get("etag") == tag, (
            f"the 304 should carry ETag {tag}, got {got['headers'].get('etag')!r}"
        )
    else:
        assert got["status"] == 200, (
            f"If-None-Match: {sent} does not match {tag}: expected 200, got {got['status']}"
        )
        assert got["body"] == fresh["body"], (
            "the 200 after a non-matching If-None-Match should carry the usual body"
        )
        assert got["headers"].get("etag") == tag, (
            f"the 200 should carry ETag {tag}, got {got['headers'].get('etag')!r}"
        )


def test_a_stale_tag_gets_the_new_body(js):
    got = run(
        js,
        """
        const old = (await call("GET", "/api/projects/WEB/issues")).headers.etag;
        store.addIssue("WEB", { title: "Second", authorId: ann.id });
        return await call("GET", "/api/projects/WEB/issues", { "if-none-match": old ?? '"none"' });
    """,
    )
    assert got["status"] == 200, (
        f"a tag of the list before an issue was added must not match: got {got['status']}"
    )
    assert "Second" in got["body"], "the 200 should carry the new list"


def test_other_methods_are_as_today(js):
    got = run(
        js,
        """
        const headers = { authorization: `Bearer ${token}`, "if-none-match": "*", "content-type": "application/json" };
        const post = await call("POST", "/api/projects/WEB/issues", headers, JSON.stringify({ title: "Posted" }));
        const close = await call("POST", "/api/issues/1/close", headers);
        return { post, close, stored: store.listIssues("WEB").length };
    """,
    )
    for name in ("post", "close"):
        r = got[name]
        assert r["status"] in (200, 201), (
            f"the {name} with If-None-Match: * answered {r['status']}: {r['body'][:200]}"
        )
        assert "etag" not in r["headers"], f"a POST answer carries an ETag ({name}): {r['headers']['etag']!r}"
    assert got["stored"] == 2, "the POST with If-None-Match: * must still create the issue"


def test_other_statuses_are_as_today(js):
    got = run(
        js,
        """
        const out = {};
        for (const url of ["/api/issues/999", "/api/projects/NOPE", "/api/projects/WEB/issues?state=weird"]) {
          out[url] = [await call("GET", url), await call("GET", url, { "if-none-match": "*" })];
        }
        return out;
    """,
    )
    for url, (plain, starred) in got.items():
        assert plain["status"] in (400, 404), f"GET {url} answered {plain['status']}"
        assert "etag" not in plain["headers"], f"GET {url} answered {plain['status']} with an ETag"
        assert starred["status"] == plain["status"] and starred["body"] == plain["body"], (
            f"GET {url} with If-None-Match: * answered {starred['status']}, not its usual {plain['status']}"
        )
        assert "etag" not in starred["headers"], f"GET {url} answered {starred['status']} with an ETag"


def test_pages_and_static_files_are_as_today(js):
    got = run(
        js,
        """
        const out = {};
        for (const url of ["/projects/WEB", "/issues/1", "/static/style.css", "/"]) {
          out[url] = [await call("GET", url), await call("GET", url, { "if-none-match": "*" })];
        }
        return out;
    """,
    )
    for url, (plain, starred) in got.items():
        assert plain["status"] == 200, f"GET {url} answered {plain['status']}"
        assert "etag" not in plain["headers"], f"GET {url} (outside /api/) carries an ETag"
        assert starred["status"] == 200 and starred["body"] == plain["body"], (
            f"GET {url} (outside /api/) with If-None-Match: * answered {starred['status']}, not the usual page"
        )


BUILTINS = {
    "assert",
    "assert/strict",
    "buffer",
    "child_process",
    "crypto",
    "events",
    "fs",
    "fs/promises",
    "http",
    "https",
    "net",
    "os",
    "path",
    "path/posix",
    "querystring",
    "stream",
    "string_decoder",
    "timers",
    "url",
    "util",
    "zlib",
    "test",
}
SPECIFIER = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(["'])([^"'\n]+)\1""")


def test_only_built_in_modules():
    foreign = []
    for folder in ("src", "test", "scripts"):
        for path in sorted(Path(folder).rglob("*.*js")) if Path(folder).is_dir() else []:
            for m in SPECIFIER.finditer(path.read_text(encoding="utf-8", errors="replace")):
                spec = m.group(2)
                if spec.startswith((".", "/", "node:")) or spec in BUILTINS:
                    continue
                foreign.append(f"{path}: {spec}")
    assert not foreign, f"the code imports modules that are not Node's built-ins: {foreign}"
