"""The links of a crawled page that stay on the page's own host, resolved as a browser does."""

import re
from urllib.parse import urljoin, urlsplit, urlunsplit

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})?")
_UNRESERVED = re.compile(r"[A-Za-z0-9._~-]")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _browser_form(href: str, base_scheme: str) -> str | None:
    """href as a browser reads it, in a form urljoin resolves the same way; None if not http(s)."""
    href = href.strip("".join(map(chr, range(0x21)))).replace("\t", "").replace("\n", "").replace("\r", "")
    m = _SCHEME.match(href)
    scheme = m.group(1).lower() if m else None
    if scheme is not None and scheme not in _DEFAULT_PORTS:
        return None
    rest = href[m.end() :] if m else href
    # in http(s) URLs a backslash is a slash, up to the query or the fragment
    cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    rest = rest[:cut].replace("\\", "/") + rest[cut:]
    if scheme is None or (scheme == base_scheme and not rest.startswith("//")):
        return rest  # relative to the page
    # another scheme than the page's (or "//" after the same one): an authority follows the slashes
    return f"{scheme}://{rest.lstrip('/')}"


def _normalize_escapes(part: str) -> str:
    def fix(m: re.Match[str]) -> str:
        hex_digits = m.group(1)
        if hex_digits is None:
            return "%25"
        char = chr(int(hex_digits, 16))
        return char if _UNRESERVED.fullmatch(char) else "%" + hex_digits.upper()

    return _ESCAPE.sub(fix, part)


def same_site_links(page_url: str, hrefs: list[str]) -> list[str]:
    page = urlsplit(page_url)
    base_scheme = page.scheme.lower()
    own_host = (page.hostname or "").lower()
    found: list[str] = []
    for href in hrefs:
        form = _browser_form(href, base_scheme)
        if form is None:
            continue
        url = urlsplit(urljoin(page_url, form))
        scheme = url.scheme.lower()
        try:
            host, port = url.hostname, url.port
        except ValueError:  # a port that is not a number: no URL a browser follows
            continue
        # our pages live on the shop's domain (www. too)
        if scheme not in _DEFAULT_PORTS or not host or not host.lower().endswith(own_host):
            continue
        netloc = host.lower() if port in (None, _DEFAULT_PORTS[scheme]) else f"{host.lower()}:{port}"
        path = _normalize_escapes(url.path) or "/"
        link = urlunsplit((scheme, netloc, path, _normalize_escapes(url.query), ""))
        if link not in found:
            found.append(link)
    return found
