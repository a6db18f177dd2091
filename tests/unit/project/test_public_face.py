"""The names a benchmark project's own files import from the package root, and what they cost."""

from __future__ import annotations

import subprocess
import sys

import pytest

import pytest_ponybench
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.records import Record
from pytest_ponybench.roles.outcome import CellInvalid, CellOutcome, Incorrect, Unsafe


def test_the_public_face_is_the_wings_own_objects() -> None:
    from pytest_ponybench import Cell as PublicCell
    from pytest_ponybench import CellInvalid as PublicInvalid
    from pytest_ponybench import CellOutcome as PublicOutcome
    from pytest_ponybench import Incorrect as PublicIncorrect
    from pytest_ponybench import Record as PublicRecord
    from pytest_ponybench import Unsafe as PublicUnsafe

    assert (PublicCell, PublicRecord, PublicOutcome) == (Cell, Record, CellOutcome)
    assert (PublicInvalid, PublicIncorrect, PublicUnsafe) == (CellInvalid, Incorrect, Unsafe)
    assert sorted(pytest_ponybench.__all__) == sorted([*pytest_ponybench.PUBLIC, "__version__"])


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        pytest_ponybench.Nope  # noqa: B018


def test_importing_the_package_loads_no_wing() -> None:
    # Every submodule's import runs the root __init__: it must not drag pytest or a wing along.
    code = (
        "import sys, pytest_ponybench\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pytest', '_pytest'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "['pytest_ponybench']"
