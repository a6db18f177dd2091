import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

# A project WEB with `n` issues: ids 1..n, every third one closed, even ids labelled "bug".
WORLD = """
const { Store } = await loadOther("src/store.js");
const createApp = pick('createApp');
const store = new Store({ clock: () => new Date("2024-03-05T12:00:00Z") });
const ann = store.addUser({ login: "ann" });
store.addProject({ key: "WEB", name: "Website", maintainers: [ann.id], labels: [{ name: "bug", color: "#d73a4a" }] });
for (let i = 1; i <= %d; i++) {
  store.addIssue("WEB", { title: `Issue ${i}` + (i %% 5 === 0 ? " crash" : ""), authorId: ann.id, labels: i %% 2 === 0 ? ["bug"] : [] });
  if (i %% 3 === 0) store.setStatus(i, "closed");
}
const app = createApp({ store });
const get = async (url) => {
  const r = await app.handle({ method: "GET", url, headers: {}, body: "" });
  const headers = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = String(v);
  let body = String(r.body);
  try { body = JSON.parse(body); } catch {}
  return { status: r.status, headers, body };
};
"""


def fetch(js, n, urls):
    return js("src/app.js", WORLD % n + f"""
        const out = [];
        for (const url of {json.dumps(urls)}) out.push(await get(url));
        return out;
    """)


def refs(resp):
    body = resp["body"]
    assert isinstance(body, list), f"the body should be a JSON array, got {body!r}"
    return [item["ref"] for item in body]


# One link-value of RFC 8288: <url> and its ;-separated parameters (rel="next" or rel=next).
LINK_VALUE = r'<[^>]*>(?:\s*;\s*[A-Za-z*-]+\s*=\s*(?:"[^"]*"|[^\s,;"]+))*'


def links(resp):
    """rel -> (path, {param: value}) from the Link header."""
    value = resp["headers"].get("link")
    if value is None:
        return {}
    assert not value.strip() or re.fullmatch(rf"\s*{LINK_VALUE}(?:\s*,\s*{LINK_VALUE})*\s*", value), (
        f"the Link header {value!r} should be a comma-separated list of <url>; rel=\"...\" entries (RFC 8288)")
    found = {}
    for m in re.finditer(r'<([^>]*)>\s*;\s*rel="?([a-z]+)"?', value):
        parts = urlsplit(m.group(1))
        found[m.group(2)] = (parts.path, {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()})
    assert found or not value.strip(), f"the Link header {value!r} has no entries like <url>; rel=\"next\""
    return found


def all_refs(n, keep=lambda i: i % 3 != 0):
    return [f"WEB-{i}" for i in range(n, 0, -1) if keep(i)]


def test_defaults_first_page_of_thirty(js):
    (r,) = fetch(js, 70, ["/api/projects/WEB/issues"])
    assert r["status"] == 200, r
    assert refs(r) == all_refs(70)[:30], f"page 1 should hold the 30 newest open issues, got {refs(r)}"
    assert r["headers"].get("x-total-count") == str(len(all_refs(70))), f"X-Total-Count: {r['headers']}"
    got = links(r)
    assert set(got) == {"next"}, f"page 1 of 2 should have a next link only, Link: {r['headers'].get('link')!r}"
    path, params = got["next"]
    if params.get("per_page") == "30":
        del params["per_page"]  # spelling out the default changes nothing
    assert (path, params) == ("/api/projects/WEB/issues", {"page": "2"}), got


@pytest.mark.parametrize("n, per_page", [(23, 7), (20, 10), (10, 10), (1, 5), (31, 30), (12, 1)])
def test_following_next_walks_every_issue_once(js, n, per_page):
    expected = all_refs(n, keep=lambda i: True)
    url = f"/api/projects/WEB/issues?state=all&per_page={per_page}"
    pages = fetch(js, n, [url] + [f"{url}&page={p}" for p in range(1, n // per_page + 3)])
    seen, page_links = [], []
    for number, resp in enumerate(pages[1:], start=1):
        assert resp["status"] == 200, f"page {number}: {resp}"
        got = links(resp)
        page_links.append((number, sorted(got)))
        seen += refs(resp)
        last = (n + per_page - 1) // per_page
        if number < last:
            assert "next" in got and got["next"][1].get("page") == str(number + 1), (
                f"{n} issues, per_page={per_page}: page {number} should link to page {number + 1} as next; "
                f"Link: {resp['headers'].get('link')!r}")
        else:
            assert "next" not in got, (
                f"{n} issues, per_page={per_page}: page {number} has no later issues, so no next link; "
                f"Link: {resp['headers'].get('link')!r}")
        if number > 1:
            assert "prev" in got and got["prev"][1].get("page") == str(number - 1), (
                f"page {number} should link to page {number - 1} as prev; Link: {resp['headers'].get('link')!r}")
        else:
            assert "prev" not in got, f"page 1 has no prev; Link: {resp['headers'].get('link')!r}"
        assert resp["headers"].get("x-total-count") == str(n), f"X-Total-Count on page {number}: {resp['headers']}"
    assert refs(pages[0]) == refs(pages[1]), "no page parameter should be page 1"
    assert seen == expected, f"the pages together should hold every issue once, newest first: {seen}"


def test_links_keep_the_other_parameters(js):
    url = "/api/projects/WEB/issues?state=all&label=bug&q=issue&per_page=2&page=2"
    (r,) = fetch(js, 12, [url])
    assert refs(r) == ["WEB-8", "WEB-6"], f"page 2 of the bugs, 2 per page: {refs(r)}"
    got = links(r)
    keep = {"state": "all", "label": "bug", "q": "issue", "per_page": "2"}
    assert got.get("next") == ("/api/projects/WEB/issues", {**keep, "page": "3"}), f"next link: {got}"
    assert got.get("prev") == ("/api/projects/WEB/issues", {**keep, "page": "1"}), f"prev link: {got}"
    assert r["headers"].get("x-total-count") == "6", r["headers"]


def test_filters_apply_before_paging(js):
    (r,) = fetch(js, 30, ["/api/projects/WEB/issues?q=crash&per_page=2&page=2"])
    assert refs(r) == ["WEB-10", "WEB-5"], f"the open crashes are 25, 20, 10, 5: page 2 of 2 per page, got {refs(r)}"
    assert r["headers"].get("x-total-count") == "4", r["headers"]


def test_page_past_the_end_is_empty(js):
    first, past, far = fetch(js, 5, ["/api/projects/WEB/issues?state=all&per_page=5",
                                     "/api/projects/WEB/issues?state=all&per_page=5&page=2",
                                     "/api/projects/WEB/issues?state=all&per_page=5&page=9"])
    assert links(first) == {}, f"one page only: no Link header, got {first['headers'].get('link')!r}"
    for r, page in ((past, 2), (far, 9)):
        assert r["status"] == 200 and r["body"] == [], f"page {page} of a one-page list should be 200 []: {r}"
        assert r["headers"].get("x-total-count") == "5", r["headers"]
        got = links(r)
        assert "next" not in got and got.get("prev", (None, {}))[1].get("page") == str(page - 1), (
            f"page {page} should have only a prev link (page {page - 1}); Link: {r['headers'].get('link')!r}")


def test_no_issues(js):
    (r,) = fetch(js, 0, ["/api/projects/WEB/issues"])
    assert r["status"] == 200 and r["body"] == [], r
    assert r["headers"].get("x-total-count") == "0" and "link" not in r["headers"], r["headers"]


@pytest.mark.parametrize("per_page, expected", [("100", 100), ("101", 100), ("500", 100), ("99", 99), ("1", 1)])
def test_per_page_is_capped_at_100(js, per_page, expected):
    (r,) = fetch(js, 150, [f"/api/projects/WEB/issues?state=all&per_page={per_page}"])
    assert len(refs(r)) == expected, f"per_page={per_page} should give {expected} issues, got {len(refs(r))}"


def test_page_and_per_page_defaults_together(js):
    (r,) = fetch(js, 95, ["/api/projects/WEB/issues?state=all&page=4"])
    assert refs(r) == [f"WEB-{i}" for i in range(5, 0, -1)], f"page 4 of 30 per page: {refs(r)}"
    assert "next" not in links(r)


@pytest.mark.parametrize("query", [
    "page=0", "page=-1", "page=2.5", "page=abc", "page=1e2", "page=", "page=2abc", "page=%201", "page=+2",
    "per_page=0", "per_page=-5", "per_page=10.0", "per_page=ten", "per_page=", "per_page=0x10",
])
def test_bad_paging_parameters_are_400(js, query):
    (r,) = fetch(js, 5, [f"/api/projects/WEB/issues?{query}"])
    assert r["status"] == 400, f"?{query} should be a 400, got {r['status']}"
    assert isinstance(r["body"], dict) and isinstance(r["body"].get("error"), str), f"the usual error body: {r['body']!r}"


@pytest.mark.parametrize("query, expected", [("page=01", ["WEB-5", "WEB-4"]), ("page=0002", ["WEB-3", "WEB-2"])])
def test_leading_zeros_are_digits(js, query, expected):
    (r,) = fetch(js, 5, [f"/api/projects/WEB/issues?state=all&per_page=2&{query}"])
    assert r["status"] == 200 and refs(r) == expected, f"?{query}: {r['status']} {r['body']!r}"


def test_other_endpoints_unchanged(js):
    one, missing, bad_state = fetch(js, 3, ["/api/issues/2", "/api/projects/NOPE/issues",
                                            "/api/projects/WEB/issues?state=stale"])
    assert one["status"] == 200 and one["body"]["ref"] == "WEB-2", one
    assert missing["status"] == 404 and bad_state["status"] == 400, (missing, bad_state)


def test_links_keep_encoded_values(js):
    # Other parameters keep their values exactly: an encoded & or = stays inside its value, + is
    # a space, and a stray % (which URLSearchParams keeps as it is) neither fails the request nor
    # changes on the way into the link.
    url = "/api/projects/WEB/issues?state=all&utm=a%26b%3Dc&note=100%25&sp=a+b&raw=100%&page=2&per_page=2"
    (r,) = fetch(js, 12, [url])
    assert r["status"] == 200 and refs(r) == ["WEB-10", "WEB-9"], f"{url}: {r['status']} {r['body']!r}"
    got = links(r)
    keep = {"state": "all", "utm": "a&b=c", "note": "100%", "sp": "a b", "raw": "100%", "per_page": "2"}
    assert got.get("next") == ("/api/projects/WEB/issues", {**keep, "page": "3"}), (
        f"the next link should keep every other parameter with its value: {got}")
    assert got.get("prev") == ("/api/projects/WEB/issues", {**keep, "page": "1"}), (
        f"the prev link should keep every other parameter with its value: {got}")
