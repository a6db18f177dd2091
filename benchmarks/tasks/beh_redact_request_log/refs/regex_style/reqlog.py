import json
import re
from urllib.parse import unquote

SECRET_WORDS = re.compile(r"token|secret|password|key", re.IGNORECASE)
ALWAYS = {"authorization", "proxy-authorization", "cookie"}
# scheme://user:password@ -- the password is everything up to the last @ of the authority
USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)([^/?#@:]*):[^/?#]*@")


def _param(match: re.Match[str]) -> str:
    name = match.group(2)
    if SECRET_WORDS.search(unquote(name.replace("+", " "))):
        return f"{match.group(1)}{name}=[REDACTED]"
    return match.group(0)


def _clean_url(url: str) -> str:
    url = USERINFO.sub(lambda m: f"{m.group(1)}{m.group(2)}:[REDACTED]@", url, count=1)
    base, qmark, rest = url.partition("?")
    if not qmark:
        return url
    query, hash_, fragment = rest.partition("#")
    query = re.sub(r"(^|&)([^&=]*)=?[^&]*", _param, query)
    return f"{base}?{query}{hash_}{fragment}"


def log_line(method, url, headers):
    out = {}
    for name, value in headers.items():
        secret = name.lower() in ALWAYS or SECRET_WORDS.search(name)
        out[name] = "[REDACTED]" if secret else value
    return " ".join([method, _clean_url(url), json.dumps(out)])
