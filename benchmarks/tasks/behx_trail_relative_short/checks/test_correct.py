"""relativeTime(when, { now, short }): the long text as before, the short one, the callers updated
(the pages show the same times, no call still passes a bare Date) and the repo's suite passing."""

import json
import re
from pathlib import Path

import pytest
from node_suite import copy_workspace, run_suite, summary

NOW = "2024-03-05T12:00:00Z"
MIN, HOUR, DAY = 60, 3600, 86400

# The units and their sizes as the function has them today, with the short forms the prompt names.
UNITS = [
    ("year", "y", 365 * DAY),
    ("month", "mo", 30 * DAY),
    ("week", "w", 7 * DAY),
    ("day", "d", DAY),
    ("hour", "h", HOUR),
    ("minute", "m", MIN),
]


def expected(secs: int, short: bool) -> str:
    """The text for a time `secs` seconds before now (negative: after it)."""
    if abs(secs) < 60:
        return "just now"
    for unit, abbreviation, size in UNITS:
        if abs(secs) >= size:
            n = abs(secs) // size
            words = f"{n}{abbreviation}" if short else f"{n} {unit}{'' if n == 1 else 's'}"
            return f"{words} ago" if secs >= 0 else f"in {words}"
    raise AssertionError("unreachable")


# seconds before NOW (negative: after it): each unit at its size, a second below it and at twice
# it, both ways, and a few ordinary times.
SECONDS = sorted(
    {
        0,
        59,
        -59,
        5 * MIN,
        -5 * MIN - 30,
        23 * HOUR + 59 * MIN,
        3 * DAY,
        -20 * DAY,
        -95 * DAY,
        3 * 365 * DAY + 5,
    }
    | {sign * k for _, _, size in UNITS for k in (size, size - 1, 2 * size, 2 * size - 1) for sign in (1, -1)}
)
CASES = [(secs, expected(secs, False), expected(secs, True)) for secs in SECONDS]


def test_the_expected_texts_follow_the_prompt():
    assert expected(3 * DAY, False) == "3 days ago" and expected(-HOUR, False) == "in 1 hour"
    assert [expected(s, True) for s in (3 * DAY, -2 * HOUR, 30 * DAY, 5 * MIN)] == [
        "3d ago",
        "in 2h",
        "1mo ago",
        "5m ago",
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
        f"relativeTime(<{secs} s before now>, {{ now }}) gave {_value(default)!r}, expected {long!r}"
    )
    assert _value(explicit) == long, (
        f"relativeTime(<ISO string {secs} s before now>, {{ now, short: false }}) gave {_value(explicit)!r}, "
        f"expected {long!r}"
    )


@pytest.mark.parametrize("index", range(len(CASES)), ids=[str(c[0]) for c in CASES])
def test_the_short_text(texts, index):
    secs, _, short = CASES[index]
    got = _value(texts[index][2])
    assert got == short, (
        f"relativeTime(<{secs} s before now>, {{ now, short: true }}) gave {got!r}, expected {short!r}"
    )


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
    assert got == ["some time ago"] * 3, (
        f"an unparsable date should read 'some time ago' in every form, got {got}"
    )


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
        f"relativeTime(<3 days ago>), (.., {{}}), (.., {{ short: true }}), (.., {{ short: false }}) gave {got}"
    )


PAGES = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
let clock = new Date("2024-03-02T12:00:00Z");
const store = new Store({ clock: () => clock });
const ann = store.addUser({ login: "ann" });
store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id], labels: [] });
const issue = store.addIssue("WEB", { title: "Crash on save", authorId: ann.id });
clock = new Date("2024-03-05T09:00:00Z");
const other = store.addIssue("WEB", { title: "Slow search", authorId: ann.id });
clock = new Date("2024-03-05T11:00:00Z");
const third = store.addIssue("WEB", { title: "Typo", authorId: ann.id });
clock = new Date("2024-03-05T10:00:00Z");
store.addComment(issue.id, { authorId: ann.id, body: "Seen it too" });
store.addComment(other.id, { authorId: ann.id, body: "Me too" });
store.addComment(other.id, { authorId: 999, body: "Gone" });
clock = new Date("2024-03-05T12:00:00Z");
const app = createApp({ store });
const page = async (url) => String((await app.handle({ method: "GET", url, headers: {}, body: "" })).body);
return { list: await page("/projects/WEB"), issue: await page(`/issues/${issue.id}`), other: await page(`/issues/${other.id}`) };
"""


def test_the_pages_show_the_same_times(js):
    got = js("src/app.js", PAGES)
    small = re.findall(r"<small>(.*?)</small>", got["list"], re.DOTALL)
    expected_rows = [
        "by @ann, 1 hour ago",
        "by @ann, 3 hours ago, 2 comments",
        "by @ann, 3 days ago, 1 comment",
    ]
    assert sorted(small) == sorted(expected_rows), (
        f"the issue list of /projects/WEB (the app's clock at 2024-03-05T12:00Z) says {small}, expected the rows "
        f"as today: {expected_rows} (a page still passing `now` as a Date measures from the real clock)"
    )
    assert "3 days ago" in got["issue"], "the issue page should say the issue was opened '3 days ago'"
    assert "@ann commented 2 hours ago" in got["issue"], (
        "the issue page should say '@ann commented 2 hours ago'"
    )
    assert "@deleted commented 2 hours ago" in got["other"], (
        "a comment whose author is gone should read '@deleted commented 2 hours ago', as today"
    )
    for name in ("list", "issue", "other"):
        assert not re.search(r"\b\d+(y|mo|w|d|h|m) ago\b", got[name]), (
            f"the {name} page switched to the short form"
        )


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
    proc = run_suite(copy_workspace(tmp_path / "ws"))
    assert proc.returncode == 0, f"`node --test test/` fails on the workspace: {summary(proc)}"
