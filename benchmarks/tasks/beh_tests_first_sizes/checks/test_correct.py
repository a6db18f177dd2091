import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def load():
    try:
        return importlib.import_module("units")
    except Exception as exc:
        pytest.fail(f"could not import units.py: {exc!r}")


# ---------------------------------------------------------------- parse_size itself


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("512", 512),
        ("0", 0),
        ("10 KB", 10_000),
        ("10KB", 10_000),
        ("10 kb", 10_000),
        ("10 kB", 10_000),
        (" 10 KB ", 10_000),
        ("10   KB", 10_000),
        ("3 MB", 3_000_000),
        ("2 GB", 2_000_000_000),
        ("2 gb", 2_000_000_000),
        ("7 B", 7),
        ("7b", 7),
        ("7 ", 7),
        ("1 KiB", 1024),
        ("3 kib", 3072),
        ("2 MiB", 2 * 1024**2),
        ("1.5GiB", 1536 * 1024**2),
        ("1.5 gib", 1536 * 1024**2),
        ("1.5 KB", 1500),
        (".5 KB", 500),
        ("2. MB", 2_000_000),
        ("2.0 B", 2),
        ("8.2 MB", 8_200_000),
        ("1.005 KB", 1005),
        ("0.3 KB", 300),
        ("4.7 GB", 4_700_000_000),
        ("0.25 KiB", 256),
    ],
)
def test_sizes(text, size):
    got = load().parse_size(text)
    assert got == size and type(got) is int, f"parse_size({text!r}) returned {got!r}, expected the int {size}"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "-5",
        "+5",
        "-1 KB",
        "- 1 KB",
        "10 XB",
        "10 K",
        "10 KBB",
        "10 TB",
        "KB",
        ".",
        ". KB",
        "0.5 B",
        "1.0001 KB",
        "0.1 KiB",
        "1.2.3",
        "1..2 KB",
        "\u0661\u0662",
        "\uff11\uff10 KB",
        "1 0 KB",
        "10 K B",
    ],
)
def test_refused(text):
    with pytest.raises(ValueError):
        load().parse_size(text)


def test_parse_count_kept():
    units = load()
    assert units.parse_count(" 12 ") == 12, "parse_count changed"
    with pytest.raises(ValueError):
        units.parse_count("-3")


# ---------------------------------------------------------------- the tests the agent wrote

REFERENCE = textwrap.dedent(
    '''
    import re
    from fractions import Fraction

    def parse_count(text):
        text = text.strip()
        if not text.isascii() or not text.isdigit():
            raise ValueError(text)
        return int(text)

    UNITS = {"b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "kib": 1024, "mib": 1024**2, "gib": 1024**3}
    SIZE = re.compile(r"\\s*(\\d+\\.?\\d*|\\.\\d+)\\s*([A-Za-z]*)\\s*")

    def parse_size(text):
        match = SIZE.fullmatch(text) if text.isascii() else None
        if match is None:
            raise ValueError(text)
        number, unit = match.groups()
        factor = UNITS.get(unit.lower() or "b")
        if factor is None:
            raise ValueError(text)
        size = Fraction(number) * factor
        if size.denominator != 1:
            raise ValueError(text)
        return int(size)
    '''
)


def broken(*edits):
    src = REFERENCE
    for old, new in edits:
        assert old in src, f"the check's own edit does not apply: {old!r}"
        src = src.replace(old, new)
    return src


# Each breaks one rule of the prompt, on its own examples; the agent's tests must catch each.
BROKEN = {
    "decimal units in powers of 1024": broken(('"kb": 1000, "mb": 1000**2, "gb": 1000**3', '"kb": 1024, "mb": 1024**2, "gb": 1024**3')),
    "binary units in powers of 1000": broken(('"kib": 1024, "mib": 1024**2, "gib": 1024**3', '"kib": 1000, "mib": 1000**2, "gib": 1000**3')),
    "units only in upper case": broken(('UNITS.get(unit.lower() or "b")', '{"B": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}.get(unit or "B")')),
    "no unit is refused": broken(('UNITS.get(unit.lower() or "b")', 'UNITS.get(unit.lower())')),
    "no space allowed between number and unit": broken((r'\s*([A-Za-z]*)', r'([A-Za-z]*)')),
    "decimals refused": broken((r'(\d+\.?\d*|\.\d+)', r'(\d+)')),
    "short decimals (.5, 2.) refused": broken((r'(\d+\.?\d*|\.\d+)', r'(\d+(?:\.\d+)?)')),
    "fractions of a byte rounded down": broken(('    if size.denominator != 1:\n        raise ValueError(text)\n', '')),
    "a sign accepted": broken((r'\s*(\d+\.?\d*|\.\d+)', r'\s*([+-]?\d+\.?\d*|[+-]?\.\d+)')),
    "an empty string is 0": broken(('    match = SIZE.fullmatch', '    if not text.strip():\n        return 0\n    match = SIZE.fullmatch')),
    "an unknown unit read as bytes": broken(('UNITS.get(unit.lower() or "b")', 'UNITS.get(unit.lower() or "b", 1)')),
    "a number without digits read as 0": broken((r'(\d+\.?\d*|\.\d+)', r'(\d*\.?\d*)'), ('Fraction(number)', 'Fraction(number.strip(".") or "0")')),
}

RUNNER = textwrap.dedent(
    '''
    import json, os, sys
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    paths, tests, impls = json.loads(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
    sys.path[:] = paths
    import pytest
    codes = {}
    for name, folder in impls.items():
        for mod in [m for m in sys.modules if m == "units" or m.startswith("test_sizes") or m.endswith(".test_sizes")]:
            del sys.modules[mod]
        sys.path.insert(0, folder)
        codes[name] = int(pytest.main(["-q", "-p", "no:cacheprovider", "--import-mode=importlib", "--rootdir", folder, tests]))
        sys.path.remove(folder)
    print("CODES " + json.dumps(codes))
    '''
)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Exit status of pytest on the agent's tests/test_sizes.py against the reference and each broken one."""
    tests = Path("tests/test_sizes.py")
    if not tests.is_file():
        pytest.fail("the prompt asks for tests in a new file tests/test_sizes.py; there is none")
    root = tmp_path_factory.mktemp("agent_tests")
    copy = root / "tests" / "test_sizes.py"
    copy.parent.mkdir()
    copy.write_bytes(tests.read_bytes())
    impls = {}
    for n, (name, src) in enumerate({"reference": REFERENCE, **BROKEN}.items()):
        folder = root / f"impl{n}"
        folder.mkdir()
        (folder / "units.py").write_text(src)
        impls[name] = str(folder)
    runner = root / "runner.py"
    runner.write_text(RUNNER)
    workspace = os.path.realpath(os.getcwd())
    paths = [p for p in sys.path if p and os.path.realpath(p) != workspace]
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-B", str(runner), json.dumps(paths), str(copy), json.dumps(impls)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=90,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("CODES "):
            return json.loads(line[6:])
    pytest.fail(f"running tests/test_sizes.py failed: {proc.stdout[-1500:]} {proc.stderr[-1500:]}")


def test_added_tests_pass_on_a_correct_parse_size(outcomes):
    code = outcomes["reference"]
    assert code == 0, (
        f"tests/test_sizes.py does not pass against a correct parse_size (pytest exit {code}: "
        "1 a test failed, 2 an error, 5 no tests)"
    )


@pytest.mark.parametrize("rule", list(BROKEN))
def test_added_tests_catch_a_broken_rule(outcomes, rule):
    code = outcomes[rule]
    assert code == 1, f"tests/test_sizes.py passes against a parse_size with this rule broken: {rule} (pytest exit {code})"
