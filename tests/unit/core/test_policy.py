"""Per-task agent policy in task.toml: allowed and disallowed tools, an appended system prompt,
env, cell_timeout and runs. Each key loads with the task, and a bad value is one problem naming
the folder, the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.agents.claude import NO_RUN
from pytest_ponybench.core.arms import BASELINE, parse_spec
from pytest_ponybench.core.cell import Cell, grid
from pytest_ponybench.core.policy import AgentPolicy, env_name_problem, tool_problem
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.tasks import load_task
from pytest_ponybench.htmlreport.details import cell_detail, policy_items
from pytest_ponybench.session.run import applied_policy
from tests.support import GATEWAY_TOKEN, claude_command, claude_env
from tests.unit._support.tasks import GOOD_TOML, the_problem, write_task

POLICY = '''\
allowed_tools = ["Read", "Edit", "Write", "Glob"]
disallowed_tools = ["WebFetch", "mcp__notes__search", "Read(./secrets/**)", "Edit(*.md)"]
append_system_prompt = """Prefer the standard library.
Keep functions short."""
cell_timeout = 90
runs = 5

[env]
APP_MODE = "test"
LOG_LEVEL = "debug"
'''


def test_every_policy_key_loads_with_the_task(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "t", GOOD_TOML + POLICY))
    assert task.policy == AgentPolicy(
        allowed_tools=("Read", "Edit", "Write", "Glob"),
        disallowed_tools=("WebFetch", "mcp__notes__search", "Read(./secrets/**)", "Edit(*.md)"),
        append_system_prompt="Prefer the standard library.\nKeep functions short.",
        env={"APP_MODE": "test", "LOG_LEVEL": "debug"},
        cell_timeout=90.0,
        runs=5,
    )
    assert task.max_turns == 4  # beside the policy, as before
    assert task.policy.describe()["env"] == {"APP_MODE": "test", "LOG_LEVEL": "debug"}


def test_a_task_without_policy_has_an_empty_one_and_its_hash_moves_with_a_policy(tmp_path: Path) -> None:
    plain = load_task(write_task(tmp_path / "a"))
    assert plain.policy.empty and plain.policy.describe() == {}
    same = load_task(write_task(tmp_path / "b"))
    with_policy = load_task(write_task(tmp_path / "c", GOOD_TOML + "runs = 5\n"))
    other_policy = load_task(write_task(tmp_path / "d", GOOD_TOML + "runs = 6\n"))
    assert plain.content_hash() == same.content_hash()
    assert len({plain.content_hash(), with_policy.content_hash(), other_policy.content_hash()}) == 3


@pytest.mark.parametrize(
    ("line", "key", "words"),
    [
        ("allowed_tools = []", "allowed_tools", ["non-empty list"]),
        ('allowed_tools = "Read"', "allowed_tools", ["non-empty list"]),
        ('allowed_tools = ["Read", "rm -rf /"]', "allowed_tools", ["'rm -rf /' is not a tool name"]),
        ('disallowed_tools = ["Web Fetch"]', "disallowed_tools", ["not a tool name"]),
        # What the CLI cannot enforce under the harness's bypassPermissions is refused, not ignored.
        ('allowed_tools = ["Read", "Bash(git diff:*)"]', "allowed_tools", ["is a rule", "restricts nothing"]),
        ('allowed_tools = ["Read", "mcp__notes__search"]', "allowed_tools", ["MCP tool", "disallowed_tools"]),
        ('allowed_tools = ["Read", "Bash"]', "allowed_tools", ["'Bash' is refused to every session"]),
        ('allowed_tools = ["Read", "Read"]', "allowed_tools", ["Read given more than once"]),
        ('disallowed_tools = ["Write(*.md)"]', "disallowed_tools", ["never matches", "Edit(...)"]),
        (
            'allowed_tools = ["Read", "Glob"]\ndisallowed_tools = ["Glob"]',
            "allowed_tools",
            ["'disallowed_tools' refuses too: Glob"],
        ),
        ('append_system_prompt = "  "', "append_system_prompt", ["non-empty text"]),
        ("append_system_prompt = 3", "append_system_prompt", ["non-empty text"]),
        ("cell_timeout = 0", "cell_timeout", ["positive number of seconds"]),
        ("cell_timeout = -5.0", "cell_timeout", ["positive number"]),
        ("cell_timeout = inf", "cell_timeout", ["positive number"]),
        ("cell_timeout = true", "cell_timeout", ["positive number"]),
        ("runs = 0", "runs", ["whole number >= 1"]),
        ("runs = 2.5", "runs", ["whole number >= 1"]),
        ('env = "A=1"', "env", ["table of variable"]),
        ("env = { MODE = 1 }", "env", ["'MODE' must be a string"]),
        ('env = { "1ST" = "x" }', "env", ["not a variable name"]),
        ('env = { "MODE\\n" = "x" }', "env", ["not a variable name"]),  # $ matches before a final newline
        ('env = { ANTHROPIC_BASE_URL = "http://x" }', "env", ["CLAUDE* and ANTHROPIC*"]),
        ('env = { CLAUDE_CODE_MAX_RETRIES = "9" }', "env", ["CLAUDE* and ANTHROPIC*"]),
        ('env = { GITHUB_TOKEN = "x" }', "env", ["looks like a credential"]),
        ('env = { AWS_SECRET_ACCESS_KEY = "x" }', "env", ["looks like a credential"]),
        ('env = { OPENAI_API_KEY = "x" }', "env", ["looks like a credential"]),
        ('env = { HOME = "/root" }', "env", ["set by the harness"]),
        ('env = { LD_PRELOAD = "x.so" }', "env", ["set by the harness"]),
        ('env = { API_TIMEOUT_MS = "1" }', "env", ["set by the harness"]),
        ('env = { HTTPS_PROXY = "http://proxy" }', "env", ["set by the harness"]),
    ],
)
def test_a_bad_policy_value_names_the_key(tmp_path: Path, line: str, key: str, words: list[str]) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML + line + "\n")
    the_problem(folder, "task.toml", f"key '{key}'", *words)


def test_every_bad_policy_key_of_a_folder_is_listed(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", GOOD_TOML + 'runs = 0\ncell_timeout = "soon"\nenv = { HOME = "x" }\n')
    for key in ("runs", "cell_timeout", "env"):
        the_problem(folder, "task.toml", f"key '{key}'")


@pytest.mark.parametrize("name", ["KEYBOARD_LAYOUT", "APP_MODE", "PYTHONHASHSEED", "TZ_NAME", "AUTHOR"])
def test_ordinary_names_are_not_mistaken_for_credentials(name: str) -> None:
    assert env_name_problem(name) is None


@pytest.mark.parametrize("spec", ["Read", "Bash(npm run test:*)", "mcp__github__get_issue", "Edit(src/**)"])
def test_tools_as_the_cli_takes_them(spec: str) -> None:
    assert tool_problem(spec) is None


# --- applied: the command, the environment, the limits, the grid ---------------------------------


def flag_values(cmd: list[str], flag: str) -> list[str]:
    """The arguments after flag up to the next option."""
    start = cmd.index(flag) + 1
    end = next((i for i in range(start, len(cmd)) if cmd[i].startswith("--")), len(cmd))
    return cmd[start:end]


def test_the_command_applies_the_tools_and_the_appended_prompt(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "t", GOOD_TOML + POLICY))
    told = parse_spec("told=prompt:Be brief.", tmp_path)
    cmd = claude_command(task.prompt, "offline-reference", told, 4, policy=task.policy)
    # Bash stays refused; the task's refusals follow, one argument each (a rule may hold a space).
    assert flag_values(cmd, "--disallowedTools") == [
        "Bash",
        "WebFetch",
        "mcp__notes__search",
        "Read(./secrets/**)",
        "Edit(*.md)",
    ]
    # The whitelist goes to --tools: --allowedTools restricts nothing under bypassPermissions.
    assert flag_values(cmd, "--tools") == ["Read,Edit,Write,Glob"] and "--allowedTools" not in cmd
    # The arm's prompt, then the task's, then the instruction every arm gets, last.
    appended = cmd[cmd.index("--append-system-prompt") + 1]
    assert appended == f"Be brief.\n\nPrefer the standard library.\nKeep functions short.\n\n{NO_RUN}"
    assert cmd[cmd.index("--permission-mode") + 1] == "bypassPermissions"


def test_a_task_without_policy_gets_the_command_it_always_got() -> None:
    cmd = claude_command("p", "m", BASELINE, 3)
    assert flag_values(cmd, "--disallowedTools") == ["Bash"] and "--tools" not in cmd
    assert cmd[cmd.index("--append-system-prompt") + 1] == NO_RUN
    assert claude_command("p", "m", BASELINE, 3, policy=AgentPolicy()) == cmd


def test_the_tasks_env_reaches_the_session_and_the_harness_keeps_its_own(tmp_path: Path) -> None:
    outside = {"PATH": "/usr/bin", "APP_MODE": "from-the-shell", "GITHUB_TOKEN": "secret"}
    env = claude_env(
        tmp_path / "home",
        base_url="http://127.0.0.1:9/cell/x",
        offline=True,
        api_timeout_ms=1000,
        base=outside,
        task_env={"APP_MODE": "test", "LOG_LEVEL": "debug"},
    )
    assert (env["APP_MODE"], env["LOG_LEVEL"]) == ("test", "debug")
    assert "GITHUB_TOKEN" not in env  # the allowlist still decides what of the shell comes in
    assert env["HOME"] == str(tmp_path / "home") and env["ANTHROPIC_API_KEY"] == GATEWAY_TOKEN
    # Even a name the task check would refuse cannot displace what the harness sets.
    forced = claude_env(
        tmp_path / "h2", base_url=None, offline=True, api_timeout_ms=1000, base={}, task_env={"HOME": "/root"}
    )
    assert forced["HOME"] == str(tmp_path / "h2")


def test_the_tasks_limits_and_the_record_of_what_was_applied(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "t", GOOD_TOML + POLICY))
    plain = load_task(write_task(tmp_path / "p", GOOD_TOML.replace("max_turns = 4\n", "")))
    cell, other = Cell(task, BASELINE, "m", 0), Cell(plain, BASELINE, "m", 0)
    assert (cell.timeout_s(300.0), cell.max_turns(30)) == (90.0, 4)
    assert (other.timeout_s(300.0), other.max_turns(30)) == (300.0, 30)
    applied = applied_policy(cell)
    assert applied == {**task.policy.describe(), "max_turns": 4}
    assert applied_policy(other) == {}
    rec = {"cell_id": "x", "task": "t", "valid": True, "agent_policy": applied}
    assert policy_items(rec) == [[k, v] for k, v in applied.items()]  # type: ignore[arg-type]
    detail = cell_detail(rec, None, {}, None, tmp_path)  # type: ignore[arg-type]
    assert detail["policy"][0] == ["allowed_tools", ["Read", "Edit", "Write", "Glob"]]


def test_runs_of_a_task_unless_runs_is_given_on_the_command_line(tmp_path: Path) -> None:
    five = load_task(write_task(tmp_path / "five", GOOD_TOML + "runs = 5\n"))
    plain = load_task(write_task(tmp_path / "plain"))
    declared = {t.id: t.policy.runs for t in (five, plain)}
    own = Runs.of_tasks(declared, 2, given=False)
    assert {t: own.of(t) for t in declared} == {"five": 5, "plain": 2} and own.own == {"five": 5}
    given = Runs.of_tasks(declared, 3, given=True)
    assert {t: given.of(t) for t in declared} == {"five": 3, "plain": 3} and given.own == {}
    cells = grid([five, plain], [BASELINE], ["m"], own)
    assert [c.id for c in cells] == [
        "five-baseline-m-r0",
        "plain-baseline-m-r0",
        "five-baseline-m-r1",
        "plain-baseline-m-r1",
        "five-baseline-m-r2",
        "five-baseline-m-r3",
        "five-baseline-m-r4",
    ]


def test_a_task_may_open_the_network_and_says_so(tmp_path: Path) -> None:
    opened = load_task(write_task(tmp_path / "o", GOOD_TOML + 'network = "open"\n'))
    assert opened.policy.open_network and opened.policy.describe()["network"] == "open"
    plain = load_task(write_task(tmp_path / "p", GOOD_TOML))
    assert not plain.policy.open_network and "network" not in plain.policy.describe()
    assert opened.content_hash() != plain.content_hash()
    bad = write_task(tmp_path / "bad", GOOD_TOML + 'network = "everywhere"\n')
    problem = the_problem(bad, "task.toml", "key 'network'")
    assert "must be one of 'gateway', 'open', not 'everywhere'" in problem
