"""What the unit tests of several modules share, kept apart from any test module so a test file
never imports another (tests/unit/project/test_layout.py holds every folder of tests/unit to the
package's wings; this folder, project/ and data/ are the ones that are not a wing).

- `records`: cell records by hand (`rec`, `record`, `cell`, `report_record`), run dirs of them,
  an effect's lookup;
- `synth`: synthetic runs with known effects per arm, as records (`synth`) or as a run dir
  (`rundirs.write_run`);
- `tasks`: a minimal task folder and its load problems;
- `shards`: shard run dirs of one grid, as `ponybench merge` reads them;
- `mutants`: Python mutants of a small source, each a valid program that differs from it;
- `judge`: a hostile judged text and the quoted blocks of a judge's prompt;
- `evidence`: a claude session's stream lines by hand and what the graders read of them;
- `runjson`: run.json in each form earlier versions wrote.
"""

from __future__ import annotations

from pathlib import Path

# The recorded inputs (streams, CLI help texts, cpe suites, run.json forms) the unit tests read.
DATA = Path(__file__).resolve().parents[1] / "data"
