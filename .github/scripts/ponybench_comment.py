"""The pull-request side of the ponybench workflow, on GitHub's REST API (standard library only).

    python .github/scripts/ponybench_comment.py base --into history/
        The open pull request of this branch (none: says so and stops), and the merged run dir of
        its base branch's last successful ponybench run (its `ponybench-merged` artefact),
        unpacked into history/base-<branch>/. Writes `pr=<number>` (empty: no pull request) and
        `base=<folder or empty>` to $GITHUB_OUTPUT.
    python .github/scripts/ponybench_comment.py comment --pr N FILE...
        One comment on pull request N holding the FILEs (Markdown) one after the other: the
        comment this script wrote before is updated (it carries a hidden marker), else one is
        added. A pull request gets one ponybench comment however often the workflow runs.

Reads GITHUB_API_URL (default https://api.github.com), GITHUB_REPOSITORY (owner/name),
GITHUB_REF_NAME (the branch) and GH_TOKEN. Tests point GITHUB_API_URL at a fake on loopback.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

MARKER = "<!-- ponybench-comment -->"
WORKFLOW = "ponybench.yml"
ARTEFACT = "ponybench-merged"


def _api(path: str, method: str = "GET", body: dict[str, Any] | None = None, raw: bool = False) -> Any:
    base = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    url = path if path.startswith("http") else base + path
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept", "application/vnd.github+json")
    request.add_header("Authorization", f"Bearer {os.environ['GH_TOKEN']}")
    request.add_header("X-GitHub-Api-Version", "2022-11-28")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as answer:
        payload = answer.read()
    return payload if raw else json.loads(payload or b"null")


def _repo() -> str:
    return os.environ["GITHUB_REPOSITORY"]


def _output(**values: str) -> None:
    target = os.environ.get("GITHUB_OUTPUT")
    lines = "".join(f"{k}={v}\n" for k, v in values.items())
    if target:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(lines)
    else:
        sys.stdout.write(lines)


def base(into: Path) -> int:
    repo, branch = _repo(), os.environ["GITHUB_REF_NAME"]
    owner = repo.split("/", 1)[0]
    head = urllib.parse.quote(f"{owner}:{branch}")
    pulls = _api(f"/repos/{repo}/pulls?state=open&head={head}")
    if not pulls:
        print(f"no open pull request for {branch}: no comment")
        _output(pr="", base="")
        return 0
    pr, target = pulls[0]["number"], pulls[0]["base"]["ref"]
    query = urllib.parse.urlencode({"branch": target, "status": "success", "per_page": 1})
    runs = _api(f"/repos/{repo}/actions/workflows/{WORKFLOW}/runs?{query}")["workflow_runs"]
    folder = ""
    if runs:
        artefacts = _api(f"/repos/{repo}/actions/runs/{runs[0]['id']}/artifacts")["artifacts"]
        found = [a for a in artefacts if a["name"] == ARTEFACT and not a.get("expired")]
        if found:
            dest = into / f"base-{target.replace('/', '-')}"
            dest.mkdir(parents=True, exist_ok=True)
            archive = zipfile.ZipFile(io.BytesIO(_api(found[0]["archive_download_url"], raw=True)))
            for member in archive.namelist():  # never outside dest, whatever the archive names
                if Path(member).is_absolute() or ".." in Path(member).parts:
                    raise SystemExit(f"refusing the artefact: it names {member!r}")
            archive.extractall(dest)
            folder = str(dest)
            print(f"pull request #{pr}; {target}'s last run: {runs[0]['html_url']} -> {dest}")
    if not folder:
        print(f"pull request #{pr}; no earlier run of {target} to compare with")
    _output(pr=str(pr), base=folder)
    return 0


def comment(pr: int, files: list[Path]) -> int:
    body = (
        MARKER
        + "\n"
        + "\n\n".join(f.read_text(encoding="utf-8").strip() for f in files if f.is_file())
        + "\n"
    )
    repo = _repo()
    mine = None
    page = 1
    while mine is None:
        found = _api(f"/repos/{repo}/issues/{pr}/comments?per_page=100&page={page}")
        mine = next((c for c in found if MARKER in (c.get("body") or "")), None)
        if len(found) < 100:
            break
        page += 1
    if mine is None:
        made = _api(f"/repos/{repo}/issues/{pr}/comments", "POST", {"body": body})
        print(f"commented: {made['html_url']}")
    else:
        _api(f"/repos/{repo}/issues/comments/{mine['id']}", "PATCH", {"body": body})
        print(f"updated: {mine['html_url']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    b = sub.add_parser("base")
    b.add_argument("--into", type=Path, required=True)
    c = sub.add_parser("comment")
    c.add_argument("--pr", type=int, required=True)
    c.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    return base(args.into) if args.what == "base" else comment(args.pr, args.files)


if __name__ == "__main__":
    sys.exit(main())
