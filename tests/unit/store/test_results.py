"""The run dir's JSON writes: a full disk keeps the old file whole and leaves no temp file behind."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from pytest_ponybench.store.results import write_json
from tests.support import small_tmpfs


def test_write_json_on_a_full_disk_keeps_the_old_file_whole_and_leaves_no_temp(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "small", "64k") as small:
        target = small / "summary.json"
        write_json(target, {"rows": [1, 2, 3]})
        with pytest.raises(OSError) as raised:
            write_json(target, {"rows": ["x" * 1000] * 200})  # 200 kB on a 64 kB disk
        assert raised.value.errno == errno.ENOSPC
        assert json.loads(target.read_text()) == {"rows": [1, 2, 3]}
        assert [p.name for p in small.iterdir()] == ["summary.json"]
