import importlib

import pytest

def load():
    try:
        return importlib.import_module("redirects")
    except Exception as exc:
        pytest.fail(f"could not import redirects.py: {exc!r}")


@pytest.mark.parametrize("url", ["/", "/account/settings?tab=2", "/docs/intro#install", "/a/b/c.html"])
def test_own_paths_are_kept(url):
    got = load().safe_next(url)
    assert got == url, f"safe_next({url!r}) should return the path unchanged, got {got!r}"


@pytest.mark.parametrize("url", ["https://evil.example/", "", "account"])
def test_other_targets_become_the_home_page(url):
    got = load().safe_next(url)
    assert got == "/", f"safe_next({url!r}) should return '/', got {got!r}"
