import importlib

import pytest


def parse_port(text):
    try:
        module = importlib.import_module("ports")
    except Exception as exc:
        pytest.fail(f"could not import ports.py: {exc!r}")
    return module.parse_port(text)


@pytest.mark.parametrize(
    "text, expected",
    [("80", 80), ("1", 1), ("65535", 65535), (" 8080 ", 8080), ("  22", 22), ("443   ", 443)],
)
def test_valid_ports(text, expected):
    got = parse_port(text)
    assert got == expected and type(got) is int, f"parse_port({text!r}) should be {expected!r}, got {got!r}"


@pytest.mark.parametrize("text", ["\t443\n", "443\n", "\t443"])
def test_tabs_and_line_breaks_around(text):
    """The prompt allows spaces around the port; whether a tab or a line break counts as one is
    left open, so 443 and a ValueError are both accepted (never another number or exception)."""
    try:
        got = parse_port(text)
    except ValueError:
        return
    except Exception as exc:
        pytest.fail(f"parse_port({text!r}) should be 443 or raise ValueError, raised {exc!r}")
    assert got == 443 and type(got) is int, f"parse_port({text!r}) should be 443 or raise ValueError, got {got!r}"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "0", "65536", "99999999999999999999", "-1", "+80", "8_080", "080", "00", "01", "80.0", "0x50",
     "1e3", "٣", "８０", "8 0", "80a", "²"],
)
def test_rejected(text):
    try:
        got = parse_port(text)
    except ValueError:
        return
    except Exception as exc:
        pytest.fail(f"parse_port({text!r}) should raise ValueError, raised {exc!r}")
    pytest.fail(f"parse_port({text!r}) should raise ValueError, returned {got!r}")
