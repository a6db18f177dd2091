"""What a cell's sandbox binds of the host, for every arm kind: the paths bwrap gets as sources
(`--ro-bind`, `--bind`) from `session/run.launch`, the function every cell runs through, never
are or hold the project, HOME or a run dir. A plugin is bound as a copy of its content; links out
of an arm's folder, an MCP config in HOME and a `--claude` wrapper's folder are refused.

No claude here: the claude command is a stand-in npm package of the CLI made for the test (only
its bwrap argv is read, nothing runs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_ponybench.core import armparts
from pytest_ponybench.core.arms import Arm, apart_from, parse_spec
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.tasks import load_tasks
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.gateway.upstream import Upstream
from pytest_ponybench.isolation import confine
from pytest_ponybench.session import run as cellrun
from pytest_ponybench.store.results import RunDir
from tests.support import REPO, one_task_project, write

TASK = "sql_lookup"
SECRET = '{"claudeAiOauth": {"accessToken": "fake-oauth-token-for-tests"}}\n'
# Every kind, and the plugin as `ponybench init` writes it for a plugin repository.
SPECS = {
    "repo": "plugin:.",
    "plugin": "plugin:plugins/mine",
    "prompt": "prompt:be brief",
    "promptfile": "prompt-file:arms/prompt.txt",
    "settings": "settings:arms/settings.json",
    "mcp": "mcp:mcp/notes/mcp.json",
    "memory": "claude-md:arms/memory/CLAUDE.md",
    "usermemory": "claude-md:arms/memory/CLAUDE.md@user",
    "skills": "skills:arms/skills",
    "agents": "agents:arms/agents",
    "style": "output-style:arms/output-styles/terse.md",
    "composed": "plugin:.+mcp:mcp/notes/mcp.json+skills:arms/skills",
}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A plugin repository benchmarked in place: the plugin at its root, committed tasks, an
    earlier run, a venv, the test arms; a HOME with a credentials file; cwd at the root."""
    root = tmp_path / "repo"
    write(root / ".claude-plugin" / "plugin.json", json.dumps({"name": "repo-plugin"}))
    write(root / "hooks" / "hooks.json", json.dumps({"hooks": {}}))
    shutil.copytree(REPO / "benchmarks" / "tasks" / TASK, root / "benchmarks" / "tasks" / TASK)
    (root / "fixtures").mkdir()
    write(root / "runs" / "earlier" / "results.jsonl", '{"cell_id": "earlier"}\n')
    write(root / "runs" / "earlier" / "cells" / "c" / "workspace" / "answer.py", "x = 1\n")
    write(root / ".venv" / "pyvenv.cfg", "home = /usr/bin\n")
    write(root / "plugins" / "mine" / ".claude-plugin" / "plugin.json", json.dumps({"name": "mine"}))
    shutil.copytree(REPO / "tests" / "arms", root / "arms")
    write(root / "arms" / "prompt.txt", "be careful\n")
    write(root / "arms" / "settings.json", '{"model": "x"}\n')
    shutil.copytree(REPO / "examples" / "notes-mcp", root / "mcp" / "notes")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the plugin and its benchmark")
    home = tmp_path / "home"
    write(home / ".claude" / ".credentials.json", SECRET)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(root)
    yield root


def fake_claude(where: Path) -> Path:
    """An npm install of the CLI, as far as what a cell binds is concerned."""
    package = where / "node_modules" / "@anthropic-ai" / "claude-code"
    write(package / "package.json", json.dumps({"name": confine.CLI_PACKAGE, "version": "2.1.332"}))
    cli = write(package / "bin" / "claude.exe", "\x7fELF stand-in\n")
    cli.chmod(0o755)
    return cli


def planned(root: Path, spec: str) -> Arm:
    """The arm as the plan hands it to cells (the benchmark's own folders set apart)."""
    arm = parse_spec(f"a={spec}", root)
    (out,) = apart_from([arm], [root / "benchmarks" / "tasks", root / "fixtures", root / "runs"])
    return out


def bound_sources(cmd: list[str]) -> list[Path]:
    end = cmd.index("--")
    return [Path(cmd[i + 1]) for i in range(end) if cmd[i] in ("--ro-bind", "--bind")]


def holds(folder: Path, path: Path) -> bool:
    folder, path = Path(os.path.realpath(folder)), Path(os.path.realpath(path))
    return path == folder or folder in path.parents


@pytest.mark.parametrize("kind", sorted(SPECS))
def test_no_path_bound_into_a_cell_is_or_holds_the_project_home_or_a_run(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    if not confine.status().available:
        pytest.skip(f"confinement is not available here: {confine.status().reason}")
    (task,) = [t for t in load_tasks(repo / "benchmarks" / "tasks", repo / "fixtures") if t.id == TASK]
    # A live model name: nothing runs here, so nothing is sent; no offline server is needed.
    cell = Cell(task, planned(repo, SPECS[kind]), "sonnet", 0)
    run_dir = RunDir(repo / "runs" / "now")
    run_dir.path.mkdir()
    ctx = cellrun.CellContext(
        run_dir=run_dir,
        claude=str(fake_claude(tmp_path / "npm")),
        cell_timeout=60,
        max_turns=3,
        live=Upstream("http://127.0.0.1:9"),  # never asked: nothing runs
    )
    place = cellrun.Scratch(tmp_path / "cell")
    place.workspace.mkdir(parents=True)
    place.home.mkdir()
    launched = cellrun.launch(cell, place, run_dir.cell_dir(cell.id), ctx)
    ctx.routes.close(launched.route)
    started = launched.prepared
    assert started.prefix is not None
    started.prefix.close()
    sources = bound_sources(started.cmd)
    assert place.workspace in sources and place.home in sources
    secret = Path(os.environ["HOME"]) / ".claude" / ".credentials.json"
    for source in sources:
        for kept in (repo, repo / "runs", run_dir.path, Path(os.environ["HOME"]), secret, Path("/")):
            assert not holds(source, kept), (source, kept)
    # A plugin reaches the cell as a copy of what it is, bound read-only, never the repository.
    cmd = started.cmd
    plugin_dirs = [Path(cmd[i + 1]) for i, a in enumerate(cmd) if a == "--plugin-dir"]
    assert len(plugin_dirs) == cell.arm.kind.split("+").count("plugin")
    for plugin in plugin_dirs:
        assert (
            plugin in sources
            and ["--ro-bind", str(plugin), str(plugin)] == cmd[cmd.index(str(plugin)) - 1 :][:3]
        )
        assert (plugin / ".claude-plugin" / "plugin.json").is_file()
        for gone in (".git", "runs", ".venv", "benchmarks/tasks", "fixtures"):
            assert not (plugin / gone).exists(), gone
    if cell.arm.has("mcp"):
        config = json.loads(cmd[cmd.index("--mcp-config") + 1])
        server = config["mcpServers"]["notes"]
        (copy,) = [s for s in sources if (s / "server.py").is_file()]
        assert server["args"] == [str(copy / "server.py")] and not holds(repo, copy)
    # The arm's hash is still the original's.
    assert cell.arm.content_hash() == planned(repo, SPECS[kind]).content_hash()


def test_the_copy_of_a_plugin_repository_holds_what_its_hash_covers(repo: Path) -> None:
    arm = planned(repo, "plugin:.")
    (part,) = arm.parts
    files = [p.relative_to(repo).as_posix() for p in armparts.content_files(repo, part.apart)]
    assert ".claude-plugin/plugin.json" in files and "hooks/hooks.json" in files
    assert not [
        f for f in files if f.startswith((".git", "runs/", ".venv/", "benchmarks/tasks/", "fixtures/"))
    ]
    before = arm.content_hash()
    write(repo / "runs" / "later" / "results.jsonl", "{}\n")  # a run writing its records
    write(repo / ".hg" / "store" / "x", "history\n")
    assert planned(repo, "plugin:.").content_hash() == before


def test_a_plugin_over_the_copy_caps_is_refused_naming_it(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(armparts, "COPY_FILES_MAX", 5)
    for n in range(6):
        write(repo / "plugins" / "mine" / "data" / f"{n}.txt", "x\n")
    with pytest.raises(PonybenchError) as caught:
        planned(repo, "plugin:plugins/mine")
    message = str(caught.value)
    assert message.startswith("arm 'a': plugin ") and str(repo / "plugins" / "mine") in message
    assert "more than a cell's copy takes (5 files" in message


LINKED = {
    "claude-md": "claude-md:arms/linked.md",
    "claude-md@user": "claude-md:arms/linked.md@user",
    "output-style": "output-style:arms/linked.md",
    "prompt-file": "prompt-file:arms/linked.md",
    "settings": "settings:arms/linked.json",
    "mcp": "mcp:mcp/linked/mcp.json",
}


@pytest.mark.parametrize("kind", sorted(LINKED))
def test_an_arm_file_linked_out_of_its_folder_is_refused_naming_it(repo: Path, kind: str) -> None:
    secret = Path(os.environ["HOME"]) / ".claude" / ".credentials.json"
    spec = LINKED[kind]
    link = repo / spec.split(":", 1)[1].removesuffix("@user")
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(secret)
    with pytest.raises(PonybenchError) as caught:
        parse_spec(f"a={spec}", repo)
    message = str(caught.value)
    assert f"{link} is a link to {secret}, outside {link.parent}" in message, message


@pytest.mark.parametrize("spec", ["skills:arms/skills", "agents:arms/agents", "plugin:plugins/mine"])
def test_a_folder_holding_a_link_out_of_it_is_refused_naming_the_link(repo: Path, spec: str) -> None:
    secret = Path(os.environ["HOME"]) / ".claude" / ".credentials.json"
    folder = repo / spec.split(":", 1)[1]
    link = folder / ("name-things" if "skills" in spec else ".") / "notes.md"
    link.symlink_to(secret)
    with pytest.raises(PonybenchError) as caught:
        planned(repo, spec)
    message = str(caught.value)
    assert f"{os.path.normpath(link)} is a link to {secret}, outside {folder}" in message, message
    # A link that stays inside is copied as a link.
    link.unlink()
    link.symlink_to(folder / ("name-things/SKILL.md" if "skills" in spec else ".claude-plugin/plugin.json"))
    if "agents" not in spec:  # an agents folder's *.md are agents: a link there must be one too
        planned(repo, spec)


@pytest.mark.parametrize("where", ["home", "runs", "runs/earlier"])
def test_an_mcp_config_in_home_or_the_out_folder_is_refused(repo: Path, where: str) -> None:
    home = Path(os.environ["HOME"])
    folder = home if where == "home" else repo / where
    config = write(folder / "mcp.json", json.dumps({"mcpServers": {"n": {"command": "python3", "args": []}}}))
    with pytest.raises(PonybenchError) as caught:
        planned(repo, f"mcp:{config}")
    message = str(caught.value)
    assert str(config) in message and "the folder of an MCP config is copied into the cell" in message
    if where == "home":
        assert f"holds HOME ({home}: the user's credentials)" in message, message
    else:
        assert "the benchmark's own" in message and str(repo / "runs") in message, message


def test_an_mcp_config_in_a_folder_of_its_own_under_home_is_copied_alone(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    config = write(home / "mcp" / "mcp.json", json.dumps({"mcpServers": {"n": {"command": "python3"}}}))
    (part,) = planned(repo, f"mcp:{config}").parts
    assert armparts.content_files(config.parent) == [config]
    assert part.readable() == [config.parent]  # the original's folder: a cell binds its copy


def test_a_claude_wrapper_binds_itself_and_the_real_install_never_its_folder(
    repo: Path, tmp_path: Path
) -> None:
    real = fake_claude(tmp_path / "npm")
    tools = tmp_path / "wrapper-repo"
    write(tools / "package.json", json.dumps({"name": "my-tools"}))
    write(tools / "secret.txt", "WRAPPER-FOLDER-SECRET\n")
    wrapper = write(tools / "bin" / "claude", f'#!/bin/sh\nexec {real} "$@"\n')
    wrapper.chmod(0o755)
    assert confine.install_folder(str(wrapper)) is None
    readable = confine.claude_readable(str(wrapper), "/usr/bin:/bin")
    assert wrapper in readable and real.parents[1] in readable  # the CLI's npm package
    assert not [p for p in readable if holds(p, tools / "secret.txt")], readable
    # The real CLI found: its package folder, never a folder above it.
    assert confine.install_folder(str(real)) == real.parents[1]
    assert confine.exposure(readable, confine.protected()) is None


def test_a_readable_path_that_holds_the_project_home_or_root_is_refused(repo: Path) -> None:
    for path, what in (
        (repo.parent, "the project"),
        (Path(os.environ["HOME"]), "HOME"),
        (Path("/"), "the whole"),
    ):
        why = confine.exposure([path], confine.protected(repo / "runs"))
        assert why is not None and f"{path} would be readable in every cell, and it is or holds {what}" in why
    with pytest.raises(PonybenchError, match="is or holds HOME"):
        confine.agent_view(
            workspace=repo,
            home=repo,
            claude="/bin/sh",
            readable=[Path(os.environ["HOME"])],
            protected=confine.protected(),
        )


def test_a_claude_whose_install_would_bind_home_stops_the_run_before_any_cell(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = one_task_project(pytester.path, "merge_intervals")
    home = pytester.path / "home"
    write(home / ".claude" / ".credentials.json", SECRET)
    monkeypatch.setenv("HOME", str(home))
    # A script install whose interpreter lives in ~/bin: its install folder would be HOME itself.
    (root / "claude").write_text(f"#!{home}/bin/python3\nprint('2.1.332 (Claude Code)')\n")
    result = pytester.runpytest("benchmarks", "--claude", "./claude", "--models", "offline-reference")
    out = result.stdout.str() + result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, out
    assert (
        f"ponybench: --claude ./claude: {home} would be readable in every cell, and it is or holds HOME"
        in out
    )
    assert "Traceback" not in out and not (root / "runs").exists()
