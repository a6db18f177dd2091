"""The forms of run.json earlier versions wrote, and the migration of each into the current one.

run.json carries no version number: a form is told by the keys it has. Each form added keys
to the one before; a key a form lacks reads as "not recorded" (None), never as a guess, so an
old run compares as what it is. What a migration changes is only what the current reader
cannot read otherwise:

1. the first runs: `options` hold models, runs, cell_timeout, max_turns, tasks and arms; no
   `mode` (every run dir was a run), no fixture hashes.  -> `mode` "run".
2. resume and rescore: `mode`, `resume_of` / `rescore_of`, `missing`, the pre-flight and
   warm-up, fixture hashes; `options` add retries and the budgets.
3. shards and merges: `grid_hash`, `shard`, `merged`, `confinement`, `estimate_usd`.
4. the verdicts' design: `options` add primary, family, until_decided, max_tasks; `sequential`.
5. arms of parts: each arm lists its `parts`; `options.task_runs`.
6. the judge recorded: `options` add judge_model and judge_runs (the current form).

Before form 5 an arm was one kind (baseline, plugin, prompt, settings) with its content in
`plugin_dir`, `prompt` or `settings`: the migration gives it the one part that content is
(without a part hash, which those runs did not record), so a resume rebuilds every arm one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = ["CURRENT", "FORMS", "form_of", "upgrade"]

CURRENT: Final = 6
FORMS: Final = {
    1: "the first runs",
    2: "resume and rescore",
    3: "shards and merges",
    4: "the verdicts' design",
    5: "arms of parts",
    6: "the judge recorded",
}

# The kinds an arm had before parts, and the key that held each one's content.
_OLD_KINDS: Final = {"plugin": "plugin_dir", "prompt": "prompt", "settings": "settings"}


def form_of(doc: Mapping[str, Any]) -> int:
    """The form a run.json was written in, by the newest key it has."""
    options = doc.get("options") if isinstance(doc.get("options"), Mapping) else {}
    assert isinstance(options, Mapping)
    arms = doc.get("arms") if isinstance(doc.get("arms"), list) else []
    assert isinstance(arms, list)
    if "judge_model" in options:
        return 6
    if "task_runs" in options or any(isinstance(a, Mapping) and "parts" in a for a in arms):
        return 5
    if "primary" in options or "sequential" in doc:
        return 4
    if any(k in doc for k in ("grid_hash", "shard", "merged", "confinement", "estimate_usd")):
        return 3
    if "mode" in doc or "retries" in options:
        return 2
    return 1


def upgrade(doc: Mapping[str, Any], form: int) -> dict[str, Any]:
    """The document in the current form (a new dict; `doc` is left as it is)."""
    out = dict(doc)
    if form < 2 and "mode" not in out:
        out["mode"] = "run"
    if isinstance(out.get("arms"), list):  # any form: an arm without parts is one from before
        out["arms"] = [_with_parts(a) for a in out["arms"]]
    return out


def _with_parts(arm: Any) -> Any:
    """An arm from before parts with the one part its kind and content were; one the reader
    will refuse (no name, a kind of no known content) is left as it is."""
    if not isinstance(arm, Mapping) or "parts" in arm:
        return arm
    kind = arm.get("kind")
    if kind == "baseline":
        return {**arm, "parts": []}
    value = arm.get(_OLD_KINDS.get(str(kind), ""))
    if kind in _OLD_KINDS and isinstance(value, str):
        return {**arm, "parts": [{"kind": kind, "value": value}]}
    return arm
