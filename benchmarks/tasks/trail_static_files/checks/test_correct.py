import os

import pytest
from conftest import app_get_all, serve_all


@pytest.mark.parametrize("path, body, ctype", [
    ("style.css", "body { color: #123; }\n", "text/css; charset=utf-8"),
    ("img/logo.svg", "<svg>logo</svg>", "image/svg+xml"),
    ("img/a%20b.svg", "<svg>spaced</svg>", "image/svg+xml"),
    ("a..b.css", "/* dots */", "text/css; charset=utf-8"),
    ("sub/x.txt", "x in sub", "text/plain; charset=utf-8"),
    ("%73tyle.css", "body { color: #123; }\n", "text/css; charset=utf-8"),
    ("img%2Flogo.svg", "<svg>logo</svg>", "image/svg+xml"),
    ("50%2520off.txt", "a percent sign in the name", "text/plain; charset=utf-8"),
])
def test_files_inside_are_served(js, site, path, body, ctype):
    (r,) = serve_all(js, site, [path])
    assert r["status"] == 200, f"serveStatic(root, {path!r}) should serve the file inside root, got {r['status']}"
    assert r["body"] == body and r["type"] == ctype, f"serveStatic(root, {path!r}) gave {r['type']!r} {r['body']!r}"


@pytest.mark.parametrize("path", [
    "nope.css", "img", "img/", "", "sub", "style.css%00.js", "../secret.txt", "..%2fsecret.txt",
    "%2e%2e%2fsecret.txt", "%2E%2E/secret.txt", "img/../../secret.txt", "....//secret.txt", "..",
    "%2e%2e", "%252e%252e%252fsecret.txt",
])
def test_anything_else_is_404(js, site, path):
    r, missing = serve_all(js, site, [path, "nope.css"])
    assert r["status"] == 404, f"serveStatic(root, {path!r}) should be a 404 like a missing file, got {r['status']}"
    assert r == missing, (
        f"serveStatic(root, {path!r}) should be the same 404 as a missing file ({missing}), got {r}")


def test_absolute_path_is_404(js, site, tmp_path):
    (r,) = serve_all(js, site, [str(tmp_path / "elsewhere.txt").replace("/", "%2F")])
    assert r["status"] == 404, f"an absolute path in the URL should be a 404, got {r['status']}"


@pytest.mark.parametrize("path", ["%E0%A4%A", "%zz", "a%"])
def test_malformed_encoding_stays_400(js, site, path):
    (r,) = serve_all(js, site, [path])
    assert r["status"] == 400, f"serveStatic(root, {path!r}) has a malformed percent-encoding: 400, got {r['status']}"


def test_through_the_app(js):
    ok, missing, up = app_get_all(js, ["robots.txt", "nope.txt", "..%2fpackage.json"])
    with open(os.path.join(os.getcwd(), "public", "robots.txt"), encoding="latin-1") as f:
        assert ok["status"] == 200 and ok["body"] == f.read(), f"GET /static/robots.txt: {ok}"
    assert missing["status"] == 404 and up["status"] == 404, (missing["status"], up["status"])
