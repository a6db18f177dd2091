"""The documentation a user reads: README.md is the front door and docs/*.md hold the rest.

Every option `pytest --help` lists in ponybench's group and every `ponybench` subcommand is
documented, every record field is in docs/results.md's table once, every docs page is linked from
the README, and every relative link (with its anchor, as GitHub derives anchors) leads somewhere.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.core import records
from tests.support import REPO

README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = sorted(DOCS.glob("*.md"))
# pytest --help's titles of the plugin's option groups begin so
GROUP = "pytest-ponybench, "
LINK_RE = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)")
FENCE_RE = re.compile(r"^ {0,3}(```|~~~)")


def prose(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    out, fence = [], False
    for line in text.splitlines():
        if FENCE_RE.match(line):
            fence = not fence
            continue
        if not fence:
            out.append(line)
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lowercased, punctuation dropped, spaces as dashes."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor GitHub gives page's headings (a repeated one gets -1, -2, ...)."""
    seen: Counter[str] = Counter()
    out = set()
    for line in prose(page.read_text(encoding="utf-8")):
        m = re.match(r"^ {0,3}#{1,6} +(.+?)(?: +#+)? *$", line)
        if not m:
            continue
        base = slug(m.group(1))
        out.add(base if not seen[base] else f"{base}-{seen[base]}")
        seen[base] += 1
    return out


def links(page: Path) -> list[str]:
    """The targets of page's Markdown links and images outside code (inline code left out)."""
    found = []
    for line in prose(page.read_text(encoding="utf-8")):
        found += LINK_RE.findall(re.sub(r"`[^`]*`", "", line))
    return found


def documented_text() -> str:
    return README.read_text(encoding="utf-8") + (DOCS / "options.md").read_text(encoding="utf-8")


def mentions(text: str, flag: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text) is not None


def help_options(cwd: Path) -> dict[str, list[str]]:
    """pytest --help's ponybench group: each long option with its short alias, if it has one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PONYBENCH"))}
    env["COLUMNS"] = "100"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--help", "-p", "no:cacheprovider"],
        cwd=cwd,  # a folder with no pytest configuration: the plugin's own options only
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    lines: list[str] = []
    for block in out.split("\n" + GROUP)[1:]:
        end = re.search(r"\n\S", block)  # the next group's title
        lines += (block[: end.start()] if end else block).splitlines()[1:]
    options: dict[str, list[str]] = {}
    current = ""
    for line in lines:
        m = re.match(r"^  (--[\w-]+)", line)
        if m:
            current = m.group(1)
            options[current] = []
        if current:
            options[current].append(line.strip())
    return {
        # argparse may wrap a name at its hyphens ("--max-budget-\n usd"): joined back first.
        name: [name, *re.findall(r"\[also (--[\w-]+) where", re.sub(r"(?<=-) +", "", " ".join(lines)))]
        for name, lines in options.items()
    }


def subcommands() -> list[str]:
    """Every `ponybench` subcommand, a nested one as `task new`."""

    def walk(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    nested = walk(sub, f"{prefix}{name} ")
                    found += nested or [f"{prefix}{name}"]
        return found

    return walk(cli.build_parser(), "")


def test_every_pytest_option_of_the_plugin_is_documented(tmp_path: Path) -> None:
    options = help_options(tmp_path)
    assert len(options) >= 30 and "--ponybench-models" in options, sorted(options)
    text = documented_text()
    missing = [names for names in options.values() if not any(mentions(text, n) for n in names)]
    assert not missing, (
        f"options pytest --help lists that README.md and docs/options.md never name: {missing}"
    )


def test_every_ponybench_subcommand_is_documented() -> None:
    subs = subcommands()
    assert {"summary", "compare", "import-cpe", "task new"} <= set(subs), subs
    text = documented_text()
    missing = [s for s in subs if not re.search(rf"`ponybench {re.escape(s)}(?![\w-])", text)]
    assert not missing, f"ponybench subcommands README.md and docs/options.md never show: {missing}"


def test_every_record_field_is_in_the_results_table_once() -> None:
    text = (DOCS / "results.md").read_text(encoding="utf-8")
    assert text.count("<!-- record-fields -->") == 1 and text.count("<!-- /record-fields -->") == 1
    block = text.split("<!-- record-fields -->", 1)[1].split("<!-- /record-fields -->", 1)[0]
    rows = Counter(re.findall(r"^\| `([a-z_]+)` \|", block, flags=re.M))
    assert rows == Counter(list(records.FIELDS)), {
        "missing": sorted(set(records.FIELDS) - set(rows)),
        "twice": sorted(f for f, n in rows.items() if n > 1),
        "unknown": sorted(set(rows) - set(records.FIELDS)),
    }


def test_every_docs_page_is_linked_from_the_readme() -> None:
    assert len(PAGES) >= 10, PAGES
    linked = {Path(target.split("#", 1)[0]) for target in links(README)}
    unlinked = [p.name for p in PAGES if p.relative_to(REPO) not in linked]
    assert not unlinked, f"docs pages README.md does not link: {unlinked}"


def test_every_docs_page_starts_by_saying_what_it_covers_and_links_back() -> None:
    for page in PAGES:
        first = page.read_text(encoding="utf-8").split("\n", 1)[0]
        assert "](../README.md)" in first and len(first) > 40, f"{page.name}: {first!r}"


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_leads_to_a_file_and_anchor_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not ours to check
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor} in {dest.relative_to(REPO)}")
    assert not broken, f"{page.relative_to(REPO)}: {broken}"


def test_anchors_are_derived_as_github_derives_them() -> None:
    assert slug("Verdicts and `ponybench compare`") == "verdicts-and-ponybench-compare"
    assert slug("Stop, resume, rescore") == "stop-resume-rescore"
    assert slug("How checks run (the sandbox)") == "how-checks-run-the-sandbox"
    assert slug("An offline A/B with a known answer") == "an-offline-ab-with-a-known-answer"
    assert slug("The `max_turns` key") == "the-max_turns-key"


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    readme = README.read_text(encoding="utf-8")
    shown = readme.split("Run this project's own tests", 1)[1].split("```bash\n", 1)[1].split("\n```", 1)[0]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    after = ci.split("# The README's test command.", 1)[1]
    ran = [line for line in after.splitlines() if line.startswith("pytest ")][0]
    assert shown == ran, (shown, ran)
