"""Pick and normalize the same-site links a logged-in crawler follows."""

import re
from urllib.parse import urljoin, urlsplit, urlunsplit

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_PCT = re.compile(r"%([0-9A-Fa-f]{2})|%")
_UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _clean(href: str) -> str:
    href = href.strip(" \t\n\r\f")
    return href.replace("\t", "").replace("\n", "").replace("\r", "")


def _remove_dot_segments(path: str) -> str:
    if not path:
        return path
    out = []
    segments = path.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == ".":
            if last:
                out.append("")
        elif seg == "..":
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    result = "/".join(out)
    if path.startswith("/") and not result.startswith("/"):
        result = "/" + result
    return result


def _fix_escapes(text: str) -> str:
    def repl(m):
        hexd = m.group(1)
        if hexd is None:
            return "%25"
        ch = chr(int(hexd, 16))
        if ch in _UNRESERVED:
            return ch
        return "%" + hexd.upper()

    return _PCT.sub(repl, text)


def _host_matches(host: str, page_host: str) -> bool:
    return host == page_host


def _normalize(url: str, page_host: str):
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        return None
    host = (parts.hostname or "").lower()
    if not host or not _host_matches(host, page_host):
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    path = _remove_dot_segments(parts.path) or "/"
    return urlunsplit((scheme, netloc, _fix_escapes(path), _fix_escapes(parts.query), ""))


def same_site_links(page_url, hrefs) -> list[str]:
    page_host = (urlsplit(page_url).hostname or "").lower()
    seen = set()
    result = []
    for href in hrefs:
        cleaned = _clean(href)
        m = _SCHEME.match(cleaned)
        if m and m.group(1).lower() not in _DEFAULT_PORTS:
            continue
        absolute = urljoin(page_url, cleaned)
        link = _normalize(absolute, page_host)
        if link is not None and link not in seen:
            seen.add(link)
            result.append(link)
    return result
