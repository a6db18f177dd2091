"""What installing pytest-ponybench costs a pytest run that has nothing to do with it.

Runs `python -X importtime -m pytest` in a fresh folder holding one plain test, with the plugin
loaded (as the entry point loads it) and with `-p no:ponybench`, and prints the import time the
plugin adds (median over runs) and how many of its modules were imported. Point PYTHONPATH at
another checkout's folder to measure that version instead.

    python scripts/bench_import.py [--runs 9]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)$")


def imports(folder: Path, *extra: str) -> tuple[dict[str, int], str]:
    """Self import time (microseconds) by module, and pytest's last line."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    times = {m.group(4): int(m.group(1)) for line in done.stderr.splitlines() if (m := LINE.match(line))}
    outcome = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["?"])[-1]
    return times, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "test_plain.py").write_text("def test_plain():\n    assert True\n")
        baseline, _ = imports(folder, "-p", "no:ponybench")
        added: list[int] = []
        modules: list[str] = []
        outcome = ""
        for _ in range(args.runs):
            times, outcome = imports(folder)
            # The plugin's cost: every module this run imported that the run without it did not.
            modules = sorted(set(times) - set(baseline))
            added.append(sum(times[m] for m in modules))
    ours = [m for m in modules if m.startswith("pytest_ponybench")]
    print(f"pytest in an unrelated folder with one plain test, median of {args.runs} runs")
    print(f"  pytest said:                     {outcome}")
    print(f"  import time the plugin adds:     {statistics.median(added) / 1000:7.1f} ms")
    print(f"  modules it adds:                 {len(modules)}, of them ponybench's {len(ours)}")
    print(f"  ponybench modules:               {', '.join(ours)}")


if __name__ == "__main__":
    main()
