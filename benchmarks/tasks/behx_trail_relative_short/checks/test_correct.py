"""relativeTime(when, { now, short }): the long text as before, the short one, the callers updated
(the pages show the same times, no call still passes a bare Date) and the repo's suite passing."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

NOW = "2024-03-05T12:00:00Z"
MIN, HOUR, DAY = 60, 3600, 86400

# seconds before NOW (negative: after it) -> (long text, short text)
CASES = [
    (0, "just now", "just now"),
    (59, "just now", "just now"),
    (-59, "just now", "just now"),
    (60, "1 minute ago", "1m ago"),
    (5 * MIN, "5 minutes ago", "5m ago"),
    (-5 * MIN - 30, "in 5 minutes", "in 5m"),
    (HOUR, "1 hour ago", "1h ago"),
    (-2 * HOUR, "in 2 hours", "in 2h"),
    (23 * HOUR + 59 * MIN, "23 hours ago", "23h ago"),
    (DAY, "1 day ago", "1d ago"),
    (3 * DAY, "3 days ago", "3d ago"),
    (-DAY, "in 1 day", "in 1d"),
    (7 * DAY, "1 week ago", "1w ago"),
    (-20 * DAY, "in 2 weeks", "in 2w"),
    (30 * DAY, "1 month ago", "1mo ago"),
    (-95 * DAY, "in 3 months", "in 3mo"),
    (365 * DAY, "1 year ago", "1y ago"),
    (3 * 365 * DAY + 5, "3 years ago", "3y ago"),
    (-800 * DAY, "in 2 years", "in 2y"),
]


@pytest.fixture(scope="module")
def texts(js_batch):
    return js_batch(
        "src/util/dates.js",
        f"""
        const relativeTime = pick('relativeTime');
        const now = new Date("{NOW}");
        const out = [];
        for (const secs of {json.dumps([c[0] for c in CASES])}) {{
          const when = new Date(now.getTime() - secs * 1000);
          out.push([
            attempt(() => relativeTime(when, {{ now }})),
            attempt(() => relativeTime(when.toISOString(), {{ now, short: false }})),
            attempt(() => relativeTime(when, {{ now, short: true }})),
          ]);
        }}
        return out;
    """,
    )


def _value(result):
    return result["value"] if result["ok"] else f"threw {result['name']}: {result['message']}"


@pytest.mark.parametrize("index", range(len(CASES)), ids=[str(c[0]) for c in CASES])
def test_the_long_text_is_as_today(texts, index):
    secs, long, _ = CASES[index]
    default, explicit, _ = texts[index]
    assert _value(default) == long, (
        f"relativeTime(<{secs} s before now>, {{ now }}) gave {_value(default)!r}, expected {long!r}")
    assert _value(explicit) == long, (
        f"relativeTime(<ISO string {secs} s before now>, {{ now, short: false }}) gave {_value(explicit)!r}, "
        f"expected {long!r}")


@pytest.mark.parametrize("index", range(len(CASES)), ids=[str(c[0]) for c in CASES])
def test_the_short_text(texts, index):
    secs, _, short = CASES[index]
    got = _value(texts[index][2])
    assert got == short, f"relativeTime(<{secs} s before now>, {{ now, short: true }}) gave {got!r}, expected {short!r}"


def test_a_date_that_does_not_parse(js):
    got = js(
        "src/util/dates.js",
        f"""
        const relativeTime = pick('relativeTime');
        const now = new Date("{NOW}");
        return [relativeTime("garbage", {{ now }}), relativeTime("garbage", {{ now, short: true }}),
                relativeTime("garbage")];
    """,
    )
    assert got == ["some time ago"] * 3, f"an unparsable date should read 'some time ago' in every form, got {got}"


def test_the_options_default_to_the_clock_and_the_long_text(js):
    got = js(
        "src/util/dates.js",
        """
        const relativeTime = pick('relativeTime');
        const when = new Date(Date.now() - (3 * 86400 + 600) * 1000);
        return [relativeTime(when), relativeTime(when, {}), relativeTime(when, { short: true }),
                relativeTime(when, { short: false })];
    """,
    )
    assert got == ["3 days ago", "3 days ago", "3d ago", "3 days ago"], (
        "without `now` the time is measured from the clock (and without `short` in the long form): "
        f"relativeTime(<3 days ago>), (.., {{}}), (.., {{ short: true }}), (.., {{ short: false }}) gave {got}")


PAGES = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
let clock = new Date("2024-03-02T12:00:00Z");
const store = new Store({ clock: () => clock });
const ann = store.addUser({ login: "ann" });
store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id], labels: [] });
const issue = store.addIssue("WEB", { title: "Crash on save", authorId: ann.id });
clock = new Date("2024-03-05T10:00:00Z");
store.addComment(issue.id, { authorId: ann.id, body: "Seen it too" });
clock = new Date("2024-03-05T12:00:00Z");
const app = createApp({ store });
const page = async (url) => String((await app.handle({ method: "GET", url, headers: {}, body: "" })).body);
return { list: await page("/projects/WEB"), issue: await page(`/issues/${issue.id}`) };
"""


def test_the_pages_show_the_same_times(js):
    got = js("src/app.js", PAGES)
    assert "3 days ago" in got["list"], (
        "the issue list of /projects/WEB should say the issue was opened '3 days ago' (the app's clock is "
        "2024-03-05T12:00Z, the issue was opened 2024-03-02T12:00Z): a page still passing `now` as a Date?")
    assert "3 days ago" in got["issue"], "the issue page should say the issue was opened '3 days ago'"
    assert "2 hours ago" in got["issue"], "the issue page should say the comment was written '2 hours ago'"
    for name in ("list", "issue"):
        assert not re.search(r"\b\d+(y|mo|w|d|h|m) ago\b", got[name]), f"the {name} page switched to the short form"


# A call whose second argument is still a bare Date: `now`, `NOW`, `something.now`, `new Date(...)`.
BARE_DATE = re.compile(r"^(?:[\w$.]*\bnow|NOW|[\w$.]*\bNOW|new\s+Date\b.*)$", re.IGNORECASE | re.DOTALL)


def _calls(text):
    """The argument lists of every relativeTime(...) call (its definition left out)."""
    for m in re.finditer(r"(?<![\w$.])relativeTime\s*\(", text):
        if re.search(r"function\s*$", text[max(0, m.start() - 20) : m.start()]):
            continue
        depth, args, cur, i = 1, [], "", m.end()
        while i < len(text) and depth:
            ch = text[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            if depth == 1 and ch == ",":
                args.append(cur.strip())
                cur = ""
            elif depth:
                cur += ch
            i += 1
        args.append(cur.strip())
        yield [a for a in args if a]


def test_no_caller_still_passes_a_date():
    stale = []
    for folder in ("src", "test", "public", "scripts"):
        for path in sorted(Path(folder).rglob("*.js")) if Path(folder).is_dir() else []:
            for args in _calls(path.read_text(encoding="utf-8", errors="replace")):
                if len(args) >= 2 and BARE_DATE.match(args[1]):
                    stale.append(f"{path}: relativeTime({', '.join(args)})")
    assert not stale, f"callers still pass a bare Date as the second argument: {stale}"


def test_the_whole_suite_passes(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH where the checks run: these checks need Node.js 20")
    ws = tmp_path / "ws"
    shutil.copytree(os.getcwd(), ws, ignore=shutil.ignore_patterns("node_modules", ".git"), symlinks=True)
    try:
        proc = subprocess.run(
            [node, "--test", "test/"], cwd=ws, capture_output=True, text=True, timeout=100, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        pytest.fail("`node --test test/` did not finish within 100 s")
    out = proc.stdout + proc.stderr
    failing = [ln for ln in out.splitlines() if ln.startswith(("# fail", "not ok"))]
    assert proc.returncode == 0, f"`node --test test/` fails on the workspace: {' | '.join(failing[:6]) or out[-300:]}"
