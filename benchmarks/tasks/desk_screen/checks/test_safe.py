import json
from html.parser import HTMLParser

import pytest
from payloads import not_strings

from test_correct import WORLD

# Markup that, read by a browser, adds an element, an attribute or a script of its own: each is
# found by its "zzx" name, which no page has otherwise.
PAYLOADS = [
    "<zzx-tag>",
    '<img src="x" zzx-onerror="1">',
    "<script>zzx()</script>",
    '"><zzx-tag zzx-attr="1">',
    "' zzx-attr='1",
    '" zzx-attr="1',
    "</li></ul><zzx-tag>",
]


class Injected(HTMLParser):
    """Elements and attributes named zzx, and scripts that call zzx."""

    def __init__(self, body: str):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script = False
        self.feed(body)
        self.close()

    def handle_starttag(self, tag, attrs):
        if "zzx" in tag:
            self.found.append(f"<{tag}>")
        self.found += [f"attribute {name}= on <{tag}>" for name, _ in attrs if "zzx" in name]
        self._script = tag == "script"

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self._script = False

    def handle_data(self, data):
        if self._script and "zzx" in data:
            self.found.append(f"<script>{data}</script>")


# Where a payload goes: the room's name, a title, and the displayName preference (as a string,
# and as values of other JSON types that carry it: arrays, nested arrays, objects, object keys).
def placements(payload: str) -> list[tuple[str, object]]:
    values = [payload, *not_strings(payload), {"k": payload}, {payload: 1}]
    return [("room", payload), ("title", payload)] + [("displayName", v) for v in values]


CASES = [(p, where, value) for p in PAYLOADS for where, value in placements(p)]


@pytest.fixture(scope="module")
def pages(ts_unchecked_batch):
    return ts_unchecked_batch("src/app.ts", WORLD + f"""
        const out = [];
        for (const [where, value] of {json.dumps([[w, v] for _, w, v in CASES])}) {{
          const w = world(where === "room" ? value : "Ada");
          if (where === "displayName") w.prefs(1, {{ displayName: value }});
          w.add(1, 4, where === "title" ? value : "Standup", "2024-03-05T09:00", "2024-03-05T09:15");
          const r = await attemptAsync(() => w.page());
          out.push(r.ok ? {{ status: r.value.status, body: r.value.body }} : {{ status: 0, body: "" }});
        }}
        return out;
    """)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{w}:{json.dumps(v)}" for _, w, v in CASES])
def test_nothing_typed_adds_markup(pages, index):
    _, where, value = CASES[index]
    got = pages[index]
    found = Injected(got["body"]).found if got["status"] == 200 else []
    assert not found, (
        f"with the {where} {json.dumps(value)}, the screen page gains {found} (HTML injection: a value that is not "
        f"escaped, whatever its JSON type, reaches the page as markup): the page was\n{got['body'][:600]}")
