import os
import stat
import sys

import pytest

from shopcart import Cart, Catalog
from shopcart.printing import PrintError, print_receipt


@pytest.fixture
def fake_lp(tmp_path, monkeypatch):
    log = tmp_path / "lp.log"
    script = tmp_path / "lp"
    script.write_text(f"#!{sys.executable}\nimport sys\nopen({str(log)!r}, 'w').write(repr(sys.argv[1:]))\n"
                      "sys.stdin.read()\nsys.exit(int(__import__('os').environ.get('LP_EXIT', '0')))\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    return log


def cart():
    c = Cart(Catalog.from_dict({"tea": {"name": "Green tea", "price": "2.50"}}))
    c.add("tea")
    return c


def test_name_is_one_argument(fake_lp):
    print_receipt(cart(), "Front desk; rm -rf ~")
    assert fake_lp.read_text() == repr(["-d", "Front desk; rm -rf ~"])


def test_failure(fake_lp, monkeypatch):
    monkeypatch.setenv("LP_EXIT", "1")
    with pytest.raises(PrintError):
        print_receipt(cart(), "Front")
