"""The offline server as the session's `core.endpoint.Endpoint`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pytest_ponybench.core.endpoint import is_offline
from pytest_ponybench.offline.script import CellScript, Session
from pytest_ponybench.offline.server import OfflineServer

if TYPE_CHECKING:
    from pytest_ponybench.core.graders.config import RefMeta
    from pytest_ponybench.core.tasks import Task

__all__ = ["OfflineEndpoint", "session_of"]


def session_of(meta: RefMeta, turn: int = 1) -> Session:
    """What the scripted agents say and do for a reference in a turn besides writing its files."""
    said = meta.said(turn)
    return Session(calls=tuple((c.tool, dict(c.input)) for c in said.tool_calls), reply=said.reply)


class OfflineEndpoint:
    """Registers each session with the server under its own URL prefix; the server starts
    with the first session, so a run of paid models only never opens its port."""

    def __init__(self, server: OfflineServer) -> None:
        self.server = server

    def serves(self, model: str) -> bool:
        return is_offline(model)

    def open(self, session_id: str, workspace: Path, log: Path, task: Task | None = None) -> str:
        if task is None:
            script = CellScript(workspace=workspace, good={}, bad={}, log_path=log)
        else:
            script = CellScript(
                workspace=workspace,
                good=task.good,
                bad=task.bad,
                log_path=log,
                good_session=session_of(task.good_meta),
                bad_session=session_of(task.bad_meta),
                good_turns=tuple(session_of(task.good_meta, n) for n in range(2, len(task.prompts) + 1)),
                bad_turns=tuple(session_of(task.bad_meta, n) for n in range(2, len(task.prompts) + 1)),
                prompts=task.prompts,
            )
        self.server.start()
        self.server.register(session_id, script)
        return self.server.cell_url(session_id)

    def turn(self, session_id: str, turn: int) -> None:
        self.server.set_turn(session_id, turn)

    def close(self, session_id: str) -> None:
        self.server.unregister(session_id)
