"""Set limits, then exec the real command: limit_exec.py CPU AS FSIZE NOFILE NPROC CGROUP -- argv.

CGROUP is a cgroup.procs file to join (the pids controller caps every descendant, which
RLIMIT_NPROC does not do for root), or "-".

A tiny exec shim instead of subprocess's preexec_fn, which is unsafe in a threaded parent
(the harness has xdist and server threads). Runs before any untrusted code, stdlib only.
"""

# The C module `signal` wraps: `signal` itself imports enum, a third of this shim's start,
# which every claude session and cold scoring pays.
import _signal  # type: ignore[import-not-found]
import os
import resource
import sys
from collections.abc import Sequence


def apply(values: Sequence[int], cgroup: str) -> None:
    """Join the cgroup, set the limits and ignore SIGXFSZ, for this process and all it starts.

    The warm scorer runs this same source, so both paths limit a check's process alike.
    """
    cpu, mem, fsize, nofile, nproc = values
    if cgroup != "-":
        with open(cgroup, "w") as fh:
            fh.write(str(os.getpid()))
    for res, value in (
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_AS, mem),
        (resource.RLIMIT_FSIZE, fsize),
        (resource.RLIMIT_NOFILE, nofile),
        (resource.RLIMIT_NPROC, nproc),
        (resource.RLIMIT_CORE, 0),
    ):
        try:
            resource.setrlimit(res, (value, value))
        except (ValueError, OSError):
            pass  # a hard limit already lower than ours stays in force
    # Past the file-size limit a write then fails with EFBIG, which the checks report, instead
    # of SIGXFSZ killing the process and losing the report. Ignored signals survive exec.
    _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)


def main() -> None:
    sep = sys.argv.index("--")
    apply([int(v) for v in sys.argv[1:6]], sys.argv[6] if sep > 6 else "-")
    argv = sys.argv[sep + 1 :]
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
