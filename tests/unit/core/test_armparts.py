"""Arm kinds and composed arms, without claude: each kind parsed from `--arm` and from the
table, what it adds to the session (flags, setting sources, files laid into the cell, paths the
confinement makes readable), its hash, its errors, and the proofs read from recorded init
events and request logs."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents import install
from pytest_ponybench.core import armproof
from pytest_ponybench.core.armparts import HOME, WORKSPACE, Part, front_matter, mcp_tool_prefix
from pytest_ponybench.core.arms import BASELINE, Arm, from_table, parse_spec, resolve
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.plan import previous
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.runinfo import RunInfo
from tests.support import REPO, claude_command, claude_env

ARMS = REPO / "tests" / "arms"
NOTES = REPO / "examples" / "notes-mcp"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project root holding copies of the test arms and the example MCP server."""
    root = tmp_path / "project"
    shutil.copytree(ARMS, root / "arms")
    shutil.copytree(NOTES, root / "mcp" / "notes")
    shutil.copytree(REPO / "tests" / "plugins" / "json-context", root / "plugins" / "json-context")
    return root


def arm(spec: str, root: Path) -> Arm:
    return parse_spec(spec, root)


def refused(spec: str, root: Path) -> str:
    with pytest.raises(PonybenchError) as info:
        parse_spec(spec, root)
    return str(info.value)


# --- each kind -----------------------------------------------------------------------------------


def test_an_mcp_arm_passes_its_servers_with_paths_from_the_configs_folder(project: Path) -> None:
    a = arm("notes=mcp:mcp/notes/mcp.json", project)
    assert a.kind == "mcp"
    flags = a.cli_args()
    assert flags[0] == "--mcp-config" and len(flags) == 2
    config = json.loads(flags[1])
    server = config["mcpServers"]["notes"]
    # The CLI starts the server in the workspace: its script is named by an absolute path.
    assert server == {"command": "python3", "args": [str(project / "mcp" / "notes" / "server.py")]}
    assert a.readable() == [project / "mcp" / "notes"]  # its folder, nothing else of the host
    assert a.placements() == [] and a.setting_sources == "project,local" and not a.reads_memory
    assert a.parts[0].names == ("notes",)


def test_a_claude_md_arm_goes_to_the_workspace_or_the_users_memory_and_turns_memory_on(project: Path) -> None:
    source = project / "arms" / "memory" / "CLAUDE.md"
    ws = arm("md=claude-md:arms/memory/CLAUDE.md", project)
    user = arm("md=claude-md:arms/memory/CLAUDE.md@user", project)
    explicit = arm("md=claude-md:arms/memory/CLAUDE.md@workspace", project)
    assert [(p.root, p.dest, p.source) for p in ws.placements()] == [(WORKSPACE, "CLAUDE.md", source)]
    assert [(p.root, p.dest) for p in user.placements()] == [(HOME, ".claude/CLAUDE.md")]
    assert ws.content_hash() == explicit.content_hash() != user.content_hash()
    # The user's memory is read only with the user setting source; the workspace's without it.
    assert (ws.setting_sources, user.setting_sources) == ("project,local", "user,project,local")
    assert ws.reads_memory and user.reads_memory and not BASELINE.reads_memory
    assert ws.cli_args() == [] and ws.readable() == []


def test_skills_agents_and_an_output_style_go_to_the_cells_own_claude_folder(project: Path) -> None:
    skills = arm("s=skills:arms/skills", project)
    one = arm("s=skills:arms/skills/tidy-imports", project)
    agents = arm("a=agents:arms/agents", project)
    style = arm("o=output-style:arms/output-styles/terse.md", project)
    assert skills.parts[0].names == ("name-things", "tidy-imports")  # listed by folder name
    assert [p.dest for p in skills.placements()] == [
        ".claude/skills/name-things",
        ".claude/skills/tidy-imports",
    ]
    assert one.parts[0].names == ("tidy-imports",)
    assert [p.dest for p in one.placements()] == [".claude/skills/tidy-imports"]
    assert agents.parts[0].names == ("strict-reviewer",)  # by its front matter's name
    assert [p.dest for p in agents.placements()] == [".claude/agents/strict-reviewer.md"]
    assert style.parts[0].names == ("Terse",)
    assert [p.dest for p in style.placements()] == [".claude/output-styles/terse.md"]
    # Selected through settings, by its front matter's name.
    assert style.cli_args() == ["--settings", '{"outputStyle": "Terse"}']
    for a in (skills, agents, style):
        assert a.setting_sources == "user,project,local" and a.readable() == [] and not a.reads_memory
        assert {p.root for p in a.placements()} == {HOME}


def test_a_style_without_a_name_is_selected_by_its_file_name(project: Path) -> None:
    (project / "plain.md").write_text("Answer plainly.\n")
    assert arm("o=output-style:plain.md", project).settings == '{"outputStyle": "plain"}'


def test_the_old_kinds_keep_their_flags_and_hashes(project: Path) -> None:
    told = arm("told=prompt:Be brief.", project)
    conf = arm('conf=settings:{"model": "x"}', project)
    plug = arm("p=plugin:plugins/json-context", project)
    # The hashes arms had before parts existed: earlier run dirs still resume.
    assert told.content_hash() == hashlib.sha256(b"prompt\0Be brief.").hexdigest()[:16]
    assert conf.content_hash() == hashlib.sha256(b'settings\0{"model": "x"}').hexdigest()[:16]
    assert BASELINE.content_hash() == hashlib.sha256(b"baseline\0").hexdigest()[:16]
    assert told.prompt == "Be brief." and told.cli_args() == []
    assert conf.cli_args() == ["--settings", '{"model": "x"}']
    assert plug.cli_args() == ["--plugin-dir", str(project / "plugins" / "json-context")]
    assert plug.readable() == [project / "plugins" / "json-context"]


# --- composition ---------------------------------------------------------------------------------


def test_parts_compose_with_plus_and_apply_together(project: Path) -> None:
    a = arm(
        'all=plugin:plugins/json-context+prompt:Use a+b, never c.+settings:{"model": "x"}'
        "+output-style:arms/output-styles/terse.md+skills:arms/skills+mcp:mcp/notes/mcp.json",
        project,
    )
    assert a.kind == "plugin+prompt+settings+output-style+skills+mcp"
    assert a.prompt == "Use a+b, never c."  # a `+` not followed by KIND: belongs to the value
    flags = a.cli_args()
    assert flags[:2] == ["--plugin-dir", str(project / "plugins" / "json-context")]
    assert json.loads(flags[flags.index("--settings") + 1]) == {"model": "x", "outputStyle": "Terse"}
    assert "notes" in json.loads(flags[flags.index("--mcp-config") + 1])["mcpServers"]
    assert set(a.readable()) == {project / "plugins" / "json-context", project / "mcp" / "notes"}
    assert a.setting_sources == "user,project,local"
    # The hash covers every part: changing any one changes it.
    before = a.content_hash()
    (project / "arms" / "skills" / "tidy-imports" / "SKILL.md").write_text(
        "---\ndescription: changed\n---\nbody\n"
    )
    assert a.content_hash() != before
    assert before not in {p.content_hash() for p in a.parts}


def test_a_composed_arm_in_the_table_is_a_table_of_parts(project: Path) -> None:
    (project / "second").mkdir()
    shutil.copy(project / "mcp" / "notes" / "server.py", project / "second" / "server.py")
    (project / "second" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"more": {"command": "python3", "args": ["server.py"]}}})
    )
    table: dict[str, Any] = {
        "both": {
            "plugin": "plugins/json-context",
            "settings": {"model": "x"},
            "claude_md": "arms/memory/CLAUDE.md",
        },
        "two_mcp": {"mcp": ["mcp/notes/mcp.json", "second/mcp.json"]},
    }
    both, two = from_table(table, project, "pyproject.toml")
    spec = arm(
        'both=plugin:plugins/json-context+settings:{"model": "x"}+claude-md:arms/memory/CLAUDE.md', project
    )
    assert both.content_hash() == spec.content_hash() and both.kind == "plugin+settings+claude-md"
    assert set(json.loads(two.mcp_config or "{}")["mcpServers"]) == {"notes", "more"}
    assert two.readable() == [project / "mcp" / "notes", project / "second"]


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("x=prompt:a+prompt:b", "'x' (--arm): gives prompt more than once; only plugin and mcp may repeat"),
        ("x=prompt:a+prompt-file:arms/memory/CLAUDE.md", "gives prompt more than once"),
        (
            "x=mcp:mcp/notes/mcp.json+mcp:mcp/notes/mcp.json",
            "MCP server name(s) notes in more than one config",
        ),
        (
            'x=output-style:arms/output-styles/terse.md+settings:{"outputStyle": "Explanatory"}',
            "selects an output style twice",
        ),
        ("x=magic:y+plugin:plugins/json-context", "unknown kind 'magic'"),
        # A `+` that starts no known part belongs to the value: here, folders that do not exist.
        ("x=plugin:plugins/json-context+magic:y", "plugin dir */json-context+magic:y does not exist"),
        ("x=plugin:plugins/json-context+", "plugin dir */json-context+ does not exist"),
    ],
)
def test_a_composition_that_cannot_be_applied_is_refused(project: Path, spec: str, said: str) -> None:
    message = refused(spec, project)
    head, _, rest = said.partition("*")
    assert head in message and rest in message, message


def test_two_plugins_compose(project: Path) -> None:
    shutil.copytree(project / "plugins" / "json-context", project / "plugins" / "other")
    a = arm("x=plugin:plugins/json-context+plugin:plugins/other", project)
    assert a.cli_args().count("--plugin-dir") == 2 and a.plugin_dir == project / "plugins" / "json-context"


@pytest.mark.parametrize(
    ("table", "said"),
    [
        (
            {"x": {"prompt": ["a", "b"]}},
            "key 'prompt': a list is for a kind given more than once (plugin, mcp)",
        ),
        ({"x": {"mcp": []}}, "key 'mcp': the list is empty"),
        (
            {"x": {"colour": "red"}},
            "unknown key(s) colour (known: plugin, prompt, prompt_file, settings, mcp",
        ),
        ({"x": {"prompt": "a", "prompt_file": "arms/memory/CLAUDE.md"}}, "gives prompt more than once"),
        ({"x": "plugin"}, "must be a table"),
    ],
)
def test_a_bad_arm_table_names_the_arm_and_key(project: Path, table: dict[str, Any], said: str) -> None:
    with pytest.raises(PonybenchError) as info:
        from_table(table, project, "pyproject.toml [tool.ponybench.arms]")
    assert str(info.value).startswith("arm 'x' (pyproject.toml [tool.ponybench.arms]): ")
    assert said in str(info.value)


# --- each kind's errors --------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("files", "spec", "said"),
    [
        ({}, "m=mcp:nope.json", "MCP config * does not exist"),
        ({"m/c.json": "{nope"}, "m=mcp:m/c.json", "c.json is not valid JSON"),
        (
            {"m/c.json": '{"servers": {}}'},
            "m=mcp:m/c.json",
            'no "mcpServers" object naming at least one server',
        ),
        (
            {"m/c.json": '{"mcpServers": {"a": {}}}'},
            "m=mcp:m/c.json",
            "mcpServers.a.command must be a program",
        ),
        (
            {"m/c.json": '{"mcpServers": {"a": {"command": "./gone.sh"}}}'},
            "m=mcp:m/c.json",
            "mcpServers.a.command './gone.sh' does not exist",
        ),
        (
            {"m/c.json": '{"mcpServers": {"a": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}'},
            "a=mcp:m/c.json",
            "mcpServers.a.type is 'http'; an mcp arm runs stdio servers only",
        ),
        (
            {"m/c.json": '{"mcpServers": {"a": {"command": "x", "args": "y"}}}'},
            "m=mcp:m/c.json",
            "mcpServers.a.args must be a list of strings",
        ),
        (
            {"m/c.json": '{"mcpServers": {"a": {"type": "ws", "url": "x"}}}'},
            "m=mcp:m/c.json",
            "mcpServers.a.type is 'ws'; an mcp arm runs stdio servers only",
        ),
        (
            {"c.json": '{"mcpServers": {"a": {"command": "x"}}}'},
            "m=mcp:c.json",
            "holds the project (its tasks and checks); put the config and its server in a folder",
        ),
        ({}, "c=claude-md:NOPE.md", "CLAUDE.md * does not exist"),
        ({"CLAUDE.md": "  \n"}, "c=claude-md:CLAUDE.md", "CLAUDE.md is empty"),
        ({"CLAUDE.md": "x"}, "c=claude-md:CLAUDE.md@home", "place it @workspace or @user, not @home"),
        ({}, "s=skills:none", "skills folder * does not exist or is not a folder"),
        ({"sk/readme.txt": "x"}, "s=skills:sk", "holds no <name>/SKILL.md"),
        ({"sk/a/SKILL.md": "no front matter\n"}, "s=skills:sk", "has no description in its front matter"),
        ({"ag/x.txt": "x"}, "a=agents:ag", "holds no *.md subagent definition"),
        (
            {"ag/x.md": "---\nname: x\n---\nbody\n"},
            "a=agents:ag",
            "x.md: its front matter has no description",
        ),
        (
            {"ag/x.md": "---\ndescription: d\n---\n"},
            "a=agents:ag",
            "has no name: the CLI does not list such an agent",
        ),
        (
            {
                "ag/x.md": "---\nname: r\ndescription: d\n---\n",
                "ag/y.md": "---\nname: r\ndescription: e\n---\n",
            },
            "a=agents:ag",
            "agent name 'r' is given twice",
        ),
        ({"s.txt": "Answer."}, "o=output-style:s.txt", "must be a .md file"),
        (
            {"s.md": "---\nname: S\n---\n\n"},
            "o=output-style:s.md",
            "has no instructions after its front matter",
        ),
        ({}, "o=output-style", "expected NAME=KIND:VALUE"),
        ({}, "o=skills:", "skills needs a path"),
    ],
)
def test_a_bad_part_is_one_error_naming_the_arm(
    tmp_path: Path, files: dict[str, str], spec: str, said: str
) -> None:
    for rel, text in files.items():
        write(tmp_path / rel, text)
    message = refused(spec, tmp_path)
    head, _, rest = said.partition("*")
    assert head in message and rest in message, message
    assert message.startswith(f"arm '{spec[0]}' (--arm): ") or message.startswith("--arm ")


def test_front_matter_is_read_as_the_cli_reads_it() -> None:
    assert front_matter("---\nname: 'Terse'\ndescription: short: very\n---\nbody") == {
        "name": "Terse",
        "description": "short: very",
    }
    assert front_matter("no front matter") is None
    assert front_matter("---\nname: never closed\n") is None
    assert (
        mcp_tool_prefix("dot.notes") == "mcp__dot_notes__"
        and mcp_tool_prefix("my-notes") == "mcp__my-notes__"
    )


# --- laid into the cell --------------------------------------------------------------------------


def test_the_arms_files_are_copied_into_the_cell(project: Path, tmp_path: Path) -> None:
    a = arm(
        "x=claude-md:arms/memory/CLAUDE.md+skills:arms/skills+agents:arms/agents"
        "+output-style:arms/output-styles/terse.md",
        project,
    )
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    laid = install.lay_arm(a, ws, home)
    text = (project / "arms" / "memory" / "CLAUDE.md").read_bytes()
    assert laid == {"CLAUDE.md": hashlib.sha256(text).hexdigest()}  # joins the seeded base
    assert (ws / "CLAUDE.md").read_bytes() == text and not (ws / "CLAUDE.md").is_symlink()
    found = sorted(p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file())
    assert found == [
        ".claude/agents/strict-reviewer.md",
        ".claude/output-styles/terse.md",
        ".claude/skills/name-things/SKILL.md",
        ".claude/skills/tidy-imports/SKILL.md",
    ]
    with pytest.raises(RuntimeError, match="the workspace already holds CLAUDE.md"):
        install.lay_arm(a, ws, tmp_path / "home2")


# --- the command and the environment --------------------------------------------------------------


def test_the_command_carries_the_arms_sources_and_flags(project: Path) -> None:
    a = arm("x=skills:arms/skills+mcp:mcp/notes/mcp.json", project)
    cmd = claude_command("do it", "offline-idle", a, 5)
    assert cmd[cmd.index("--setting-sources") + 1] == "user,project,local"
    assert "--strict-mcp-config" in cmd and cmd[cmd.index("--mcp-config") + 1] == a.mcp_config
    base = claude_command("do it", "offline-idle", BASELINE, 5)
    assert base[base.index("--setting-sources") + 1] == "project,local" and "--mcp-config" not in base


def test_only_a_claude_md_arm_turns_memory_on(tmp_path: Path) -> None:
    plain = claude_env(tmp_path / "h1", base_url=None, offline=True, api_timeout_ms=1000, base={})
    memory = claude_env(
        tmp_path / "h2", base_url=None, offline=True, api_timeout_ms=1000, base={}, memory=True
    )
    assert plain["CLAUDE_CODE_DISABLE_CLAUDE_MDS"] == "1"
    assert "CLAUDE_CODE_DISABLE_CLAUDE_MDS" not in memory  # empty would not do: the CLI reads it as on
    assert memory["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] == "1"


# --- a resume rebuilds the arms from run.json --------------------------------------------------------


def test_every_kind_is_rebuilt_from_run_json_with_its_hash(project: Path, tmp_path: Path) -> None:
    arms = resolve(
        {"tbl": {"plugin": "plugins/json-context", "settings": {"model": "x"}}},
        [
            "md=claude-md:arms/memory/CLAUDE.md@user",
            "all=skills:arms/skills+agents:arms/agents+output-style:arms/output-styles/terse.md+mcp:mcp/notes/mcp.json",
            "told=prompt:Be brief.",
        ],
        [],
        project,
        "pyproject.toml",
    )
    info = RunInfo.from_json({"arms": [a.describe() for a in arms]})
    again = previous.arms_of(
        RunInfo.from_json(json.loads(json.dumps(info.to_json()))), "--resume", RunDir(tmp_path)
    )
    assert [(a.name, a.content_hash(), a.kind) for a in again] == [
        (a.name, a.content_hash(), a.kind) for a in arms
    ]
    # An arm that changed since is refused, naming it.
    (project / "arms" / "agents" / "strict-reviewer.md").write_text(
        "---\nname: strict-reviewer\ndescription: changed\n---\n"
    )
    with pytest.raises(PonybenchError, match="arm 'all' changed since that run"):
        previous.arms_of(info, "--resume", RunDir(tmp_path))


def test_a_run_json_from_before_parts_still_resumes(project: Path, tmp_path: Path) -> None:
    old = {
        "arms": [
            {"name": "baseline", "kind": "baseline", "hash": BASELINE.content_hash()},
            {
                "name": "told",
                "kind": "prompt",
                "prompt": "Be brief.",
                "hash": arm("t=prompt:Be brief.", project).content_hash(),
            },
        ]
    }
    again = previous.arms_of(RunInfo.from_json(old), "--resume", RunDir(tmp_path))
    assert [a.kind for a in again] == ["baseline", "prompt"] and again[1].prompt == "Be brief."


# --- the proofs, on recorded init events and request logs -----------------------------------------


INIT = {
    "type": "system",
    "subtype": "init",
    "tools": ["Read", "Write", "mcp__notes__lookup", "mcp__notes__read_file"],
    "mcp_servers": [{"name": "notes", "status": "connected"}, {"name": "down", "status": "failed"}],
    "skills": ["tidy-imports", "debug"],
    "agents": ["claude", "strict-reviewer"],
}


def test_an_mcp_part_is_proven_by_its_connected_server_and_its_tools() -> None:
    ok, evidence = armproof.init_proof(Part("mcp", names=("notes",)), INIT)
    assert ok == [] and evidence["mcp_tools"] == {"notes": ["mcp__notes__lookup", "mcp__notes__read_file"]}
    down, _ = armproof.init_proof(Part("mcp", names=("down", "ghost")), INIT)
    assert down[0].startswith("its MCP server 'down' did not connect (status failed)")
    assert down[1].startswith("its MCP server 'ghost' did not connect (status not listed)")
    silent = {**INIT, "tools": ["Read"]}
    assert armproof.init_proof(Part("mcp", names=("notes",)), silent)[0] == [
        "its MCP server 'notes' connected but the session lists no tool mcp__notes__*"
    ]
    a = Arm("x", (Part("mcp", names=("notes",)), Part("mcp", names=("down",))))
    assert armproof.connection_problems(a, INIT) == ["its MCP server 'down' did not connect (status failed)"]


def test_skills_and_agents_are_proven_by_the_init_events_lists() -> None:
    assert armproof.init_proof(Part("skills", names=("tidy-imports",)), INIT) == (
        [],
        {"skills_listed": ["tidy-imports"]},
    )
    assert armproof.init_proof(Part("skills", names=("name-things",)), INIT)[0] == [
        "its skill 'name-things' is not listed in the session's skills"
    ]
    assert armproof.init_proof(Part("agents", names=("strict-reviewer", "ghost")), INIT)[0] == [
        "its agent 'ghost' is not listed in the session's agents"
    ]


def test_text_parts_are_proven_by_the_logged_request(tmp_path: Path) -> None:
    md = write(tmp_path / "CLAUDE.md", 'Rules: "quoted"\tand tabs.\nPONYBENCH-MD\n')
    style = write(tmp_path / "s.md", "---\nname: S\n---\nAnswer tersely. PONYBENCH-STYLE\n")
    log = json.dumps(
        {"body": {"system": [{"text": md.read_text()}, {"text": "Answer tersely. PONYBENCH-STYLE"}]}}
    )
    assert armproof.request_proof(Part("claude-md", path=md, scope="user"), log) == (
        [],
        {"claude_md_in_request": True},
    )
    assert armproof.request_proof(Part("output-style", path=style, names=("S",)), log)[0] == []
    missing, evidence = armproof.request_proof(Part("claude-md", path=md, scope="workspace"), "{}")
    assert missing == ["its CLAUDE.md never reached the model (placed @workspace)"]
    assert evidence == {"claude_md_in_request": False}
    assert armproof.request_proof(Part("output-style", path=style, names=("S",)), "{}")[0] == [
        "its output style 'S' never reached the model's system prompt"
    ]
    assert armproof.request_proof(Part("prompt", text="Be brief."), "Be brief.")[0] == []
