"""The workflow's pull-request comment, its own steps run by bash against a fake of GitHub's REST
API on loopback: the open pull request of the branch, the base branch's last successful run and
its merged run dir (a zip, as GitHub serves an artefact), then one comment holding the verdict
block and the change since the base branch, updated (not added again) on the next run."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
import yaml

from tests.history_runs import make_run
from tests.support import REPO

WORKFLOW = REPO / ".github" / "workflows" / "ponybench.yml"
TASKS = [f"t{i}" for i in range(6)]


class FakeGitHub:
    """The few routes the comment script asks for, and what it did to them."""

    def __init__(self, artefact: bytes) -> None:
        self.artefact = artefact
        self.comments: list[dict[str, Any]] = [{"id": 7, "body": "a reviewer's comment", "html_url": "c7"}]
        self.seen: list[tuple[str, str]] = []
        self.tokens: set[str] = set()

    def answer(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        url = urlparse(path)
        query = parse_qs(url.query)
        route = url.path
        if route == "/repos/acme/plugin/pulls":
            if query.get("head") == ["acme:feature"] and query.get("state") == ["open"]:
                return 200, [{"number": 42, "base": {"ref": "main"}}]
            return 200, []
        if route == "/repos/acme/plugin/actions/workflows/ponybench.yml/runs":
            assert query["branch"] == ["main"] and query["status"] == ["success"]
            return 200, {"workflow_runs": [{"id": 99, "html_url": "run99"}]}
        if route == "/repos/acme/plugin/actions/runs/99/artifacts":
            url_zip = f"http://{self.host}/zip/ponybench-merged"
            return 200, {"artifacts": [{"name": "ponybench-merged", "archive_download_url": url_zip}]}
        if route == "/zip/ponybench-merged":
            return 200, self.artefact
        if route == "/repos/acme/plugin/issues/42/comments" and method == "GET":
            return 200, self.comments
        if route == "/repos/acme/plugin/issues/42/comments" and method == "POST":
            assert body is not None
            made = {"id": 100 + len(self.comments), "body": body["body"], "html_url": "new"}
            self.comments.append(made)
            return 201, made
        if (m := re.fullmatch(r"/repos/acme/plugin/issues/comments/(\d+)", route)) and method == "PATCH":
            assert body is not None
            (mine,) = [c for c in self.comments if c["id"] == int(m[1])]
            mine["body"] = body["body"]
            return 200, mine
        return 404, {"message": "Not Found"}

    host = ""


@pytest.fixture
def github(tmp_path: Path) -> Iterator[FakeGitHub]:
    base = make_run(tmp_path / "upload", "merged", "2026-01-01T00:00:00", outcomes("11"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:  # upload-artifact stores the folder's contents
        for path in sorted(base.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(base))
    fake = FakeGitHub(buf.getvalue())

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            fake.seen.append((self.command, self.path))
            fake.tokens.add(self.headers.get("Authorization", ""))
            status, payload = fake.answer(self.command, self.path, body)
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = _serve

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)  # loopback only
    fake.host = f"127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()


def outcomes(mine: str) -> dict[tuple[str, str], str]:
    return {**{(t, "baseline"): "10" for t in TASKS}, **{(t, "mine"): mine for t in TASKS}}


def steps() -> dict[str, dict[str, Any]]:
    wf = yaml.safe_load(WORKFLOW.read_text())
    return {s["name"]: s for s in wf["jobs"]["merge"]["steps"] if "name" in s}


def run_step(step: dict[str, Any], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_workflow_comments_once_and_updates_its_comment(github: FakeGitHub, tmp_path: Path) -> None:
    wf = steps()
    base_step, history_step, comment_step = (
        wf["The base branch's last run"],
        wf["Change since the base branch"],
        wf["Comment on the pull request"],
    )
    assert base_step["env"]["GH_TOKEN"] == comment_step["env"]["GH_TOKEN"] == "${{ github.token }}"
    assert comment_step["if"] == history_step["if"] == "always() && steps.base.outputs.pr != ''"
    for attempt, marks in enumerate(["11", "00"], start=1):
        work = tmp_path / f"job{attempt}"
        work.mkdir()
        (work / ".github").symlink_to(REPO / ".github")
        make_run(
            work,
            "merged",
            f"2026-01-0{attempt + 1}T00:00:00",
            outcomes(marks),
            arm_hashes={"mine": f"v{attempt}"},
        )
        (work / "verdict.md").write_text(f"**Gate passed:** verdict block {attempt}\n")
        outputs = work / "outputs.txt"
        env = {
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
            "HOME": str(tmp_path),
            "GITHUB_API_URL": f"http://{github.host}",
            "GITHUB_REPOSITORY": "acme/plugin",
            "GITHUB_REF_NAME": "feature",
            "GITHUB_OUTPUT": str(outputs),
            "GITHUB_STEP_SUMMARY": str(work / "summary.md"),
            "GH_TOKEN": "t0ken",
            "no_proxy": "*",
        }
        done = run_step(base_step, work, env)
        assert done.returncode == 0, done.stdout + done.stderr
        out = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
        assert out == {"pr": "42", "base": "history/base-main"}
        assert (work / "history" / "base-main" / "run.json").is_file()
        done = run_step(history_step, work, env)
        assert done.returncode == 0, done.stdout + done.stderr
        done = run_step(comment_step, work, {**env, "PR": out["pr"]})
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith("commented:" if attempt == 1 else "updated:")
    mine = [c for c in github.comments if "<!-- ponybench-comment -->" in c["body"]]
    assert len(mine) == 1 and len(github.comments) == 2  # the reviewer's and ours, updated in place
    body = mine[0]["body"]
    assert "verdict block 2" in body and "verdict block 1" not in body
    assert "### ponybench: since the last comparable run" in body
    assert "this-run against base-main:" in body
    # Every task moved alike (2/2 -> 0/2): Newcombe's interval over the 12 cells, not the point.
    assert "- offline-coin, arm mine: undecided (pass -100.0 pp [-100.0, -65.7] pp, 6 paired tasks" in body
    assert "regressed t0: 2/2 → 0/2" in body
    assert github.tokens == {"Bearer t0ken"}
    assert ("PATCH", f"/repos/acme/plugin/issues/comments/{mine[0]['id']}") in github.seen


def test_a_branch_without_a_pull_request_gets_no_comment(github: FakeGitHub, tmp_path: Path) -> None:
    (tmp_path / ".github").symlink_to(REPO / ".github")
    outputs = tmp_path / "outputs.txt"
    env = {
        **{k: v for k, v in os.environ.items() if k == "PATH"},
        "GITHUB_API_URL": f"http://{github.host}",
        "GITHUB_REPOSITORY": "acme/plugin",
        "GITHUB_REF_NAME": "lonely",
        "GITHUB_OUTPUT": str(outputs),
        "GH_TOKEN": "t0ken",
        "no_proxy": "*",
    }
    done = run_step(steps()["The base branch's last run"], tmp_path, env)
    assert done.returncode == 0 and "no open pull request for lonely" in done.stdout
    assert outputs.read_text() == "pr=\nbase=\n"
    assert not any(method == "POST" for method, _ in github.seen)
