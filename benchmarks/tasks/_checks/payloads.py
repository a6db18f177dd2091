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
