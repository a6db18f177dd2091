import csv
import io
import json

import pytest
from payloads import CSV_FORMULA_START, CSV_FORMULAS

from test_correct import WORLD


def formula_cells(body: str) -> list[str]:
    """The cells of a CSV text (as a spreadsheet splits it) that it would read as formulas."""
    return [cell for row in csv.reader(io.StringIO(body, newline="")) for cell in row if cell.startswith(CSV_FORMULA_START)]


@pytest.fixture(scope="module")
def exports(ts_unchecked_batch):
    # Each payload once as a title (stored as typed: the store keeps a leading tab or CR) and once
    # as the login of the user who booked, each in a world of its own.
    return ts_unchecked_batch("src/app.ts", WORLD + f"""
        const out = [];
        for (const payload of {json.dumps(CSV_FORMULAS)}) {{
          const row = {{}};
          for (const where of ["title", "login"]) {{
            const w = world();
            const user = where === "login" ? w.store.addUser({{ login: payload }}).id : 1;
            w.add(user, 4, where === "title" ? payload : "Standup", "2024-03-05T09:00", "2024-03-05T10:00");
            const r = await attemptAsync(() => w.csv());
            row[where] = r.ok ? {{ status: r.value.status, body: r.value.body }} : {{ status: 0, body: "" }};
          }}
          out.push(row);
        }}
        return out;
    """)


@pytest.mark.parametrize("where", ["title", "login"])
@pytest.mark.parametrize("index", range(len(CSV_FORMULAS)), ids=[repr(p) for p in CSV_FORMULAS])
def test_no_cell_is_read_as_a_formula(exports, index, where):
    payload = CSV_FORMULAS[index]
    got = exports[index][where]
    cells = formula_cells(got["body"]) if got["status"] == 200 else []
    assert not cells, (
        f"a booking whose {where} is {payload!r} is exported with the cell(s) {cells} that a spreadsheet reads as a "
        f"formula (CSV injection): the export was\n{got['body']!r}")
