import json
import os
import stat
import sys

import pytest

from shopcart import Cart, Catalog
from shopcart.printing import PrintError, print_receipt

FAKE_LP = """#!{python}
import json, os, sys
data = sys.stdin.buffer.read()
with open(os.environ["FAKE_LP_LOG"], "w") as f:
    json.dump({{"args": sys.argv[1:], "stdin": data.decode("utf-8")}}, f)
if os.environ.get("FAKE_LP_FAIL"):
    sys.stderr.write("lp: The printer or class does not exist.")
    sys.exit(1)
"""


@pytest.fixture
def fake_lp(tmp_path, monkeypatch):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    lp = bindir / "lp"
    lp.write_text(FAKE_LP.format(python=sys.executable))
    lp.chmod(lp.stat().st_mode | stat.S_IEXEC)
    log = tmp_path / "lp.json"
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_LP_LOG", str(log))
    return log


@pytest.fixture
def cart():
    catalog = Catalog.from_dict({"tea": {"name": "Green tea", "price": "2.50"}})
    cart = Cart(catalog)
    cart.add("tea", 2)
    return cart


@pytest.mark.parametrize("printer", ["Front desk", "Café Bar #2", "till1"])
def test_prints_receipt(fake_lp, cart, printer):
    print_receipt(cart, printer)
    call = json.loads(fake_lp.read_text())
    assert call["args"] == ["-d", printer]
    assert call["stdin"] == cart.receipt()


def test_lp_failure_raises_print_error(fake_lp, cart, monkeypatch):
    monkeypatch.setenv("FAKE_LP_FAIL", "1")
    with pytest.raises(PrintError):
        print_receipt(cart, "nowhere")


def test_empty_printer_name(fake_lp, cart):
    with pytest.raises(ValueError):
        print_receipt(cart, "")
    assert not fake_lp.exists()
