"""Infrastructure weather shared by every xdist worker: one backoff, one circuit breaker.

At scale the API's bad days dominate. A worker that meets a 429 or 529 must not be the only
one to wait: the backoff lives in `weather.json` under the run dir, behind a file lock, and every
worker waits it out before starting a cell. The wait honours the server's retry-after where the
CLI reports it (its `system/api_retry` events carry the delay it computed from the header), else
it grows exponentially with the streak.

The breaker stops the run after a streak of invalid cells of one kind (an unreachable API, a
refused key, an overloaded API that stays overloaded): then no further cell starts, and the run
ends with the resume command instead of spending an hour learning the same thing per cell. Only
sequential evidence counts: a cell that was already running when the last failure of its kind
was recorded does not lengthen the streak, so sixteen workers failing at once count as one.

The pre-flight half (`check_api`) asks the API, without spending, whether it is reachable and
takes the credentials: POST /v1/messages/count_tokens is free.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench.core.records import ErrorKind, Record, error_kind, is_valid, number
from pytest_ponybench.store.results import locked, write_json

__all__ = [
    "ANTHROPIC_API",
    "ApiCheck",
    "BACKOFF_KINDS",
    "CREDENTIALS",
    "DEFAULT_BREAKER",
    "MAX_LOG",
    "NO_START",
    "OAUTH_BETA",
    "OFFLINE_POLICY",
    "OTHER",
    "OVERLOADED",
    "Policy",
    "RATE_LIMITED",
    "SERVER_ERROR",
    "STOPPED",
    "UNREACHABLE",
    "WEATHER",
    "Weather",
    "check_api",
    "credentials",
    "kind_of",
]

WEATHER = "weather.json"
STOPPED = "ponybench stopped the run"  # how a cell the breaker kept from starting is skipped
DEFAULT_BREAKER = 5
MAX_LOG = 200  # backoffs and waits kept in weather.json

# Kinds of invalid cell. The first four are weather: everyone waits.
OVERLOADED, RATE_LIMITED, SERVER_ERROR, UNREACHABLE = (
    "overloaded",
    "rate limited",
    "server error",
    "unreachable",
)
CREDENTIALS, NO_START, OTHER = "credentials refused", "claude could not start", "invalid session"
BACKOFF_KINDS = (OVERLOADED, RATE_LIMITED, SERVER_ERROR, UNREACHABLE)
_UNREACHABLE_WORDS = ("reach the api", "connection", "econnrefused", "enotfound", "timed out", "network")


def kind_of(record: Record) -> str | None:
    """What kind of infrastructure failure a record shows; None for a valid cell, and for
    failures that say nothing about the API (an interrupt, a harness fault)."""
    kind = error_kind(record)
    if kind in (None, ErrorKind.INTERRUPTED, ErrorKind.HARNESS, ErrorKind.RESCORE):
        return None
    if kind is ErrorKind.START:
        return NO_START
    if kind is not ErrorKind.API:
        return OTHER
    error = str(record.get("error") or "")
    status = number(record.get("api_error_status"))
    if status is not None:
        code = int(status)
        if code == 529:
            return OVERLOADED
        if code == 429:
            return RATE_LIMITED
        if code in (401, 403):
            return CREDENTIALS
        if code >= 500:
            return SERVER_ERROR
        return f"{OTHER} (HTTP {code})"
    if any(word in error.lower() for word in _UNREACHABLE_WORDS):
        return UNREACHABLE
    return OTHER


@dataclass(frozen=True)
class Policy:
    """How long to wait and when to give up."""

    breaker: int = DEFAULT_BREAKER  # consecutive invalid cells of one kind; 0 = never stop
    base_s: float = 2.0
    max_s: float = 120.0

    def backoff_s(self, streak: int, retry_after: float | None) -> float:
        own = self.base_s * 2 ** max(0, streak - 1)
        return float(min(self.max_s, max(own, retry_after or 0.0)))


OFFLINE_POLICY = Policy(base_s=1.0, max_s=10.0)


class Weather:
    """One worker's view of the run's shared weather (a file under the run dir)."""

    def __init__(
        self,
        run_dir: Path,
        policy: Policy = Policy(),
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.run_dir = run_dir
        self.policy = policy
        self.clock = clock
        self.sleep = sleep
        self._cell_started: float | None = None

    @property
    def path(self) -> Path:
        return self.run_dir / WEATHER

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        data.setdefault("until", 0.0)
        data.setdefault("streak", {"kind": None, "count": 0, "last_at": 0.0})
        data.setdefault("stopped", None)
        data.setdefault("backoffs", [])
        return data

    def state(self) -> dict[str, Any]:
        with locked(self.run_dir / ".weather.lock"):
            return self._read()

    def stopped(self) -> str | None:
        """Why the breaker stopped the run, or None."""
        reason = self.state()["stopped"]
        return str(reason) if reason else None

    def wait_if_needed(self) -> str | None:
        """Before a cell: wait out the shared backoff. Returns the stop reason when the breaker
        has tripped (the cell must not start), else None once the cell may start."""
        began = self.clock()
        while True:
            data = self.state()
            if data["stopped"]:
                return str(data["stopped"])
            left = float(data["until"]) - self.clock()
            if left <= 0:
                self._cell_started = now = self.clock()
                if now > began:
                    self._log_wait(began, now)
                return None
            step = min(left, 1.0)  # re-read: another worker may lengthen or end the wait
            self.sleep(step)

    def _log_wait(self, began: float, ended: float) -> None:
        """Who waited when (bounded): the evidence that every worker honours one backoff."""
        with locked(self.run_dir / ".weather.lock"):
            data = self._read()
            waits = data.setdefault("waits", [])
            waits.append({"pid": os.getpid(), "from": round(began, 3), "to": round(ended, 3)})
            data["waits"] = waits[-MAX_LOG:]
            write_json(self.path, data)

    def observe(self, record: Record, retry_after: float | None = None) -> str | None:
        """After a cell: update the shared weather; returns the stop reason when this record
        trips the breaker (or it had tripped already), else None."""
        kind = kind_of(record)
        now = self.clock()
        started = self._cell_started
        self._cell_started = None
        with locked(self.run_dir / ".weather.lock"):
            data = self._read()
            streak = data["streak"]
            if is_valid(record):
                data["streak"] = {"kind": None, "count": 0, "last_at": 0.0}
            elif kind is not None:
                in_flight = started is not None and started < float(streak.get("last_at") or 0.0)
                if streak.get("kind") != kind:
                    data["streak"] = streak = {"kind": kind, "count": 1, "last_at": now}
                elif not in_flight:
                    streak["count"] = int(streak["count"]) + 1
                    streak["last_at"] = now
                if kind in BACKOFF_KINDS:
                    delay = self.policy.backoff_s(int(streak["count"]), retry_after)
                    until = now + delay
                    if until > float(data["until"]):
                        data["until"] = until
                        data["backoffs"].append(
                            {
                                "at": now,
                                "seconds": round(delay, 3),
                                "kind": kind,
                                "cell_id": record.get("cell_id"),
                            }
                        )
                        data["backoffs"] = data["backoffs"][-MAX_LOG:]
                count = int(streak["count"])
                if self.policy.breaker and count >= self.policy.breaker and not data["stopped"]:
                    data["stopped"] = (
                        f"{count} consecutive invalid cells of one kind ({kind}); "
                        f"the last: {record.get('cell_id')}: {record.get('error')}"
                    )
            write_json(self.path, data)
            return str(data["stopped"]) if data["stopped"] else None


# -- pre-flight: is the API reachable, are the credentials accepted (free) --------------------

ANTHROPIC_API = "https://api.anthropic.com"
OAUTH_BETA = "oauth-2025-04-20"


@dataclass(frozen=True)
class ApiCheck:
    model: str
    ok: bool
    verdict: str  # one line: what was found, in words
    status: int | None = None

    def describe(self) -> str:
        return f"model {self.model}: {self.verdict}"


def credentials(env: Mapping[str, str]) -> tuple[dict[str, str], str] | None:
    """The headers the CLI would authenticate with, and where they came from; None when none."""
    if env.get("ANTHROPIC_API_KEY"):
        return {"x-api-key": env["ANTHROPIC_API_KEY"]}, "ANTHROPIC_API_KEY"
    if env.get("ANTHROPIC_AUTH_TOKEN"):
        return {"authorization": f"Bearer {env['ANTHROPIC_AUTH_TOKEN']}"}, "ANTHROPIC_AUTH_TOKEN"
    home = Path(env.get("HOME") or Path.home())
    path = home / ".claude" / ".credentials.json"
    try:
        token = json.loads(path.read_text(encoding="utf-8"))["claudeAiOauth"]["accessToken"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        return None
    if not isinstance(token, str) or not token:
        return None
    return {"authorization": f"Bearer {token}", "anthropic-beta": OAUTH_BETA}, str(path)


def check_api(model: str, env: Mapping[str, str] | None = None, timeout_s: float = 15.0) -> ApiCheck:
    """Ask the model's API to count the tokens of one word: free, and it needs both a network
    path and accepted credentials. Any answer but 401/403 means reachable and accepted (an
    alias the endpoint does not know is the CLI's to resolve; a 529 is weather, not a fault)."""
    env = dict(os.environ if env is None else env)
    if env.get("CLAUDE_CODE_USE_BEDROCK") or env.get("CLAUDE_CODE_USE_VERTEX"):
        return ApiCheck(model, True, "not checked: Bedrock and Vertex authenticate through their cloud")
    auth = credentials(env)
    if auth is None:
        return ApiCheck(
            model,
            False,
            "no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or log in with `claude` "
            "so ~/.claude/.credentials.json exists",
        )
    headers, source = auth
    base = (env.get("ANTHROPIC_BASE_URL") or ANTHROPIC_API).rstrip("/")
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "ok"}]}).encode()
    request = urllib.request.Request(
        f"{base}/v1/messages/count_tokens",
        data=body,
        method="POST",
        headers={"content-type": "application/json", "anthropic-version": "2023-06-01", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as answer:
            status = int(answer.status)
    except urllib.error.HTTPError as err:
        status = int(err.code)
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        return ApiCheck(model, False, f"API unreachable at {base}: {reason}")
    if status in (401, 403):
        return ApiCheck(
            model, False, f"credentials refused by {base} (HTTP {status}); they came from {source}", status
        )
    note = "" if status == 200 else f" (HTTP {status} to the token count)"
    return ApiCheck(model, True, f"API reachable at {base}, credentials from {source} accepted{note}", status)
