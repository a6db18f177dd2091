import json

import pytest

DOCS = [("# Steps\n\n1. Open **Settings**\n2. Click `Save`\n\n- a _b_ c\n- ~~old~~ new  \nnext\n\n> quoted [docs](https://example.com/a?b=1&c=2)\n\n```js\nconst a = '<x>';\n```\n\nsee <https://example.com/x> and [home](/) or [top](#top)", '<h3>Steps</h3>\n<ol>\n<li>Open <strong>Settings</strong></li>\n<li>Click <code>Save</code></li>\n</ol>\n<ul>\n<li>a <em>b</em> c</li>\n<li><del>old</del> new  </li>\n</ul>\n<p>next</p>\n<blockquote><p>quoted <a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">docs</a></p></blockquote>\n<pre><code class="language-js">const a = &#39;&lt;x&gt;&#39;;</code></pre>\n<p>see <a href="https://example.com/x" rel="nofollow noopener">https://example.com/x</a> and <a href="/" rel="nofollow noopener">home</a> or <a href="#top" rel="nofollow noopener">top</a></p>'), ('Tom & Jerry <b>bold</b> "q" \'q\' [a](http://x.y/"z) **[b](mailto:b@example.com)**', '<p>Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; &quot;q&quot; &#39;q&#39; <a href="http://x.y/&quot;z" rel="nofollow noopener">a</a> <strong><a href="mailto:b@example.com" rel="nofollow noopener">b</a></strong></p>')]

LINK = '<a href="{href}" rel="nofollow noopener">{text}</a>'


def render(js, texts, fn="renderMarkdown"):
    return js("src/markdown.js", f"""
        const render = pick({json.dumps(fn)});
        if (typeof render !== "function") throw new Error("src/markdown.js does not export {fn}");
        return {json.dumps(texts)}.map((t) => render(t));
    """)


ALLOWED = [
    "https://example.com/docs", "http://example.com", "HTTPS://EXAMPLE.COM/A", "Http://x.org/?q=1",
    "mailto:ann@example.com", "MAILTO:ann@example.com", "/issues/3", "/", "#comment-2", "?state=all",
    "//cdn.example.com/logo.png", "https://example.com/a?b=1&c=2",
]
OTHER = [
    "javascript:alert.call", "JavaScript:history.back", "ftp://example.com/f", "data:text/html,hi",
    "vbscript:msgbox", "file:///etc/passwd", "docs/page.md", "www.example.com", "mailto", "https:/x",
    "tel:+15551234", "about:blank", "httpx://x",
]


@pytest.fixture(scope="module")
def inline(js_batch):
    """renderInline of every link below, in one node run: source -> output (or 'throws ...')."""
    texts = [f"see [the page]({url}) now" for url in ALLOWED] + [f"see [click **me**]({url}) now" for url in OTHER]
    got = js_batch("src/markdown.js", f"""
        const render = pick("renderInline");
        if (typeof render !== "function") throw new Error("src/markdown.js does not export renderInline");
        return {json.dumps(texts)}.map((t) => {{
            const r = attempt(() => render(t));
            return r.ok ? String(r.value) : "throws " + r.name + ": " + r.message;
        }});
    """)
    return dict(zip(texts, got))


@pytest.mark.parametrize("url", ALLOWED)
def test_allowed_links_stay_links(inline, url):
    got = inline[f"see [the page]({url}) now"]
    href = url.replace("&", "&amp;")
    expected = "see " + LINK.format(href=href, text="the page") + " now"
    assert got == expected, f"[the page]({url}) should stay a link as before: expected {expected!r}, got {got!r}"


@pytest.mark.parametrize("url", OTHER)
def test_other_links_show_their_text_alone(inline, url):
    got = inline[f"see [click **me**]({url}) now"]
    assert got == "see click <strong>me</strong> now", (
        f"[click **me**]({url}) should render as its text alone ('see click <strong>me</strong> now'), got {got!r}")


def test_refused_link_in_a_block(js):
    got = render(js, ["- [a](ftp://x) and [b](https://x)", "> [c](data:x)"])
    assert got == ["<ul>\n<li>a and " + LINK.format(href="https://x", text="b") + "</li>\n</ul>",
                   "<blockquote><p>c</p></blockquote>"], f"links inside lists and quotes: {got!r}"


@pytest.mark.parametrize("case", range(2))
def test_the_rest_of_markdown_is_unchanged(js, case):
    source, expected = DOCS[case]
    (got,) = render(js, [source])
    assert got == expected, f"renderMarkdown({source!r}) changed: expected {expected!r}, got {got!r}"


def test_autolinks_still_work(js):
    (got,) = render(js, ["<https://example.com/x>"], "renderInline")
    assert got == LINK.format(href="https://example.com/x", text="https://example.com/x"), got
