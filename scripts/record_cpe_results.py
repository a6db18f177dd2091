"""Record the `aggregate-result.json` files the unit tests of the CPE reader use.

Run from anywhere: ``python scripts/record_cpe_results.py``. It runs Claude Code's own
`claude plugin eval` (the installed CLI) on copies of `examples/careful-plugin` whose eval suites
are `tests/unit/data/cpe/careful-evals/` and `broken-evals/`, against the offline model server,
inside a network namespace with only the loopback when the machine allows one, and writes the
results with machine paths replaced to `tests/unit/data/cpe/results/`:

- `with-without.json`: the suite with and without the plugin (three cases, three runs each);
- `plugin-v2.json`: the same suite against a second version of the plugin without its skill;
- `errors.json`: a case whose model answers HTTP 500 until the case's timeout;
- `single-arm.json`: one case with `--ablation none` (no run without the plugin).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from cpe_offline import DATA, isolated, lab_plugin, only_loopback, run_cpe, scrub

from pytest_ponybench.offline.server import OfflineServer

RESULTS = DATA / "results"
PLUGIN_ROOT = "/home/dev/careful"  # what the plugin's path reads as in the recorded files


def record(
    server: OfflineServer, scratch: Path, name: str, evals: Path, args: Sequence[str], **kw: object
) -> None:
    plugin = lab_plugin(scratch / name / "careful", evals, **kw)  # type: ignore[arg-type]
    cli_scratch = scratch / name / "cli"
    run = run_cpe(server, plugin, scratch / name / "out", args, scratch=cli_scratch)
    if not run.aggregate.is_file():
        raise SystemExit(f"{name}: claude plugin eval wrote no aggregate-result.json:\n{run.output}")
    # The CLI's TMPDIR was ours: its runs' sandboxes read as /tmp/claude-eval-* as they would.
    data = scrub(
        json.loads(run.aggregate.read_text()), {str(plugin): PLUGIN_ROOT, str(cli_scratch / "tmp"): "/tmp"}
    )
    out = RESULTS / f"{name}.json"
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"{out.relative_to(DATA.parent.parent.parent.parent)}: exit {run.returncode}, {run.wall_s:.1f} s")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument(
        "--no-isolate", action="store_true", help="do not enter a loopback-only network namespace"
    )
    args = ap.parse_args(argv)
    if not args.no_isolate:
        code = isolated([__file__, *(argv or sys.argv[1:])])
        if code is not None:
            return code
    print(f"network: {'loopback only' if only_loopback() else 'the machine (not isolated)'}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    evals, broken = DATA / "careful-evals", DATA / "broken-evals"
    with OfflineServer() as server, tempfile.TemporaryDirectory(prefix="cpe-record-") as tmp:
        scratch = Path(tmp)
        record(server, scratch, "with-without", evals, ["-j", "2"])
        record(server, scratch, "plugin-v2", evals, ["-j", "2"], skill=False, version="0.2.0")
        record(server, scratch, "errors", broken, [])
        record(server, scratch, "single-arm", evals, ["--ablation", "none", "--case", "greet", "--runs", "2"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
