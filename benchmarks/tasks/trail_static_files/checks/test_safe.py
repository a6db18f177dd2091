import pytest
from conftest import app_get_all, serve_all

SECRETS = ("SECRET-NEXT-TO-PUBLIC", "SECRET-IN-SIBLING", "SECRET-ELSEWHERE")


def attacks(tmp_path):
    elsewhere = str(tmp_path / "elsewhere.txt")
    return [
        "../secret.txt", "..%2fsecret.txt", "%2e%2e%2fsecret.txt", "%2e%2e/secret.txt", ".%2e/secret.txt",
        "img/../../secret.txt", "img%2f..%2f..%2fsecret.txt", "....//secret.txt", "..././secret.txt",
        "....%2f%2fsecret.txt", "%252e%252e%252fsecret.txt",
        "../public-old/secret.txt", "..%2fpublic-old%2fsecret.txt", "../public-old%2fsecret.txt",
        elsewhere, elsewhere.replace("/", "%2f"), "/" + elsewhere, "../" * 12 + elsewhere.lstrip("/"),
        "%2e%2e%2f" * 12 + elsewhere.lstrip("/").replace("/", "%2f"),
    ]


def test_nothing_outside_root_is_served(js, site, tmp_path):
    paths = attacks(tmp_path)
    results = serve_all(js, site, paths)
    leaks = [(p, s) for p, r in zip(paths, results) for s in SECRETS if s in r["body"]]
    assert not leaks, (
        f"serveStatic(root, {leaks[0][0]!r}) returned a file outside root ({leaks[0][1]}) (path traversal); "
        f"{len(leaks)} of {len(paths)} requests leaked: resolve the path and serve it only if it stays inside root")


@pytest.mark.parametrize("path", [
    "..%2fpackage.json", "%2e%2e%2fpackage.json", "..%2fsrc%2fstore.js", "....//package.json",
    "%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
])
def test_the_app_serves_nothing_outside_public(js, path):
    (r,) = app_get_all(js, [path])
    leaked = any(marker in r["body"] for marker in ('"name": "issuetrail"', "export class Store", "root:x:0:0"))
    assert not leaked, (
        f"GET /static/{path} returned a file outside public/ (path traversal): {r['body'][:80]!r}")


@pytest.mark.parametrize("template", [
    "../{f}", "..%2f{f}", "%2e%2e%2f{f}", "img/../../{f}", "../public-old/../{f}", "%2e%2e/%2e%2e/site/{f}",
])
def test_a_file_outside_root_is_not_told_from_a_missing_one(js, site, template):
    """An existence oracle: when a file outside root gets another answer than a missing one (a 403,
    a 400, another body), the status tells an attacker which files exist there."""
    there, missing = (template.replace("{f}", name) for name in ("secret.txt", "no-such-secret.txt"))
    r_there, r_missing = serve_all(js, site, [there, missing])
    assert r_there == r_missing, (
        f"serveStatic(root, {there!r}) (a file outside root that exists) answered {r_there['status']} "
        f"but {missing!r} (one that does not) answered {r_missing['status']}: the answer tells which files "
        "exist outside root; give both the same 404")
