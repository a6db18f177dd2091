"""The interpreter is out of reach and checked: the scorer's python runs no .pth file, and a
file planted by hand into site-packages or pytest's package stops the next session, naming it.

Everything here happens in a scratch venv made for the test, whose site-packages holds copies of
the scorer's packages (pytest, pluggy, iniconfig, packaging) and a path file, owned by a
distribution of its own, that reaches the rest of this environment. Nothing is planted into the
environment the tests run in.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_ponybench.isolation import sandbox
from tests.support import REPO, one_task_project

SCORER = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "py.py")
DISTS = ("pytest", "pluggy", "iniconfig", "packaging")


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def own_dist(site: Path, name: str, files: dict[str, bytes]) -> None:
    """Files in site-packages that an installed distribution (with a RECORD) owns."""
    info = site / f"{name}-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n")
    rows = []
    for rel, data in files.items():
        (site / rel).write_bytes(data)
        rows.append(f"{rel},{_hash(data)},{len(data)}")
    rows += [f"{name}-0.dist-info/METADATA,,", f"{name}-0.dist-info/RECORD,,"]
    (info / "RECORD").write_text("\n".join(rows) + "\n")


@pytest.fixture
def scratch_python(tmp_path: Path) -> tuple[Path, Path]:
    """(its python, its site-packages)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    ours = Path(sandbox.python_install()[0][0])
    for name in SCORER:
        src = ours / name
        if src.is_dir():
            shutil.copytree(src, site / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.is_file():
            shutil.copy2(src, site / name)
    for dist in DISTS:
        for info in ours.glob(f"{dist}-*.dist-info"):
            shutil.copytree(info, site / info.name)
    # The rest of this environment (xdist, this package, ...) after the copies, through a path
    # file that an installed distribution owns, as editable installs do.
    own_dist(site, "ponybench_test_paths", {"ponybench-test-paths.pth": f"{ours}\n{REPO}\n".encode()})
    return venv / "bin" / "python", site


SCORE = """\
import sys
from pathlib import Path
from pytest_ponybench.scoring import interpreter
from pytest_ponybench.scoring.checks import score
from pytest_ponybench.core.tasks import Task

check = b"import sys\\n\\ndef test_correct_no_pth_ran():\\n"
check += b"    assert not hasattr(sys, 'ponybench_planted')\\n"
ws = Path(sys.argv[1])
ws.mkdir()
(ws / "mod.py").write_text("x = 1\\n")
task = Task(id="x", path=ws, kind="surgical", prompt="p", file="mod.py", timeout=60,
            checks={"test_correct_iso.py": check})
s = score(task, ws)
print("problems", interpreter.verify())
print("planted-here", hasattr(sys, "ponybench_planted"))
print("verdict", s.correct, s.reason)
"""


def test_a_pth_file_that_python_runs_does_not_run_in_the_scorer(
    scratch_python: tuple[Path, Path], tmp_path: Path
) -> None:
    python, site = scratch_python
    # Owned by a distribution, so verify() has nothing against it: what keeps it out of the
    # checks is that the scorer's python starts isolated.
    own_dist(site, "disguised", {"disguised.pth": b"import sys; sys.ponybench_planted = True\n"})
    done = subprocess.run(
        [str(python), "-c", SCORE, str(tmp_path / "ws")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "problems []" in done.stdout
    assert "planted-here True" in done.stdout  # an ordinary python of this venv runs it
    assert "verdict True " in done.stdout, done.stdout  # the scorer's python did not


def test_files_planted_by_hand_stop_the_next_session_naming_them(
    scratch_python: tuple[Path, Path], tmp_path: Path
) -> None:
    python, site = scratch_python
    project = one_task_project(tmp_path / "project")
    argv = [str(python), "-m", "pytest", "--selftest-only", "-p", "no:cacheprovider", "-p", "no:xdist"]
    clean = subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=600)
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-3000:]

    (site / "evil.pth").write_text("import os; os.environ['PONYBENCH_EVIL'] = '1'\n")
    (site / "_pytest" / "planted.py").write_text("print('planted')\n")
    init = site / "_pytest" / "__init__.py"
    init.write_text(init.read_text() + "\n# patched\n")
    planted = subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=600)
    err = planted.stderr
    assert planted.returncode == pytest.ExitCode.USAGE_ERROR, planted.stdout[-2000:] + err[-2000:]
    assert "the python install the scorer runs on was changed; nothing was run" in err
    assert f"{site / 'evil.pth'} is not part of any installed package" in err
    assert f"{site / '_pytest' / 'planted.py'} was added to an installed package" in err
    assert f"{init} was changed since it was installed" in err
    assert "selftest::" not in planted.stdout  # no reference was scored
