import json

import pytest


def outcomes(js, cases):
    """[(version, range)] -> what satisfies returned for each: true/false, or 'throws <Name>'."""
    return js("semver-range.js", f"""
        const satisfies = pick('satisfies');
        if (typeof satisfies !== "function") throw new Error("semver-range.js does not export a function satisfies");
        return {json.dumps(cases)}.map(([v, r]) => {{
            const got = attempt(() => satisfies(v, r));
            return got.ok ? got.value : "throws " + got.name;
        }});
    """)


def check(js, table):
    got = outcomes(js, [[v, r] for v, r, _ in table])
    wrong = [f"satisfies({v!r}, {r!r}) returned {g!r}, expected {e!r}"
             for (v, r, e), g in zip(table, got) if g != e]
    assert not wrong, f"{len(wrong)} of {len(table)} wrong: " + "; ".join(wrong[:6])


def test_plain_comparators(js):
    check(js, [
        ("1.2.3", "1.2.3", True), ("1.2.4", "1.2.3", False), ("1.2.3", "=1.2.3", True),
        ("1.2.2", "=1.2.3", False), ("1.2.3", ">1.2.3", False), ("1.2.4", ">1.2.3", True),
        ("1.3.0", ">1.2.3", True), ("2.0.0", ">1.2.3", True), ("1.2.2", ">1.2.3", False),
        ("1.2.3", ">=1.2.3", True), ("1.2.2", ">=1.2.3", False), ("1.1.9", ">=1.2.3", False),
        ("0.9.9", ">=1.2.3", False), ("1.2.3", "<1.2.3", False), ("1.2.2", "<1.2.3", True),
        ("1.1.99", "<1.2.3", True), ("0.99.99", "<1.2.3", True), ("1.2.3", "<=1.2.3", True),
        ("1.2.4", "<=1.2.3", False), ("10.0.0", ">9.0.0", True), ("9.10.0", ">9.9.0", True),
        ("9.0.10", "<9.0.9", False), ("2.0.0", "<10.0.0", True),
    ])


def test_and_or(js):
    check(js, [
        ("1.5.0", ">=1.2.0 <2.0.0", True), ("2.0.0", ">=1.2.0 <2.0.0", False),
        ("1.1.0", ">=1.2.0 <2.0.0", False), ("1.5.0", ">=1.2.0  <2.0.0", True),
        ("0.5.0", "<1.0.0 || >=2.0.0 <3.0.0", True), ("2.5.0", "<1.0.0 || >=2.0.0 <3.0.0", True),
        ("1.5.0", "<1.0.0 || >=2.0.0 <3.0.0", False), ("3.0.0", "<1.0.0 || >=2.0.0 <3.0.0", False),
        ("1.2.3", "1.2.3||2.0.0", True), ("2.0.0", "1.2.3||2.0.0", True), ("1.2.4", "1.2.3||2.0.0", False),
        ("1.2.3", "  >=1.0.0   ||   <0.1.0  ", True), ("1.5.0", ">1.0.0 >1.4.0 <1.6.0 <1.5.1", True),
        ("1.5.1", ">1.0.0 >1.4.0 <1.6.0 <1.5.1", False), ("3.0.0", "^1.0.0 || ^2.0.0 || ^3.0.0", True),
    ])


def test_caret(js):
    check(js, [
        ("1.2.3", "^1.2.3", True), ("1.2.2", "^1.2.3", False), ("1.9.9", "^1.2.3", True),
        ("1.3.0", "^1.2.3", True), ("2.0.0", "^1.2.3", False), ("1.2.4", "^1.2.3", True),
        ("0.2.3", "^0.2.3", True), ("0.2.9", "^0.2.3", True), ("0.3.0", "^0.2.3", False),
        ("0.2.2", "^0.2.3", False), ("1.0.0", "^0.2.3", False),
        ("0.0.3", "^0.0.3", True), ("0.0.4", "^0.0.3", False), ("0.0.2", "^0.0.3", False),
        ("0.1.0", "^0.0.3", False), ("0.0.0", "^0.0.0", True), ("0.0.1", "^0.0.0", False),
        ("0.1.0", "^0.1.0", True), ("0.1.5", "^0.1.0", True), ("0.2.0", "^0.1.0", False),
        ("10.4.0", "^10.3.2", True), ("11.0.0", "^10.3.2", False),
    ])


def test_tilde(js):
    check(js, [
        ("1.2.3", "~1.2.3", True), ("1.2.9", "~1.2.3", True), ("1.3.0", "~1.2.3", False),
        ("1.2.2", "~1.2.3", False), ("2.0.0", "~1.2.3", False), ("0.2.5", "~0.2.3", True),
        ("0.3.0", "~0.2.3", False), ("1.0.0", "~1.0.0", True), ("1.0.12", "~1.0.0", True),
        ("1.1.0", "~1.0.0", False),
    ])


def test_x_ranges(js):
    check(js, [
        ("0.0.0", "*", True), ("99.1.2", "*", True), ("1.5.0", "x", True), ("1.5.0", "X", True),
        ("1.0.0", "1.x", True), ("1.9.9", "1.x", True), ("2.0.0", "1.x", False), ("0.9.9", "1.x", False),
        ("1.4.0", "1.x.x", True), ("2.0.0", "1.X.X", False), ("1.4.0", "1.*", True), ("1.4.0", "1", True),
        ("2.0.0", "1", False), ("0.1.0", "0", True), ("1.0.0", "0", False),
        ("1.2.0", "1.2.x", True), ("1.2.99", "1.2.x", True), ("1.3.0", "1.2.x", False),
        ("1.1.9", "1.2.x", False), ("1.2.5", "1.2", True), ("1.3.0", "1.2", False), ("1.2.7", "1.2.*", True),
        ("3.1.0", "1.x || 3.1", True), ("2.1.0", "1.x || 3.1", False),
    ])


def test_precedence_of_prereleases(js):
    chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
             "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]
    table = []
    for i, low in enumerate(chain):
        for high in chain[i + 1:]:
            table.append((high, f">{low}", True))
            # a prerelease passes only where the alternative names one of 1.0.0's prereleases
            table.append((low, f"<{high}" if "-" in high else f"<{high} >=1.0.0-alpha", True))
            table.append((low, f">={high}", False))
    table += [("1.0.0-2", ">1.0.0-10", False), ("1.0.0-10", ">1.0.0-2", True),
              ("1.0.0-a", ">1.0.0-999", True), ("1.0.0-B", "<1.0.0-a", True),
              ("1.0.0-alpha", "=1.0.0-alpha", True), ("1.0.0-alpha", "=1.0.0-alpha.0", False),
              ("1.0.0-x-y", ">1.0.0-x", True), ("1.0.0-0.3.7", "<1.0.0-0.3.8", True),
              ("1.0.0-rc.1", "<=1.0.0-rc.1", True), ("1.0.0-1", "<1.0.0-a1", True), ("1.0.0-a1", ">1.0.0-1", True),
              ("1.0.0-2", ">1.0.0-a1", False)]
    check(js, table)


def test_prerelease_only_where_the_range_names_one(js):
    check(js, [
        ("1.3.0-beta.1", "^1.2.0", False), ("1.2.4-rc.1", ">=1.2.4-alpha <1.3.0", True),
        ("1.2.5-rc.1", ">=1.2.4-alpha <1.3.0", False), ("1.2.4-rc.1", ">=1.2.3 <1.3.0", False),
        ("1.2.4", ">=1.2.4-alpha", True), ("1.2.3-beta.2", "^1.2.3-beta.1", True),
        ("1.2.3-alpha", "^1.2.3-beta.1", False), ("1.2.4-beta.2", "^1.2.3-beta.1", False),
        ("1.5.0", "^1.2.3-beta.1", True), ("1.0.0-rc.1", "*", False), ("1.0.0-rc.1", "1.x", False),
        ("1.2.3-rc.1", "~1.2.3-beta", True), ("1.2.3-rc.1", "1.2.3-rc.1", True),
        ("1.2.3-rc.1", ">1.0.0 || >=1.2.3-rc.0", True), ("1.2.3-rc.1", ">=1.2.3-rc.0 >1.0.0", True),
        ("1.2.3-rc.1", ">=1.2.3-rc.0 || >1.0.0", True), ("1.2.3-rc.1", ">1.0.0 <1.2.3-rc.9 || ^1.0.0", True),
        ("1.2.3-rc.1", "<1.2.3", False), ("2.0.0-alpha", "^1.0.0", False), ("2.0.0-alpha", "<2.0.0", False),
    ])



def test_prerelease_rule_is_per_alternative(js):
    # The alternative the version passes must itself name a prerelease of the same MAJOR.MINOR.PATCH:
    # one named in another alternative (that the version fails) does not count.
    check(js, [
        ("1.2.3-rc.1", ">=1.0.0 || <1.2.3-alpha", False), ("1.2.3-rc.1", "^1.0.0 || 1.2.3-beta", False),
        ("1.2.3-rc.1", "<1.2.3-alpha || >1.0.0", False), ("1.2.3-rc.1", ">=1.2.3-rc.2 || ~1.2.0", False),
        ("1.2.3-rc.1", ">1.0.0 || >=1.2.3-rc.0 <2.0.0", True), ("1.2.3-rc.1", "1.2.3-beta || 1.2.3-rc.1", True),
    ])

def test_build_metadata_is_ignored(js):
    check(js, [
        ("1.2.3+build.5", "1.2.3", True), ("1.2.3+build.5", "=1.2.3+other", True),
        ("1.2.3+exp.sha.5114f85", ">=1.2.3 <1.2.4", True), ("1.2.3-rc.1+b7", ">=1.2.3-rc.1", True),
        ("1.2.3", "<=1.2.3+zzz", True), ("1.2.3+0", ">1.2.3", False),
    ])


BAD_VERSIONS = [
    "v1.2.3", "1.2", "1", "01.2.3", "1.02.3", "1.2.03", "1.2.3-01", "1.2.3-", "1.2.3+", " 1.2.3",
    "1.2.3 ", "1.2.3\n", "1.2.3.4", "1.2.x", "a.b.c", "", "1..3", "1.2.3-beta..1", "-1.2.3",
    "1.2.3-be$ta",
]
BAD_RANGES = [
    "", "   ", "1.2.3 ||", "|| 1.2.3", "1.2.3 || || 2.0.0", ">=1.x", ">1.2", "^1.2", "~1", "^1.x",
    "~>1.2.3", ">>1.2.3", "=>1.2.3", "!1.2.3", "1.2.3.4", "^v1.2.3", "abc", "1.2.3-", ">=01.2.3",
    "<1.2.3-01", ">=", "<", "^", "~", "1.2.3 >=",
]


@pytest.fixture(scope="module")
def invalid(js_batch):
    """What satisfies did with each bad version (against '*') and bad range (for 1.2.3), in one node run."""
    cases = [[v, "*"] for v in BAD_VERSIONS] + [["1.2.3", r] for r in BAD_RANGES]
    got = outcomes(js_batch, cases)
    return got[:len(BAD_VERSIONS)], got[len(BAD_VERSIONS):]


@pytest.mark.parametrize("case", range(len(BAD_VERSIONS)), ids=[repr(v) for v in BAD_VERSIONS])
def test_invalid_version_throws_type_error(invalid, case):
    got = invalid[0][case]
    assert got == "throws TypeError", f"satisfies({BAD_VERSIONS[case]!r}, '*') should throw a TypeError, got {got!r}"


@pytest.mark.parametrize("case", range(len(BAD_RANGES)), ids=[repr(r) for r in BAD_RANGES])
def test_invalid_range_throws_type_error(invalid, case):
    got = invalid[1][case]
    assert got == "throws TypeError", f"satisfies('1.2.3', {BAD_RANGES[case]!r}) should throw a TypeError, got {got!r}"


def test_leading_zero_allowed_where_it_is_the_number(js):
    check(js, [("0.0.0", "0.0.0", True), ("1.0.0-0", "<1.0.0-1", True), ("1.0.0-0a", ">1.0.0-0", True),
               ("10.20.30", "10.20.30", True), ("1.0.0-alpha0", ">=1.0.0-alpha", True)])
