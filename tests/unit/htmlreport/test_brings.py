"""What an arm brings, as the report says it: read from its session's init event beside the
baseline's, or the pre-flight's evidence when it ran."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_ponybench.htmlreport import write_report
from tests.unit._support.records import report_record, write_report_run


def _stream(folder: Path, *events: dict[str, Any]) -> None:
    folder.mkdir(parents=True)
    (folder / "claude.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))


def _init(**listed: Any) -> dict[str, Any]:
    builtin = [{"name": "cc-plugin-privacy", "path": "builtin"}]
    return {
        "type": "system",
        "subtype": "init",
        "plugins": builtin + listed.pop("plugins", []),
        "skills": ["debug", *listed.pop("skills", [])],
        "slash_commands": ["doctor", *listed.pop("slash_commands", [])],
        "agents": ["Explore", *listed.pop("agents", [])],
        "mcp_servers": listed.pop("mcp_servers", []),
    }


def test_what_an_arm_brings_is_read_from_its_session_beside_the_baselines(tmp_path: Path) -> None:
    recs = [report_record("t", "baseline"), report_record("t", "mine")]
    run = write_report_run(tmp_path / "run", recs, {"arms": [{"name": "baseline"}, {"name": "mine"}]})
    _stream(run / "cells" / "t-baseline-m-r0", _init())
    _stream(
        run / "cells" / "t-mine-m-r0",
        {"type": "system", "subtype": "hook_started", "hook_event": "SessionStart"},
        {
            "type": "system",
            "subtype": "hook_response",
            "hook_event": "SessionStart",
            "outcome": "error",
            "exit_code": 1,
        },
        _init(
            plugins=[{"name": "mine", "path": "/x/mine"}],
            skills=["mine:review"],
            slash_commands=["mine:review"],
            agents=["mine:checker"],
            mcp_servers=[{"name": "notes", "status": "connected"}, {"name": "broken", "status": "failed"}],
        ),
    )
    html = write_report(run).read_text()
    assert (
        '<td class="brings">plugins mine; hooks SessionStart (error, exit 1); skills mine:review; '
        "commands mine:review; agents mine:checker; mcp servers notes, broken (failed)</td>"
    ) in html
    assert '<td class="brings">-</td>' in html  # the baseline brings nothing


def test_what_an_arm_brings_is_the_preflights_evidence_when_it_ran(tmp_path: Path) -> None:
    evidence = {
        "parts": [
            {
                "kind": "plugin",
                "plugins": ["mine", "cc-plugin-privacy"],
                "hook_events": ["SessionStart", "PreToolUse"],
                "registered": {"skills": ["mine:review"], "agents": [], "commands": ["mine:go"]},
            },
            {
                "kind": "mcp",
                "mcp_servers": {"notes": "connected"},
                "mcp_tools": {"notes": ["mcp__notes__add"]},
            },
        ]
    }
    pre = {"ran": True, "arms": [{"arm": "both", "ok": True, "problems": [], "evidence": evidence}]}
    recs = [report_record("t", "baseline"), report_record("t", "both")]
    run = write_report_run(
        tmp_path / "run", recs, {"arms": [{"name": "baseline"}, {"name": "both"}], "preflight": pre}
    )
    html = write_report(run).read_text()
    assert (
        '<td class="brings">hooks SessionStart, PreToolUse; skills mine:review; commands mine:go; '
        "mcp servers notes</td>"
    ) in html
