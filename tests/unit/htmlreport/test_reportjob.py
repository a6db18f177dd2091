"""The report written on a thread while the run's last steps go on (htmlreport/reportjob.py)."""

from __future__ import annotations

import threading
from pathlib import Path

from pytest_ponybench.htmlreport.reportjob import BackgroundReport


def test_start_returns_before_the_report_is_written_and_outcome_waits_for_it(tmp_path: Path) -> None:
    may_write = threading.Event()
    page = tmp_path / "report.html"

    def write() -> Path:
        assert may_write.wait(30), "start() blocked until the report was written"
        page.write_text("<html></html>")
        return page

    job = BackgroundReport(write)
    job.start()  # returns while write() still waits: the report runs on its own thread
    assert not page.exists()
    may_write.set()
    assert job.outcome() == (page, None)
    assert page.read_text() == "<html></html>"


def test_a_report_that_fails_gives_its_error_and_never_raises() -> None:
    def write() -> Path:
        raise FileExistsError("report/ exists and is not a report's")

    job = BackgroundReport(write)
    job.start()
    assert job.outcome() == (None, "FileExistsError: report/ exists and is not a report's")


def test_never_started_has_no_outcome_and_start_writes_once(tmp_path: Path) -> None:
    calls: list[int] = []

    def write() -> Path:
        calls.append(1)
        return tmp_path / "report.html"

    job = BackgroundReport(write)
    assert job.outcome() == (None, None)
    job.start()
    job.start()
    assert job.outcome() == (tmp_path / "report.html", None)
    assert job.outcome() == (tmp_path / "report.html", None)
    assert calls == [1]
