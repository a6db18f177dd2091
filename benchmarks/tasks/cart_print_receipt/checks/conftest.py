"""A fake lp on PATH for the checks of cart_print_receipt (not a test file).

It records its arguments and standard input as JSON under LP_LOG, writes LP_STDERR to its
standard error and exits with LP_EXIT, so a check sees exactly what lp got."""

import importlib
import json
import os
import stat
import sys

import pytest

FAKE_LP = f"""#!{sys.executable}
import json, os, sys
log = os.environ["LP_LOG"]
data = sys.stdin.buffer.read()
n = len(os.listdir(log))
with open(os.path.join(log, f"job{{n}}.json"), "w", encoding="utf-8") as fh:
    json.dump({{"args": sys.argv[1:], "stdin": data.hex()}}, fh)
sys.stderr.write(os.environ.get("LP_STDERR", ""))
sys.exit(int(os.environ.get("LP_EXIT", "0")))
"""


def load():
    try:
        return importlib.import_module("shopcart"), importlib.import_module("shopcart.printing")
    except Exception as exc:
        pytest.fail(f"could not import shopcart.printing: {exc!r}")


@pytest.fixture
def lp(tmp_path, monkeypatch):
    """jobs() -> [(args, stdin bytes)] that the fake lp received, in order."""
    bin_dir, log = tmp_path / "bin", tmp_path / "lp-log"
    bin_dir.mkdir()
    log.mkdir()
    script = bin_dir / "lp"
    script.write_text(FAKE_LP, encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("LP_LOG", str(log))
    monkeypatch.delenv("LP_EXIT", raising=False)
    monkeypatch.delenv("LP_STDERR", raising=False)

    def jobs():
        out = []
        for path in sorted(log.iterdir(), key=lambda p: int(p.stem[3:])):
            job = json.loads(path.read_text(encoding="utf-8"))
            out.append((job["args"], bytes.fromhex(job["stdin"])))
        return out

    return jobs


def a_cart(shopcart, name="Green tea"):
    cart = shopcart.Cart(shopcart.Catalog.from_dict({"tea": {"name": name, "price": "2.50"}}))
    cart.add("tea", 2)
    return cart
