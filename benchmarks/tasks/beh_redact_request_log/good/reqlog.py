"""One debug-log line per outgoing HTTP request, with its secrets redacted."""

import json
from urllib.parse import unquote_plus, urlsplit, urlunsplit

REDACTED = "[REDACTED]"
_SECRET_HEADERS = {"authorization", "proxy-authorization", "cookie"}
_SECRET_PARTS = ("token", "secret", "password", "key")


def _secret_name(name: str) -> bool:
    lowered = name.lower()
    return any(part in lowered for part in _SECRET_PARTS)


def _redact_query(query: str) -> str:
    # Pair by pair, each kept byte for byte unless its decoded name is a secret's.
    pairs = []
    for pair in query.split("&"):
        name, sep, _value = pair.partition("=")
        if _secret_name(unquote_plus(name)):
            pair = f"{name}={REDACTED}"
        pairs.append(pair)
    return "&".join(pairs)


def _redact_url(url: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc
    userinfo, at, host = netloc.rpartition("@")
    if at and ":" in userinfo:
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:{REDACTED}@{host}"
    query = _redact_query(parts.query) if parts.query else parts.query
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def log_line(method: str, url: str, headers: dict[str, str]) -> str:
    """METHOD URL {headers as JSON}, with secret header values, query values and URL password
    replaced by [REDACTED]."""
    shown = {
        name: REDACTED if name.lower() in _SECRET_HEADERS or _secret_name(name) else value
        for name, value in headers.items()
    }
    return f"{method} {_redact_url(url)} {json.dumps(shown)}"
