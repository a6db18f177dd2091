"""The ponybench session: collection of selftest items and benchmark cells, and the summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import config as cfg
from .selftest import selftest_items
from .tasks import Task, TaskError, load_tasks, select


class PonybenchSession:
    """Registered as a plugin by plugin.pytest_configure; holds the resolved settings."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._settings: cfg.Settings | None = None
        self._tasks: list[Task] | None = None

    @property
    def settings(self) -> cfg.Settings:
        if self._settings is None:
            self._settings = cfg.load_settings(self.config)
        return self._settings

    def tasks(self) -> list[Task]:
        """The selected tasks, loaded and validated once; every malformed folder is named."""
        if self._tasks is None:
            s = self.settings
            try:
                self._tasks = select(load_tasks(s.tasks_dir, s.fixtures_dir), s.task_filter)
            except TaskError as exc:
                raise pytest.UsageError(
                    f"ponybench: {len(exc.problems)} problem(s) in the task folders:\n"
                    + "\n".join(f"  - {p}" for p in exc.problems)) from None
        return self._tasks

    def register_markers(self) -> None:
        """Task tags become markers, so `-m quick` works under --strict-markers."""
        try:
            tasks = load_tasks(self.settings.tasks_dir, self.settings.fixtures_dir)
        except (TaskError, pytest.UsageError):
            return  # reported with every problem named when the tasks are needed
        for tag in sorted({t for task in tasks for t in task.tags}):
            self.config.addinivalue_line("markers", f"{tag}: ponybench task tag")

    @property
    def selftest_only(self) -> bool:
        return bool(self.config.getoption(cfg.OPT_SELFTEST))

    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        """Under --selftest-only no test file is collected: the selftest items replace them."""
        return True if self.selftest_only else None

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        """Put the selftest items in before -k/-m deselection runs, so both apply to them."""
        if self.selftest_only:
            items[:] = selftest_items(session, self.tasks())
