"""The JavaScript runner (js_runner.py), a site folder and helpers that serve from it."""

import json

import pytest
from js_runner import js, js_batch  # noqa: F401  (the fixtures)


@pytest.fixture
def site(tmp_path):
    """site/public with a few files, and secrets next to it and elsewhere."""
    root = tmp_path / "site" / "public"
    (root / "img").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / "style.css").write_bytes(b"body { color: #123; }\n")
    (root / "img" / "logo.svg").write_bytes(b"<svg>logo</svg>")
    (root / "img" / "a b.svg").write_bytes(b"<svg>spaced</svg>")
    (root / "a..b.css").write_bytes(b"/* dots */")
    (root / "sub" / "x.txt").write_bytes(b"x in sub")
    (root / "50%20off.txt").write_bytes(b"a percent sign in the name")
    (tmp_path / "site" / "secret.txt").write_bytes(b"SECRET-NEXT-TO-PUBLIC")
    (tmp_path / "site" / "public-old").mkdir()
    (tmp_path / "site" / "public-old" / "secret.txt").write_bytes(b"SECRET-IN-SIBLING")
    (tmp_path / "elsewhere.txt").write_bytes(b"SECRET-ELSEWHERE")
    return root


def serve_all(js, root, paths):
    """serveStatic(root, path) for each path -> [{status, type, body}] (body as latin-1 text)."""
    return js("src/static.js", f"""
        const serveStatic = pick('serveStatic');
        if (typeof serveStatic !== "function") throw new Error("src/static.js does not export serveStatic");
        const out = [];
        for (const p of {json.dumps(paths)}) {{
            const r = await attemptAsync(() => serveStatic({json.dumps(str(root))}, p));
            if (!r.ok) {{ out.push({{ status: "threw " + r.name + ": " + r.message, type: null, body: "" }}); continue; }}
            const v = r.value ?? {{}};
            const headers = Object.fromEntries(Object.entries(v.headers ?? {{}}).map(([k, x]) => [k.toLowerCase(), String(x)]));
            out.push({{ status: v.status, type: headers["content-type"] ?? null,
                        body: v.body === undefined ? "" : Buffer.from(v.body).toString("latin1") }});
        }}
        return out;
    """)


def app_get_all(js, paths):
    """GET /static/<path> through the app, whose public/ is the workspace's."""
    return js("src/app.js", f"""
        const {{ Store }} = await loadOther("src/store.js");
        const app = pick('createApp')({{ store: new Store() }});
        const out = [];
        for (const p of {json.dumps(paths)}) {{
            const r = await app.handle({{ method: "GET", url: "/static/" + p, headers: {{}}, body: "" }});
            out.push({{ status: r.status, body: Buffer.from(r.body ?? "").toString("latin1") }});
        }}
        return out;
    """)
