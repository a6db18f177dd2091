"""What every agent CLI's session shares, whichever adapter starts it.

The instruction appended for every arm alike (the benchmark measures the code written, not its
execution), the allowlist of the harness's environment a session may see, and the text an
adapter appends to its CLI's system prompt: the arm's prompt, the task's `append_system_prompt`
and that instruction, in this order.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy

__all__ = [
    "DROP_ENV",
    "ENV_ALLOW",
    "ENV_ALLOW_PREFIX",
    "NO_RUN",
    "allowed_env",
    "appended",
    "base_env",
]

# Appended to every arm's system prompt, identically: the benchmark measures the code written,
# not its execution, and an agent that starts servers or installs packages measures flailing.
NO_RUN = (
    "Write the implementation (and tests if you normally would for a change like this). "
    "Do not run servers, install dependencies or open a browser to verify: write the code "
    "and stop. Only the files you write are measured."
)

# The environment of a session is an allowlist: what the CLI needs, never the harness's whole
# environment (AWS_*, GITHUB_TOKEN and the like would be readable by the agent). A denylist
# always misses the next credential name.
# No proxy and no CA bundle: the gateway is a session's only way out (and it uses the
# harness's proxy itself).
ENV_ALLOW = frozenset(
    {
        "PATH",
        "LANG",
        "LANGUAGE",
        "TERM",
        "TZ",
        "API_TIMEOUT_MS",
        # this project's tests find every process a cell started by this tag; it carries nothing
        "PONYBENCH_TEST_TAG",
    }
)
ENV_ALLOW_PREFIX = ("LC_",)
# Never, even from an allowed family: a parent Claude Code session's markers. (No ANTHROPIC_*,
# CLAUDE_CODE_*, OPENCODE_* or COPILOT_* variable of the harness reaches a session at all: the
# gateway holds the credential and every setting that would change the CLI between cells stays
# out.)
DROP_ENV = re.compile(r"^(CLAUDECODE|CLAUDE_CODE_ENTRYPOINT|CLAUDE_CODE_SSE_PORT|CLAUDE_CONFIG_DIR)$")


def allowed_env(name: str) -> bool:
    """Whether a variable of the harness's environment may reach an agent's session."""
    return not DROP_ENV.match(name) and (name in ENV_ALLOW or name.startswith(ENV_ALLOW_PREFIX))


def base_env(base: Mapping[str, str] | None, task_env: Mapping[str, str]) -> dict[str, str]:
    """The allowlisted part of base (the harness's environment by default) and the task's own
    variables (names checked by core.policy); the adapter adds its own over them."""
    src = dict(os.environ if base is None else base)
    env = {k: v for k, v in src.items() if allowed_env(k)}
    env.update(task_env)
    return env


def appended(arm: Arm, policy: AgentPolicy) -> str:
    """What every session gets after its CLI's own system prompt: the arm's prompt, the task's
    appended prompt, then NO_RUN."""
    texts = [t.rstrip() for t in (arm.prompt, policy.append_system_prompt) if t]
    return "\n\n".join([*texts, NO_RUN])
