"""One debug-log line per HTTP request, with its secrets redacted."""

import json
from urllib.parse import unquote_plus, urlsplit, urlunsplit

REDACTED = "[REDACTED]"
SECRET_HEADERS = {"authorization", "proxy-authorization", "cookie"}
SECRET_WORDS = ("token", "secret", "password", "key")


def _is_secret_name(name: str) -> bool:
    return any(word in name for word in SECRET_WORDS)


def _redact_headers(headers: dict[str, str]) -> dict[str, str]:
    out = {}
    for name, value in headers.items():
        if name.lower() in SECRET_HEADERS or _is_secret_name(name):
            out[name] = REDACTED
        else:
            out[name] = value
    return out


def _redact_query(query: str) -> str:
    if not query:
        return query
    parts = []
    for part in query.split("&"):
        name, sep, _value = part.partition("=")
        if _is_secret_name(unquote_plus(name).lower()):
            parts.append(f"{name}={REDACTED}")
        else:
            parts.append(part)
    return "&".join(parts)


def _redact_userinfo(netloc: str) -> str:
    userinfo, at, hostport = netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return netloc
    user = userinfo.split(":", 1)[0]
    return f"{user}:{REDACTED}@{hostport}"


def redact_url(url: str) -> str:
    """The URL with its password and secret query parameters replaced by [REDACTED]."""
    parts = urlsplit(url)
    netloc = _redact_userinfo(parts.netloc)
    query = _redact_query(parts.query)
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def log_line(method: str, url: str, headers: dict[str, str]) -> str:
    """The line to log for a request: METHOD URL {headers as JSON}, secrets redacted."""
    return f"{method} {redact_url(url)} {json.dumps(_redact_headers(headers))}"
