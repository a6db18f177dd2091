"""run.json as earlier versions wrote it: one file per form under tests/unit/data/runjson/."""

from __future__ import annotations

import json
from typing import Any

from tests.unit._support import DATA

FORMS = DATA / "runjson"


def form(n: int) -> dict[str, Any]:
    data = json.loads((FORMS / f"form{n}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data
