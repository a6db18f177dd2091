import importlib

import pytest

import payloads

PAGE = "https://Shop.Example/catalog/shoes/index.html?page=2#top"
HTTP_PAGE = "http://shop.example/catalog/shoes/index.html"
S = "https://shop.example"


def load():
    try:
        return importlib.import_module("sitelinks")
    except Exception as exc:
        pytest.fail(f"could not import sitelinks.py: {exc!r}")


def links(page, hrefs):
    mod = load()
    try:
        got = mod.same_site_links(page, list(hrefs))
    except Exception as exc:
        pytest.fail(f"same_site_links({page!r}, {hrefs!r}) raised {exc!r}")
    return list(got)


KEPT = [
    ("red.html", S + "/catalog/shoes/red.html"),
    ("../bags/", S + "/catalog/bags/"),
    ("../../../../top", S + "/top"),
    ("./a/./b/../c", S + "/catalog/shoes/a/c"),
    ("/about", S + "/about"),
    ("?page=3", S + "/catalog/shoes/index.html?page=3"),
    ("#reviews", S + "/catalog/shoes/index.html?page=2"),
    ("//shop.example/cart", S + "/cart"),
    ("//SHOP.example:443/cart", S + "/cart"),
    ("HTTPS://SHOP.EXAMPLE/Sale/Boots", S + "/Sale/Boots"),
    ("Https://shop.EXAMPLE/x?Q=A", S + "/x?Q=A"),
    ("http://shop.example:80/x", "http://shop.example/x"),
    ("http://shop.example:8080/x", "http://shop.example:8080/x"),
    ("https://shop.example:8443/x", S + ":8443/x"),
    ("https://shop.example:443/x", S + "/x"),
    ("https://shop.example:80/x", S + ":80/x"),
    ("http://shop.example:443/x", "http://shop.example:443/x"),
    ("https://user:pw@shop.example/acct", S + "/acct"),
    ("https://user@shop.example", S + "/"),
    ("https://shop.example", S + "/"),
    ("https://shop.example?x=1", S + "/?x=1"),
    ("\\catalog\\boots.html", S + "/catalog/boots.html"),
    ("boots\\black.html", S + "/catalog/shoes/boots/black.html"),
    ("\\\\shop.example\\cart", S + "/cart"),
    ("https:\\\\shop.example\\x", S + "/x"),
    (" /trim ", S + "/trim"),
    ("\t\n /lead", S + "/lead"),
    ("/ta\tb\nl\re", S + "/table"),
    ("/%7Euser/%41b%2fc%2Fd", S + "/~user/Ab%2Fc%2Fd"),
    ("/%2D%2e%5F%7e%30%7A", S + "/-._~0z"),
    ("/sale-50%", S + "/sale-50%25"),
    ("/a%zz%4", S + "/a%25zz%254"),
    ("/100%%", S + "/100%25%25"),
    ("/%", S + "/%25"),
    ("/q?x=%7e&y=%e2%82%ac&z=100%", S + "/q?x=~&y=%E2%82%AC&z=100%25"),
    ("/caf%C3%A9", S + "/caf%C3%A9"),
    ("/caf%c3%a9", S + "/caf%C3%A9"),
    ("/a%20b%3f%23", S + "/a%20b%3F%23"),
    ("/sp ace", S + "/sp ace"),
    ("/x#frag", S + "/x"),
    ("/x?q#frag%zz", S + "/x?q"),
    ("/s?x", S + "/s?x"),
    ("dir\\", S + "/catalog/shoes/dir/"),
    ("sub/..", S + "/catalog/shoes/"),
    ("..", S + "/catalog/"),
    ("./", S + "/catalog/shoes/"),
    ("https://shop.example:/x", S + "/x"),
]


@pytest.mark.parametrize("href, want", KEPT, ids=[k[0] for k in KEPT])
def test_a_same_site_link_is_kept_normalized(href, want):
    got = links(PAGE, [href])
    assert got == [want], f"same_site_links({PAGE!r}, [{href!r}]) returned {got!r}, expected [{want!r}]"


DROPPED = [
    "mailto:sales@shop.example", "javascript:alert(1)", "JavaScript:void(0)", "tel:+15550100",
    "ftp://shop.example/file", "data:text/html,hi", "https://other.example/", "//other.example/x",
    "https://shop.example.other.example/", "https://example/", "https://shop.example:abc/",
    "https://other.example/?u=https://shop.example/", "https://user@other.example/",
    "/\\other.example/", "\\\\other.example", "\\/other.example/", "/\t/other.example/",
    " //other.example", "https:/\\other.example/", "http:other.example",
    *payloads.SCRIPT_HREFS,
]


@pytest.mark.parametrize("href", DROPPED)
def test_other_hosts_and_schemes_are_dropped(href):
    got = links(PAGE, [href])
    assert got == [], f"same_site_links({PAGE!r}, [{href!r}]) returned {got!r}, expected []"


@pytest.mark.parametrize("href", payloads.OFFSITE_TARGETS)
def test_offsite_targets_are_dropped(href):
    got = links(HTTP_PAGE, [href])
    assert got == [], f"same_site_links({HTTP_PAGE!r}, [{href!r}]) returned {got!r}, expected []"


def test_same_scheme_without_slashes_is_relative():
    got = links(PAGE, ["https:other.html", "HTTPS:/rooted"])
    want = [S + "/catalog/shoes/other.html", S + "/rooted"]
    assert got == want, (f"same_site_links({PAGE!r}, ['https:other.html', 'HTTPS:/rooted']) returned {got!r}, "
                         f"expected {want!r}: a browser reads the page's own scheme without // as relative")


def test_a_page_url_in_capitals():
    page = "HTTPS://SHOP.EXAMPLE/A/b.html"
    got = links(page, ["https:c.html", "//shop.example/d", "HTTP://Shop.Example/e"])
    want = [S + "/A/c.html", S + "/d", "http://shop.example/e"]
    assert got == want, f"same_site_links({page!r}, ...) returned {got!r}, expected {want!r}"


def test_each_link_once_in_the_order_first_found():
    hrefs = ["/b", "/a", "other.html", "/b#x", "HTTPS://shop.example/a", "mailto:x@y", "/c", "/%62"]
    got = links(PAGE, hrefs)
    want = [S + "/b", S + "/a", S + "/catalog/shoes/other.html", S + "/c"]
    assert got == want, f"same_site_links({PAGE!r}, {hrefs!r}) returned {got!r}, expected {want!r}"


def test_a_page_on_another_port_and_scheme():
    page = "http://SHOP.example:8080/dir/page"
    got = links(page, ["x", "//shop.example/y", "https://shop.example/z", "/w?"])
    got = [g.rstrip("?") for g in got]  # an empty query is left open
    want = ["http://shop.example:8080/dir/x", "http://shop.example/y", S + "/z", "http://shop.example:8080/w"]
    assert got == want, f"same_site_links({page!r}, ...) returned {got!r}, expected {want!r}"


def test_no_links():
    assert links(PAGE, []) == [], "same_site_links(page, []) must return []"
