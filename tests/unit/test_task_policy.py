"""Per-task agent policy in task.toml: allowed and disallowed tools, an appended system prompt,
env, cell_timeout and runs. Each key loads with the task, and a bad value is one problem naming
the folder, the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench.core.policy import AgentPolicy, env_name_problem, tool_problem
from pytest_ponybench.core.tasks import load_task
from tests.unit.test_tasks import GOOD_TOML, the_problem, write_task

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

