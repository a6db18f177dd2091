"""The arm activation check speaks the hook protocol the CLI speaks, on real-world plugin shapes.

tests/plugins/ holds plugins shaped like those of the official marketplace: a SessionStart hook
answering in JSON with additionalContext (explanatory-output-style), one answering
asynchronously with hooks on other events too (security-guidance), an agent only
(code-simplifier), a skill only (frontend-design), a command, hooks on PreToolUse only; and the
broken ones: a hook that prints nothing, one whose JSON gives the model nothing, one that fails
after printing. Each runs through the real CLI against the offline server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.roles import preflight
from tests.support import REPO

pytestmark = pytest.mark.needs_claude

PLUGINS = REPO / "tests" / "plugins"


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with OfflineServer() as srv:
        yield srv


def check(name: str, server: OfflineServer) -> dict[str, object]:
    arm = Arm(name, (Part("plugin", path=PLUGINS / name),))
    return preflight.activation_check(arm, "claude", server)


@pytest.mark.parametrize(
    ("plugin", "proof"),
    [
        ("json-context", "hook_context_reached"),
        ("async-hook", "async_hook"),
    ],
)
def test_hooks_that_answer_in_json_or_asynchronously_pass(
    plugin: str, proof: str, server: OfflineServer
) -> None:
    result = check(plugin, server)
    assert result["ok"], result
    evidence = result["evidence"]
    assert isinstance(evidence, dict) and evidence[proof] is True, evidence
    assert plugin in evidence["plugins"]


@pytest.mark.parametrize(
    ("plugin", "kind", "name"),
    [
        ("agent-only", "agents", "agent-only:code-simplifier"),
        ("skill-only", "skills", "skill-only:frontend-design"),
        ("command-only", "commands", "command-only:review-diff"),
    ],
)
def test_a_plugin_without_hooks_is_proven_registered(
    plugin: str, kind: str, name: str, server: OfflineServer
) -> None:
    result = check(plugin, server)
    assert result["ok"], result
    evidence = result["evidence"]
    assert isinstance(evidence, dict) and name in evidence["registered"][kind], evidence


def test_hooks_on_other_events_only_pass(server: OfflineServer) -> None:
    result = check("pretool-only", server)
    assert result["ok"], result
    assert result["evidence"]["hook_events"] == ["PreToolUse"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("plugin", "problem"),
    [
        ("silent-hook", "its SessionStart hook printed nothing the model could see"),
        (
            "swallowed-hook",
            'its SessionStart hook answered \'{"suppressOutput": true, "continue": true}\', which '
            "gives the model nothing (no additionalContext)",
        ),
        (
            "failing-hook",
            "its SessionStart hook output 'Follow the house style guide. PONYBENCH-LOST-7731' never "
            "reached the model",
        ),
    ],
)
def test_a_hook_whose_output_never_reaches_the_model_is_refused(
    plugin: str, problem: str, server: OfflineServer
) -> None:
    result = check(plugin, server)
    assert not result["ok"]
    assert result["problems"] == [problem]


def test_a_skill_the_cli_did_not_register_is_refused(tmp_path: Path, server: OfflineServer) -> None:
    # A SKILL.md without front matter: the CLI does not register it, and the check says so.
    plugin = tmp_path / "misplaced"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "misplaced", "version": "1.0.0"}')
    (plugin / "skills" / "review").mkdir(parents=True)
    (plugin / "skills" / "review" / "SKILL.md").write_text("no front matter, so no description\n")
    result = preflight.activation_check(Arm("m", (Part("plugin", path=plugin),)), "claude", server)
    registered = result["evidence"]["registered"]["skills"]
    if "misplaced:review" in registered:
        pytest.skip("this CLI registers a skill without front matter")
    assert result["problems"] == [
        "its skill 'misplaced:review' is not registered in the session (registered: none)"
    ]


def test_preflight_runs_json_and_async_plugins_through_the_plugin(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-n",
        "2",
        "--models",
        "offline-reference",
        "--preflight",
        "--arm",
        f"explain=plugin:{PLUGINS / 'json-context'}",
        "--arm",
        f"guard=plugin:{PLUGINS / 'async-hook'}",
    )
    result.assert_outcomes(passed=3)
    assert (root / "runs").is_dir()
