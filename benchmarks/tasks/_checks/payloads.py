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
