"""A validator that backtracks exponentially lets one request pin a server CPU for minutes
(ReDoS). Each call runs in its own process with a time limit far above what a linear check
needs."""
import subprocess
import sys

import pytest

LIMIT_S = 5.0
CODE = "import sys, emailcheck; emailcheck.is_valid_email(sys.argv[1])"


@pytest.mark.parametrize("address", [
    "a" * 40 + "!@example.com",
    "ann@" + "a" * 40 + "!",
    "ann@" + "a-" * 30 + "!",
], ids=["local", "domain", "hyphens"])
def test_hostile_address_is_checked_quickly(address):
    try:
        subprocess.run([sys.executable, "-c", CODE, address], timeout=LIMIT_S, capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"is_valid_email({address[:24]!r}...) ran for more than {LIMIT_S:g}s: the pattern "
            "backtracks exponentially (ReDoS); avoid nested quantifiers like (a+)*")
