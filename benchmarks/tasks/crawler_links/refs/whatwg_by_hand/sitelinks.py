import re

HEX = "0123456789ABCDEFabcdef"
KEEP = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
PORTS = {"http": "80", "https": "443"}


def fix_percent(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "%":
            pair = s[i + 1:i + 3]
            if len(pair) == 2 and all(c in HEX for c in pair):
                ch = chr(int(pair, 16))
                out.append(ch if ch in KEEP else "%" + pair.upper())
                i += 3
                continue
            out.append("%25")
        else:
            out.append(s[i])
        i += 1
    return "".join(out)


def remove_dots(path):
    out = []
    segs = path.split("/")
    for i, seg in enumerate(segs[1:], 1):
        last = i == len(segs) - 1
        if seg == "..":
            if len(out) > 0:
                out.pop()
            if last:
                out.append("")
        elif seg == ".":
            if last:
                out.append("")
        else:
            out.append(seg)
    return "/" + "/".join(out)


def split(url):
    """(scheme, authority or None, path, query or None) of an absolute-or-relative reference."""
    frag = url.find("#")
    if frag >= 0:
        url = url[:frag]
    query = None
    q = url.find("?")
    if q >= 0:
        url, query = url[:q], url[q + 1:]
    url = url.replace("\\", "/")
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", url)
    scheme = m.group(1).lower() if m else None
    if m:
        url = url[m.end():]
    return scheme, url, query


def same_site_links(page_url, hrefs):
    b_scheme, b_rest, b_query = split(page_url)
    b_auth, _, b_path = b_rest[2:].partition("/")
    b_path = "/" + b_path
    own = b_auth.rpartition("@")[2]
    own_host = re.sub(r":\d*$", "", own).lower()
    result = []
    for raw in hrefs:
        href = re.sub(r"[\t\n\r]", "", raw.strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
                                                 "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "))
        scheme, rest, query = split(href)
        if scheme is not None and scheme not in PORTS:
            continue
        if scheme is not None and scheme != b_scheme:
            rest = "//" + rest.lstrip("/")
        scheme = scheme or b_scheme
        if rest.startswith("//"):
            auth, slash, path = rest[2:].partition("/")
            path = slash + path
        else:
            auth = own
            if rest.startswith("/"):
                path = rest
            elif rest == "":
                path = b_path
                if query is None:
                    query = b_query
            else:
                path = b_path[:b_path.rfind("/") + 1] + rest
        hostport = auth.rpartition("@")[2]
        host, colon, port = hostport.partition(":")
        if host.lower() != own_host or (colon and not port.isdigit() and port != ""):
            continue
        netloc = host.lower() if port in ("", PORTS[scheme]) else f"{host.lower()}:{int(port)}"
        link = f"{scheme}://{netloc}{fix_percent(remove_dots(path or '/'))}"
        if query is not None and query != "":
            link += "?" + fix_percent(query)
        if link not in result:
            result.append(link)
    return result
