"""An A/A twin from the command line: `--arm twin=baseline` is the baseline under another name,
so its verdict against the baseline is the run's measured noise floor."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.core.arms import parse_spec
from pytest_ponybench.errors import PonybenchError


def test_a_twin_is_the_baseline_under_another_name(tmp_path: Path) -> None:
    twin = parse_spec("twin=baseline", tmp_path)
    base = parse_spec("baseline=baseline", tmp_path)
    assert (twin.name, twin.kind) == ("twin", "baseline")
    assert twin.content_hash() == base.content_hash()


@pytest.mark.parametrize("spec", ["=baseline", "twin", "twin=basel1ne", "twin=plugin"])
def test_a_malformed_spec_names_itself(tmp_path: Path, spec: str) -> None:
    with pytest.raises(PonybenchError, match="--arm"):
        parse_spec(spec, tmp_path)
