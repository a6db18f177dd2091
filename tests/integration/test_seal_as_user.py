"""The seal as a normal user: a harness that is not root confines the agent and the scorer the
same way. The suite runs as root in CI, so this test drops to uid 65534 (setpriv) and runs the
harness's own confinement code there, with a python that user can run, against a host secret
that user *can* read outside: only the confinement keeps it out."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

from tests.support import NOBODY, REPO, as_nobody, nobody_python

# Runs as the normal user, in a python that user can run, with this checkout on its path.
HARNESS = """\
import json, os, subprocess, sys
from pathlib import Path
from pytest_ponybench.isolation import confine, sandbox

root, secret, mark = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
state = confine.status()
out = {"uid": os.getuid(), "available": state.available, "reason": state.reason}
ws, home = root / "ws", root / "home"
ws.mkdir(parents=True, exist_ok=True)
home.mkdir(exist_ok=True)
view = confine.View(writable=(ws, home), network=True, chdir=ws)
agent = subprocess.run(
    [*confine.bwrap_argv(state.bwrap, view), "/bin/sh", "-c",
     f"grep CapEff /proc/self/status; cat {secret} /etc/shadow 2>/dev/null; "
     f"echo planted > {root}/outside-agent 2>/dev/null; ls {Path(sys.argv[4])} 2>/dev/null; "
     "echo agent-done"],
    capture_output=True, text=True, timeout=60,
)
out["agent"] = agent.stdout
code = (
    "import os, pathlib\\n"
    f"found = []\\n"
    f"for p in ({secret!r}, '/etc/shadow', {str(sys.argv[4])!r}):\\n"
    "    try: found.append(pathlib.Path(p).read_text()[:40])\\n"
    "    except OSError: pass\\n"
    "for pid in os.listdir('/proc'):\\n"
    "    try: env = open(f'/proc/{pid}/environ', 'rb').read()\\n"
    "    except OSError: continue\\n"
    f"    found += ['environ'] if {mark!r}.encode() in env else []\\n"
    "try: pathlib.Path(" + repr(str(root / "outside-scorer")) + ").write_text('planted')\\n"
    "except OSError: pass\\n"
    "print(repr(found)); print(open('/proc/self/status').read().split('CapEff:')[1].split()[0])\\n"
)
argv = [sys.executable, "-I", "-c", code]
scored = sandbox.run_sandboxed(argv, cwd=ws, out_dir=root / "scorer-out", timeout_s=60)
out["scorer"] = scored.stdout.read_text()
out["scorer_status"] = [scored.returncode, scored.stderr.read_text()[-1500:]]
out["scorer_isolated"] = list(scored.isolated)
print(json.dumps(out))
"""


def test_a_normal_users_harness_confines_the_agent_and_the_scorer(tmp_path: Path) -> None:
    python = nobody_python()
    # The user's own folder, and a host secret the user can read outside the confinement.
    root = Path(f"/tmp/ponybench-as-user-{uuid.uuid4().hex}")
    root.mkdir(mode=0o755)
    try:
        os.chown(root, NOBODY, NOBODY)
        secret = root / "host-secret.txt"
        secret.write_text("HOST-SECRET-VALUE\n")
        os.chown(secret, NOBODY, NOBODY)
        mark = f"PONYBENCH_MARK_{uuid.uuid4().hex}"
        cell, benchmarks = str(root / "cell"), str(REPO / "benchmarks")
        out = as_nobody(python, HARNESS, cell, str(secret), mark, benchmarks, home=root, env={mark: "1"})
        # The agent: no capability, nothing of the host, nothing written outside.
        assert "CapEff:\t0000000000000000" in out["agent"] and out["agent"].rstrip().endswith("agent-done"), (
            out
        )
        assert "HOST-SECRET" not in out["agent"] and "root:" not in out["agent"], out
        assert "tasks" not in out["agent"], out
        assert not (root / "cell" / "outside-agent").exists()
        # The scorer: the same, and no other process's environment.
        lines = out["scorer"].splitlines()
        assert len(lines) >= 2, out
        found, capeff = lines[-2:]
        assert found == "[]" and capeff == "0000000000000000", out
        assert {"fs", "net", "pid", "nocaps", "user"} <= set(out["scorer_isolated"]), out
        assert not (root / "cell" / "outside-scorer").exists()
    finally:
        shutil.rmtree(root, ignore_errors=True)
