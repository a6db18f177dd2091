import html
import json
import re
from html.parser import HTMLParser

import pytest
from payloads import SCRIPT_HREFS


class Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "action", "formaction", "xlink:href"):
                self.hrefs.append(value or "")


def scheme_a_browser_sees(href):
    """What a browser does to a URL before it picks the scheme: drop leading and trailing C0
    controls and spaces, remove tabs and newlines anywhere, compare without case."""
    url = href.strip("".join(chr(c) for c in range(0x21)))
    url = re.sub(r"[\t\n\r]", "", url)
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", url)
    return m.group(1).lower() if m else None


PAYLOADS = [
    "[x](javascript:alert(1))",
    "[x](JavaScript:alert(1))",
    "[x](JAVASCRIPT:alert(document.cookie))",
    "[x](\x01javascript:alert(1))",
    "[x](\x1fjavascript:alert(1))",
    "[x](javajavascript:script:alert(1))",
    "[x](javascript:alert//https://example.com)",
    "[x](javascript:top.eval.call//mailto:x)",
    "[x](javascript://%0Aalert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](VBScript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](Data:text/html,<script>alert(1)</script>)",
    "- item [x](javascript:alert(1))",
    "> [x](javascript:alert(1))",
    "# [x](javascript:alert(1))",
    "**[x](javascript:alert(1))**",
    "[x](javascript&colon;alert(1))",
    "<javascript:alert(1)>",
]
# ... and the suite's shared list: hrefs a browser runs as script though their text shows
# another scheme, or none (a tab or newline inside, a control or space before).
PAYLOADS += [p for p in (f"[x]({h})" for h in SCRIPT_HREFS) if p not in PAYLOADS]


@pytest.fixture(scope="module")
def rendered(js_batch):
    """renderMarkdown of every payload, in one node run ('' where it throws: nothing rendered)."""
    got = js_batch("src/markdown.js", f"""
        const render = pick('renderMarkdown');
        return {json.dumps(PAYLOADS)}.map((p) => {{
            const r = attempt(() => render(p));
            return r.ok ? String(r.value) : "";
        }});
    """)
    return dict(zip(PAYLOADS, got))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_no_script_link_survives(rendered, payload):
    got = rendered[payload]
    parser = Links()
    parser.feed(got)
    parser.close()
    bad = [h for h in parser.hrefs if scheme_a_browser_sees(h) in ("javascript", "vbscript", "data")]
    assert not bad, (
        f"renderMarkdown({payload!r}) gave a link a browser runs as a script: {html.unescape(bad[0])!r} "
        f"in {got!r}; keep a link only when its URL starts with http://, https://, mailto:, /, # or ?")
