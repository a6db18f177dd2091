"""Mutation testing of the shipped tasks' checks: how many small bugs in a correct solution do
the hidden checks catch?

Run from the repository root:
``python scripts/mutate_refs.py [--tasks a,b] [--changed-since GITREF] [--jobs 2] [--list]``.

For each task it takes the references that must pass (``good/`` and every ``refs/<name>/``
declared ``correct, safe``), makes mutants of the code they add (the lines that differ from
the seed or fixture; test files left out), and scores each mutant with the task's hidden checks
through the project's own sandboxed scorer (``workspace.lay`` + ``scoring.score``, as the
selftest does). A mutant is killed when it is scored not correct or not safe.

The mutator is a small AST one (a mutation library drives its own test runner; here the
scoring has to be the sandboxed scorer's): each operator edits the source text of one node, so
a mutant differs from its reference by one small diff and comments survive. Operators:
``compare`` (< <=, > >=, == !=, in / not in, is / is not), ``boolop`` (and / or), ``not``
(dropped), ``number`` (n+1 and n-1), ``bool`` (True / False), ``string`` (a literal emptied),
``guard`` (an ``if ...: raise/return/continue/break`` without else dropped), ``filter`` (a
comprehension's ``if`` dropped), ``drop_call`` (a sanitizer such as ``html.escape``,
``shlex.quote``, ``os.path.realpath``, ``.resolve()``, ``.strip()`` replaced by its argument),
``swap_call`` (``compare_digest(a, b)`` -> ``a == b``), ``regex`` (``\\Z`` -> ``$``, ``\\A``
-> ``^``, a leading ``^`` or final ``$`` dropped, ``fullmatch`` -> ``match`` -> ``search``) and
``drop_kwarg`` (``encoding=``, ``errors=``, ``newline=``, ``check=``, ``filter=``, ``mode=``,
``safe=``, ``quote=``, ``strict=``, ``follow_symlinks=``).

JavaScript files (``.js``, ``.mjs``, ``.cjs``) get a mutator over tokens: a small tokenizer of
the script's own that reads strings, template literals (their text apart from the code in
``${...}``), regular expression literals (a ``/`` where an expression may start) and comments,
so an operator never edits inside them by mistake. A parser would have to come from npm, which
the scorer's machine may not reach, and every operator is one token's edit (or a guard's span,
found by its brackets), which tokens suffice for; node, where present, then compiles every
mutant (``vm``, nothing run) and one it cannot parse is left out with a note on stderr. The
operators, in the spirit of Python's: ``compare`` (< <=, > >=, === !==, == !=), ``boolop``
(each && / ||), ``not`` (a ``!`` dropped), ``number`` (n+1, n-1; hex, BigInt and separators
kept), ``bool`` (true / false), ``string`` (a string or a template without substitutions
emptied; object keys, ``obj["key"]``, directives, import sources and ``require()`` arguments
left alone), ``guard`` (``if (...) return/throw/continue/break ...;``, or a block ending in one,
without else, dropped), ``drop_call`` (``encodeURIComponent``, ``encodeURI``, the file's own
``escape*``/``sanitize*``/``quote*`` helpers, ``path.resolve``/``normalize``/``basename`` and
``fs.realpath`` however imported -- several arguments joined with "/" --, ``.trim()``,
``.toLowerCase()``), ``swap_call`` (``timingSafeEqual(a, b)`` -> ``a.equals(b)``) and ``regex``
(a leading ``^`` or final ``$`` dropped from a regex literal or a ``RegExp`` pattern given as a
string, a template or a concatenation). ``throw`` statements and ``new ...Error(...)`` are left
alone, as a Python ``raise`` is.

A mutant's id is a hash of the reference, the file, the operator, the source lines it changes
(before and after, whitespace collapsed) and its rank among mutants with the same four, so it
survives unrelated edits. A survivor is either killed by a new or sharper check or marked
equivalent in the task's ``mutants.toml`` (``[equivalent]``: id = "why no check can tell").
The script writes each task's figure into that file (``[result]``) and lists the survivors
(``[survived]``); the selftest prints the figure.

More than ``--max-mutants`` mutants per task (default 120) are cut to that many, chosen by id
(a fixed pseudo-random sample that unrelated edits do not reshuffle). The exit status is 1 when
a task is below ``--goal`` (default 0.9 of its non-equivalent mutants killed).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import dataclasses
import difflib
import functools
import hashlib
import json
import multiprocessing
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pytest_ponybench.core.tasks import Task, TaskError, load_task, load_tasks
from pytest_ponybench.scoring import workspace
from pytest_ponybench.scoring.checks import Score, score, take_probe

REPO = Path(__file__).resolve().parents[1]
MUTANTS_FILE = "mutants.toml"
ID_LENGTH = 10
DEFAULT_GOAL = 0.9
DEFAULT_MAX_MUTANTS = 120
DEFAULT_TIMEOUT_S = 30.0

SANITIZERS = frozenset(
    {
        "escape",
        "escape_text",
        "quote",
        "quote_plus",
        "quote_from_bytes",
        "realpath",
        "abspath",
        "normpath",
        "normcase",
        "resolve",
        "basename",
        "strip",
        "lstrip",
        "rstrip",
        "lower",
        "casefold",
    }
)
DROPPABLE_KWARGS = frozenset(
    {
        "encoding",
        "errors",
        "newline",
        "check",
        "filter",
        "mode",
        "safe",
        "quote",
        "strict",
        "follow_symlinks",
    }
)
REGEX_FUNCTIONS = frozenset(
    {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}
)
MATCH_SWAPS = {"fullmatch": "match", "match": "search"}
COMPARE_FLIPS: dict[type[ast.cmpop], tuple[str, str]] = {
    # operator -> (a regex that finds its token between the operands, the flipped token)
    ast.Lt: (r"<(?!=)", "<="),
    ast.LtE: (r"<=", "<"),
    ast.Gt: (r">(?!=)", ">="),
    ast.GtE: (r">=", ">"),
    ast.Eq: (r"==", "!="),
    ast.NotEq: (r"!=", "=="),
    ast.In: (r"(?<![\w])in\b", "not in"),
    ast.NotIn: (r"\bnot\s+in\b", "in"),
    ast.Is: (r"\bis\b(?!\s+not\b)", "is not"),
    ast.IsNot: (r"\bis\s+not\b", "is"),
}
ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple, ast.Dict)


class MutantsFileError(Exception):
    """A task's mutants.toml is malformed; the message names the file and the key."""


# --------------------------------------------------------------------------------------------
# Source text and edits


@dataclass(frozen=True)
class Edit:
    """Replace text[start:end] with `text`: one mutation of one source file."""

    operator: str
    start: int
    end: int
    text: str


class Source:
    """A file's text with ast positions (lines from 1, columns in UTF-8 bytes) as offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        """(start, end) offsets of a node that has positions (an expr, stmt or keyword)."""
        lineno, col, end_lineno, end_col = (
            getattr(node, key) for key in ("lineno", "col_offset", "end_lineno", "end_col_offset")
        )
        return self.offset(lineno, col), self.offset(end_lineno, end_col)

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    def line_of(self, offset: int) -> int:
        """1-based line of a character offset."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1


def _parented(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _docstrings(tree: ast.AST) -> set[ast.AST]:
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            for stmt in node.body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    found.add(stmt.value)  # a docstring or any bare literal statement
    return found


def _callee(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _wrap(text: str, node: ast.AST) -> str:
    return text if isinstance(node, ATOMS) else f"({text})"


def _number_text(original: str, value: int | float) -> str:
    if isinstance(value, int) and original[:2].lower() in ("0x", "0o", "0b") and value >= 0:
        base = original[:2].lower()
        body = format(value, {"0x": "x", "0o": "o", "0b": "b"}[base])
        return original[:2] + (body.upper() if original[2:].isupper() else body)
    text = repr(value)
    return f"({text})" if value < 0 else text


def _regex_variants(pattern: str) -> Iterator[str]:
    """Weaker anchors: \\Z -> $, \\A -> ^, a leading ^ or a final $ dropped."""
    for old, new in ((r"\Z", "$"), (r"\A", "^")):
        for m in re.finditer(re.escape(old), pattern):
            if _escaped(pattern, m.start()):
                continue
            yield pattern[: m.start()] + new + pattern[m.end() :]
    if pattern.startswith("^"):
        yield pattern[1:]
    if pattern.endswith("$") and not _escaped(pattern, len(pattern) - 1):
        yield pattern[:-1]


def _escaped(text: str, index: int) -> bool:
    """Whether text[index] is preceded by an odd number of backslashes."""
    n = 0
    while index - n - 1 >= 0 and text[index - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def _literal(segment: str, value: str) -> str:
    """value as a string literal, kept raw when the original was one simple raw literal."""
    m = re.fullmatch(r"([rR])(\"|')(.*)\2", segment, re.DOTALL)
    if m and m.group(2) not in value and "\n" not in value and not value.endswith("\\"):
        return f"{m.group(1)}{m.group(2)}{value}{m.group(2)}"
    return repr(value)


def edits(source: Source, tree: ast.Module) -> Iterator[Edit]:
    """Every mutation the operators make of the file."""
    return _Mutator(source, tree).edits()


class _Mutator:
    """The operators over one parsed file; each yields Edits of its source text."""

    def __init__(self, source: Source, tree: ast.Module) -> None:
        self.source, self.text, self.tree = source, source.text, tree
        self.parents = _parented(tree)
        self.docstrings = _docstrings(tree)
        self.in_fstring = {n for js in ast.walk(tree) if isinstance(js, ast.JoinedStr) for n in ast.walk(js)}

    def inside(self, node: ast.AST, kinds: tuple[type[ast.AST], ...]) -> bool:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, kinds):
                return True
        return False

    def placed(self, *nodes: ast.AST) -> bool:
        """Whether the nodes' positions hold their text: inside an f-string, 3.11 gets some
        wrong (its literal parts span the whole string), so the text must parse back to them."""
        for n in nodes:
            if n not in self.in_fstring:
                continue
            if isinstance(n, ast.JoinedStr) or isinstance(self.parents.get(n), ast.JoinedStr):
                return False
            try:
                if ast.dump(ast.parse(self.source.segment(n).strip(), mode="eval").body) != ast.dump(n):
                    return False
            except (SyntaxError, ValueError):
                return False
        return True

    def edits(self) -> Iterator[Edit]:
        for node in ast.walk(self.tree):
            if self.inside(node, (ast.Raise,)):
                continue  # what an exception says is not behaviour the checks judge
            if isinstance(node, ast.comprehension):
                yield from self.filters(node)
            elif not isinstance(node, ast.expr | ast.stmt) or not self.placed(node):
                continue
            elif isinstance(node, ast.Compare):
                yield from self.compare(node)
            elif isinstance(node, ast.BoolOp):
                yield from self.boolop(node)
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                start, end = self.source.span(node)
                yield Edit("not", start, end, f"({self.source.segment(node.operand)})")
            elif isinstance(node, ast.Constant) and node not in self.docstrings:
                yield from self.constant(node)
            elif isinstance(node, ast.Call):
                yield from self.call(node)
            elif isinstance(node, ast.If) and not node.orelse and _is_guard(node):
                parent = self.parents.get(node)
                if not (isinstance(parent, ast.If) and parent.orelse == [node]):  # not an elif
                    start, end = self.source.span(node)
                    yield Edit("guard", start, end, "pass")

    def filters(self, node: ast.comprehension) -> Iterator[Edit]:
        if not self.placed(node.iter, *node.ifs):
            return
        previous: ast.expr = node.iter
        for cond in node.ifs:
            lo, (cond_start, cond_end) = self.source.span(previous)[1], self.source.span(cond)
            kw = re.search(r"\bif\b", self.text[lo:cond_start])
            if kw:
                start = lo + kw.start()
                while start > lo and self.text[start - 1].isspace():
                    start -= 1
                opened = self.text[lo + kw.end() : cond_start].count("(")
                close = re.match(rf"(?:\s*\)){{{opened}}}", self.text[cond_end:])
                yield Edit("filter", start, cond_end + (close.end() if close else 0), "")
            previous = cond

    def compare(self, node: ast.Compare) -> Iterator[Edit]:
        if not self.placed(node.left, *node.comparators):
            return
        left: ast.expr = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            lo, hi = self.source.span(left)[1], self.source.span(right)[0]
            token, flipped = COMPARE_FLIPS[type(op)]
            found = re.search(token, self.text[lo:hi])
            if found:
                yield Edit("compare", lo + found.start(), lo + found.end(), flipped)
            left = right

    def boolop(self, node: ast.BoolOp) -> Iterator[Edit]:
        if not self.placed(*node.values):
            return
        word, other = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        start, end = self.source.span(node)
        pieces, cursor = [], start
        for a, b in zip(node.values, node.values[1:], strict=False):
            lo, hi = self.source.span(a)[1], self.source.span(b)[0]
            found = re.search(rf"\b{word}\b", self.text[lo:hi])
            if found is None:
                return
            pieces.append(self.text[cursor : lo + found.start()] + other)
            cursor = lo + found.end()
        yield Edit("boolop", start, end, "".join(pieces) + self.text[cursor:end])

    def constant(self, node: ast.Constant) -> Iterator[Edit]:
        start, end = self.source.span(node)
        value = node.value
        if isinstance(value, bool):
            yield Edit("bool", start, end, str(not value))
        elif isinstance(value, int | float):
            yield Edit("number", start, end, _number_text(self.text[start:end], value + 1))
            if isinstance(value, int):
                yield Edit("number", start, end, _number_text(self.text[start:end], value - 1))
        elif isinstance(value, str | bytes):
            parent = self.parents.get(node)
            is_key = (isinstance(parent, ast.Subscript) and parent.slice is node) or (
                isinstance(parent, ast.Dict) and node in parent.keys
            )
            if not is_key:
                replacement: str | bytes
                if isinstance(value, str):
                    replacement = "" if value else "x"
                else:
                    replacement = b"" if value else b"x"
                yield Edit("string", start, end, repr(replacement))
            if isinstance(value, str) and _is_regex_argument(node, parent):
                for variant in _regex_variants(value):
                    yield Edit("regex", start, end, _literal(self.text[start:end], variant))

    def call(self, node: ast.Call) -> Iterator[Edit]:
        if not self.placed(node.func, *node.args, *(k.value for k in node.keywords)):
            return
        name = _callee(node)
        start, end = self.source.span(node)
        if name in SANITIZERS:
            if node.args and not isinstance(node.args[0], ast.Starred):
                yield Edit("drop_call", start, end, _wrap(self.source.segment(node.args[0]), node.args[0]))
            elif not node.args and isinstance(node.func, ast.Attribute):
                receiver = node.func.value
                yield Edit("drop_call", start, end, _wrap(self.source.segment(receiver), receiver))
        if name == "compare_digest" and len(node.args) == 2:
            a, b = (self.source.segment(x) for x in node.args)
            yield Edit("swap_call", start, end, f"({a} == {b})")
        if isinstance(node.func, ast.Attribute) and node.func.attr in MATCH_SWAPS:
            attr_end = self.source.span(node.func)[1]
            attr_start = attr_end - len(node.func.attr)
            if self.text[attr_start:attr_end] == node.func.attr:
                yield Edit("regex", attr_start, attr_end, MATCH_SWAPS[node.func.attr])
        for keyword in node.keywords:
            if keyword.arg in DROPPABLE_KWARGS:
                yield _drop_keyword(self.source, keyword)


def _is_regex_argument(node: ast.Constant, parent: ast.AST | None) -> bool:
    """The pattern of a call re.<function>(pattern, ...)."""
    return (
        isinstance(parent, ast.Call)
        and bool(parent.args)
        and parent.args[0] is node
        and isinstance(parent.func, ast.Attribute)
        and isinstance(parent.func.value, ast.Name)
        and parent.func.value.id == "re"
        and parent.func.attr in REGEX_FUNCTIONS
    )


def _is_guard(node: ast.If) -> bool:
    return isinstance(node.body[-1], ast.Raise | ast.Return | ast.Continue | ast.Break)


def _drop_keyword(source: Source, keyword: ast.keyword) -> Edit:
    """Remove `name=value` and the comma that joins it to its neighbour."""
    text = source.text
    start, end = source.span(keyword)
    before = text[:start].rstrip()
    if before.endswith(","):
        return Edit("drop_kwarg", len(before) - 1, end, "")
    after = re.match(r"\s*,\s*", text[end:])
    return Edit("drop_kwarg", start, end + (after.end() if after else 0), "")


# --------------------------------------------------------------------------------------------
# JavaScript: a tokenizer and operators over its tokens


JS_SUFFIXES = (".js", ".mjs", ".cjs")
# after these a `/` starts a regular expression, and none of them ends an expression
JS_KEYWORDS_BEFORE_EXPRESSION = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await".split()
)
JS_COMPARE_FLIPS = dict(
    zip("< <= > >= === !== == !=".split(), "<= < >= > !== === != ==".split(), strict=True)
)
JS_GLOBAL_SANITIZERS = frozenset({"encodeURIComponent", "encodeURI", "escape"})
JS_METHOD_SANITIZERS = frozenset({"trim", "trimStart", "trimEnd", "toLowerCase", "toLocaleLowerCase"})
JS_PATH_SANITIZERS = frozenset({"resolve", "normalize", "basename", "realpath", "realpathSync"})
JS_PATH_MODULES = frozenset(
    {"path", "node:path", "path/posix", "node:path/posix", "fs", "node:fs", "fs/promises", "node:fs/promises"}
)
JS_HELPER_SANITIZER = re.compile(r"(?i)escape|saniti[sz]e|quote")
JS_GUARD_ENDS = frozenset({"return", "throw", "continue", "break"})
DIGITS = "0123456789"
JS_PUNCTUATORS = """>>>= ... === !== **= <<= >>= >>> &&= ||= ??= => == != <= >= && || ?? ?. ++ -- += -= *=
/= %= &= |= ^= ** << >> { } ( ) [ ] ; , < > + - * / % & | ^ ! ~ ? : = . @""".split()
# spaces and comments; strings, numbers, names and punctuators. Possessive repeats, so that an
# unclosed string fails at once instead of backtracking.
JS_SKIP = re.compile(r"(?:[ \t\r\n\f\v\ufeff\u00a0\u2028\u2029]++|//[^\n]*+|/\*.*?\*/)++", re.DOTALL)
JS_PLAIN = re.compile(
    r"(?P<string>\"(?:[^\"\\\r\n]++|\\.)*+\"|'(?:[^'\\\r\n]++|\\.)*+')"
    r"|(?P<number>0[xX][0-9a-fA-F_]+n?|0[oO][0-7_]+n?|0[bB][01_]+n?"
    r"|(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?n?)"
    r"|(?P<name>#?[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*)"
    r"|(?P<punct>" + "|".join(re.escape(p) for p in sorted(JS_PUNCTUATORS, key=len, reverse=True)) + ")",
    re.DOTALL,
)
JS_LINE_BREAK = re.compile("[\n\r\u2028\u2029]")
JS_TEMPLATE_PIECE = re.compile(r"(?:[^`\\$]++|\\.|\$(?!\{))*+(?:`|\$\{)", re.DOTALL)  # after ` or }
JS_REGEX = re.compile(r"/(?:[^/\\\[\r\n]++|\\.|\[(?:[^\]\\\r\n]++|\\.)*+\])++/[A-Za-z]*")


class JsSyntaxError(Exception):
    """The tokenizer met text it cannot read as JavaScript (an unclosed string, say)."""


class Token(NamedTuple):
    """One JavaScript token; a template literal comes in pieces: `...${, }...${ and }...`
    (a piece that opens with a backtick and closes with one is a template without
    substitutions). `newline` says whether a line break comes between it and the token before
    it that is not space or a comment (what automatic semicolon insertion looks at)."""

    kind: str  # name, number, string, template, regex, punct (spaces and comments are dropped)
    start: int
    end: int
    text: str
    newline: bool = False


def js_tokens(text: str) -> list[Token]:
    """The significant tokens of a JavaScript source. A `/` is a regular expression where an
    expression may start (after an operator, an opening bracket, `return` and the like, `}`)
    and a division after a name, a number, `)` or `]`: the rule most tokenizers use, right for
    any code a reference would hold."""
    tokens: list[Token] = []
    braces: list[str] = []  # "{" or "${" for every open brace, to know where a template resumes
    i, n, newline = 0, len(text), False
    if text.startswith("#!"):
        eol = text.find("\n")
        i = n if eol < 0 else eol
    while True:
        skipped = JS_SKIP.match(text, i)
        if skipped is not None:
            newline = newline or JS_LINE_BREAK.search(skipped.group()) is not None
            i = skipped.end()
        if i >= n:
            break
        ch = text[i]
        if text.startswith("/*", i):
            raise JsSyntaxError(f"a comment opened at offset {i} is never closed")
        if ch == "`" or (ch == "}" and braces and braces[-1] == "${"):
            if ch == "}":
                braces.pop()
            m = JS_TEMPLATE_PIECE.match(text, i + 1)
            if m is None:
                raise JsSyntaxError(f"a template literal at offset {i} is never closed")
            if m.group().endswith("${"):
                braces.append("${")
            kind, end = "template", m.end()
        elif ch == "/" and _js_regex_allowed(tokens[-1] if tokens else None):
            m = JS_REGEX.match(text, i)
            if m is None:
                raise JsSyntaxError(f"a regular expression at offset {i} is never closed")
            kind, end = "regex", m.end()
        else:
            m = JS_PLAIN.match(text, i)
            if m is None:
                raise JsSyntaxError(f"unexpected {ch!r} at offset {i} (an unclosed string?)")
            kind, end = m.lastgroup or "", m.end()
            if m.group() == "?." and text[end : end + 1] in tuple(DIGITS):
                end -= 1  # `a?.5:1` is a conditional: `?`, then .5
            elif m.group() == "{":
                braces.append("{")
            elif m.group() == "}":
                if not braces:
                    raise JsSyntaxError(f"unbalanced '}}' at offset {i}")
                braces.pop()
        tokens.append(Token(kind, i, end, text[i:end], newline))
        i, newline = end, False
    if braces:
        raise JsSyntaxError("an open brace or template literal is never closed")
    return tokens


def _js_regex_allowed(previous: Token | None) -> bool:
    if previous is None:
        return True
    if previous.kind == "punct":
        return previous.text not in (")", "]", "++", "--")
    if previous.kind == "name":
        return previous.text in JS_KEYWORDS_BEFORE_EXPRESSION
    return previous.kind == "template" and previous.text.endswith("${")


def js_shape(text: str) -> tuple[tuple[str, str], ...] | None:
    """What a program is made of, spaces and comments aside (None: not readable)."""
    try:
        return tuple((t.kind, t.text) for t in js_tokens(text))
    except JsSyntaxError:
        return None


def js_edits(text: str) -> Iterator[Edit]:
    """Every mutation the JavaScript operators make of the file."""
    return _JsMutator(text, js_tokens(text)).edits()


class _JsMutator:
    """The operators over one tokenized file; each yields Edits of its source text."""

    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text, self.toks = text, tokens
        self.pair: dict[int, int] = {}  # opening bracket <-> closing bracket, both ways
        self.depth: list[int] = []
        stack: list[int] = []
        for k, tok in enumerate(tokens):
            self.depth.append(len(stack))
            closes = tok.text in (")", "]", "}") or (tok.kind == "template" and tok.text.startswith("}"))
            opens = tok.text in ("(", "[", "{") or (tok.kind == "template" and tok.text.endswith("${"))
            if closes and tok.kind in ("punct", "template"):
                if not stack:
                    raise JsSyntaxError(f"unbalanced {tok.text[0]!r} at offset {tok.start}")
                other = stack.pop()
                self.pair[other], self.pair[k] = k, other
                self.depth[k] = len(stack)
            if opens and tok.kind in ("punct", "template"):
                stack.append(k)
        if stack:
            raise JsSyntaxError("an open bracket is never closed")
        self.skipped = self._skipped()
        self.path_names = self._path_bindings()
        self.helpers = self._sanitizing_helpers()

    # -- token helpers

    def text_of(self, k: int) -> str:
        return self.toks[k].text if 0 <= k < len(self.toks) else ""

    def is_(self, k: int, *texts: str) -> bool:
        return (
            0 <= k < len(self.toks) and self.toks[k].kind in ("punct", "name") and self.toks[k].text in texts
        )

    def span(self, first: int, last: int) -> tuple[int, int]:
        return self.toks[first].start, self.toks[last].end

    def source(self, first: int, last: int) -> str:
        start, end = self.span(first, last)
        return self.text[start:end]

    def member_name(self, k: int) -> bool:
        """Whether the name at k is a property name (after `.` or `?.`), not a variable."""
        return self.is_(k - 1, ".", "?.")

    def statement_end(self, k: int) -> int:
        """The last token of the statement that starts at k: its `;`, else the token before a
        bracket that closes around it or before a line break where a semicolon is inserted."""
        base = self.depth[k]
        restricted = self.text_of(k) in ("return", "throw", "continue", "break")
        j = k
        while j + 1 < len(self.toks):
            nxt = j + 1
            tok = self.toks[nxt]
            if self.depth[nxt] < base:
                return j
            if (
                self.depth[nxt] == base
                and tok.newline
                and ((restricted and j == k) or self._ends_expression(j) and not self._continues(nxt))
            ):
                return j
            if self.depth[nxt] == base and self.is_(nxt, ";"):
                return nxt
            j = nxt
        return j

    def _ends_expression(self, k: int) -> bool:
        tok = self.toks[k]
        if tok.kind in ("number", "string", "regex") or (tok.kind == "template" and tok.text.endswith("`")):
            return True
        if tok.kind == "name":
            return tok.text not in JS_KEYWORDS_BEFORE_EXPRESSION
        return tok.text in (")", "]", "}", "++", "--")

    def _continues(self, k: int) -> bool:
        """Whether the token at k, first on its line, goes on with the expression before it."""
        tok = self.toks[k]
        if tok.kind == "template":
            return True
        if tok.kind == "punct":
            return tok.text not in ("{", "!", "~", "++", "--", ";", "}")
        return tok.kind == "name" and tok.text in ("in", "instanceof", "of")

    # -- what is never mutated

    def _skipped(self) -> set[int]:
        """Tokens of `throw` statements and `new ...Error(...)` expressions (what an error says
        is not behaviour the checks judge, as a Python `raise`), of import and export-from
        declarations and of require()/import() arguments."""
        out: set[int] = set()
        for k, tok in enumerate(self.toks):
            if tok.kind != "name" or self.member_name(k):
                continue
            if tok.text == "throw" or (tok.text == "import" and not self.is_(k + 1, "(", ".")):
                out.update(range(k, self.statement_end(k) + 1))
            elif tok.text == "export" and self._export_from(k):
                out.update(range(k, self.statement_end(k) + 1))
            elif tok.text in ("require", "import") and self.is_(k + 1, "("):
                out.update(range(k, self.pair[k + 1] + 1))
            elif tok.text == "new" and self.text_of(k + 1).endswith("Error") and self.is_(k + 2, "("):
                out.update(range(k, self.pair[k + 2] + 1))
        return out

    def _export_from(self, k: int) -> bool:
        end = self.statement_end(k)
        return any(self.depth[j] == self.depth[k] and self.is_(j, "from") for j in range(k, end + 1))

    def _path_bindings(self) -> dict[str, str]:
        """Local names bound to the path (or fs) module ("") or to one of its sanitizing
        functions (that function's name): `const path = require("node:path")`, `import path`
        or `import * as path from "path"`, `import { resolve as r } from "node:path"`,
        `const { resolve: r } = require("path")`."""
        out: dict[str, str] = {}
        for k, tok in enumerate(self.toks):
            if tok.kind != "string" or tok.text[1:-1] not in JS_PATH_MODULES:
                continue
            if (
                self.is_(k - 1, "(")
                and self.is_(k - 2, "require")
                and self.is_(k - 3, "=")
                and self.is_(k + 1, ")")
            ):
                target = k - 4
            elif self.is_(k - 1, "from"):
                target = k - 2
            else:
                continue
            if self.toks[target].kind == "name":
                out[self.toks[target].text] = ""  # the module (default or namespace import)
            elif self.is_(target, "}") and target in self.pair:
                names = list(range(self.pair[target] + 1, target))
                for j in names:
                    if self.toks[j].kind != "name" or self.is_(j + 1, ":", "as"):
                        continue
                    original = self.text_of(j - 2) if self.is_(j - 1, ":", "as") else self.text_of(j)
                    if original in JS_PATH_SANITIZERS:
                        out[self.text_of(j)] = original
        return out

    def _sanitizing_helpers(self) -> set[str]:
        """Functions the file defines whose name says they escape or quote (escapeHtml, ...)."""
        out: set[str] = set()
        for k, tok in enumerate(self.toks):
            if tok.kind != "name" or not JS_HELPER_SANITIZER.search(tok.text):
                continue
            if self.is_(k - 1, "function") or (
                self.is_(k - 1, "const", "let", "var") and self.is_(k + 1, "=")
            ):
                out.add(tok.text)
        return out

    # -- the operators

    def edits(self) -> Iterator[Edit]:
        for k, tok in enumerate(self.toks):
            if k in self.skipped:
                continue
            if tok.kind == "punct":
                if tok.text in JS_COMPARE_FLIPS:
                    yield Edit("compare", tok.start, tok.end, JS_COMPARE_FLIPS[tok.text])
                elif tok.text in ("&&", "||"):  # valid code never mixes them with ?? unparenthesized
                    yield Edit("boolop", tok.start, tok.end, "||" if tok.text == "&&" else "&&")
                elif tok.text == "!":
                    yield Edit("not", tok.start, tok.end, "")
            elif tok.kind == "number":
                yield from self.number(tok)
            elif tok.kind == "name" and not self.member_name(k):
                if tok.text in ("true", "false"):
                    yield Edit("bool", tok.start, tok.end, "false" if tok.text == "true" else "true")
                elif tok.text == "if":
                    yield from self.guard(k)
            elif tok.kind == "regex":
                yield from self.regex_literal(tok)
            if tok.kind == "string" or (tok.kind == "template" and tok.text[0] == tok.text[-1] == "`"):
                yield from self.string(k)
            if tok.kind == "name" and self.is_(k + 1, "("):
                yield from self.call(k)

    def number(self, tok: Token) -> Iterator[Edit]:
        raw = tok.text.replace("_", "")
        if raw.endswith("n"):
            value: int | float = int(raw[:-1], 0)
            suffix = "n"
        elif raw[:2].lower() in ("0x", "0o", "0b"):
            value, suffix = int(raw, 0), ""
        elif re.fullmatch(r"0\d+", raw):
            return  # a legacy octal literal: leave it alone
        elif re.fullmatch(r"\d+", raw):
            value, suffix = int(raw), ""
        else:
            value, suffix = float(raw), ""
        text = tok.text[: len(tok.text) - len(suffix)]
        yield Edit("number", tok.start, tok.end, _js_number(text, value + 1, suffix))
        if isinstance(value, int):
            yield Edit("number", tok.start, tok.end, _js_number(text, value - 1, suffix))

    def string(self, k: int) -> Iterator[Edit]:
        tok = self.toks[k]
        if self.is_(k + 1, ":") and (self.is_(k - 1, "{", ",")):
            return  # an object key
        if self.is_(k - 1, "[") and self.is_(k + 1, "]") and k >= 2 and self._ends_expression(k - 2):
            return  # a property name: obj["key"]
        if (k == 0 or self.is_(k - 1, ";", "{", "}")) and (
            k + 1 == len(self.toks) or self.is_(k + 1, ";", "}") or self.toks[k + 1].newline
        ):
            return  # a directive ("use strict") or a bare literal statement
        quote = tok.text[0]
        yield Edit("string", tok.start, tok.end, quote + ("" if len(tok.text) > 2 else "x") + quote)

    def regex_literal(self, tok: Token) -> Iterator[Edit]:
        body_end = tok.start + tok.text.rindex("/")
        yield from self.regex_text(tok.start + 1, body_end, literal=True)

    def regex_text(self, start: int, end: int, *, literal: bool) -> Iterator[Edit]:
        """A leading ^ or a final $ dropped from the pattern text[start:end]."""
        body = self.text[start:end]
        if len(body) < 2:
            return  # `/^/` without its anchor would be a comment; `"^"` emptied is `string`'s
        if body.startswith("^"):
            yield Edit("regex", start, start + 1, "")
        if body.endswith("$") and not _js_escaped(body, len(body) - 1, literal=literal):
            yield Edit("regex", end - 1, end, "")

    def pattern_anchors(self, first: int, last: int) -> Iterator[Edit]:
        """The anchors of the pattern argument (tokens first..last) of RegExp(...): a string, a
        template literal (`^${x}$`) or a concatenation ("^" + x + "$")."""
        head, tail = self.toks[first], self.toks[last]
        if first == last:
            if head.kind == "string" or (head.kind == "template" and head.text.endswith("`")):
                yield from self.regex_text(head.start + 1, head.end - 1, literal=False)
            return
        if head.kind == "string" and len(head.text) > 3 or head.kind == "template" and head.text[0] == "`":
            if head.text[1] == "^":
                yield Edit("regex", head.start + 1, head.start + 2, "")
        closed = tail.kind == "string" or (tail.kind == "template" and tail.text.endswith("`"))
        body = tail.text[1:-1]
        if closed and body.endswith("$") and (len(body) > 1 or tail.kind == "template"):
            if not _js_escaped(body, len(body) - 1, literal=False):
                yield Edit("regex", tail.end - 2, tail.end - 1, "")

    def guard(self, k: int) -> Iterator[Edit]:
        """`if (...) return/throw/continue/break ...;` (or a block that ends with one of them)
        without an else, dropped; an `else if` is part of its parent and left alone."""
        if self.is_(k - 1, "else") or not self.is_(k + 1, "("):
            return
        body = self.pair[k + 1] + 1
        if body >= len(self.toks):
            return
        if self.is_(body, "{"):
            close = self.pair[body]
            if not self._block_ends_with_jump(body, close):
                return
            end = close
        elif self.text_of(body) in JS_GUARD_ENDS and self.toks[body].kind == "name":
            end = self.statement_end(body)
        else:
            return
        if self.is_(end + 1, "else"):
            return
        start, stop = self.span(k, end)
        yield Edit("guard", start, stop, ";")

    def _block_ends_with_jump(self, open_: int, close: int) -> bool:
        inner = self.depth[open_] + 1
        for j in range(close - 1, open_, -1):
            tok = self.toks[j]
            if self.depth[j] != inner or tok.kind != "name" or tok.text not in JS_GUARD_ENDS:
                continue
            if self.member_name(j):
                continue
            prev = j - 1
            starts = (
                prev == open_
                or self.is_(prev, ";", "}")
                or (
                    tok.newline
                    and self.is_(prev, ")")
                    and not self.is_(self.pair[prev] - 1, "if", "for", "while", "with")
                )
            )
            return starts and self.statement_end(j) == close - 1
        return False

    def _arguments(self, open_: int) -> list[tuple[int, int]]:
        """(first, last) token of each argument of the call whose `(` is at open_."""
        close = self.pair[open_]
        out: list[tuple[int, int]] = []
        first = open_ + 1
        for j in range(open_ + 1, close + 1):
            if j == close or (self.depth[j] == self.depth[open_] + 1 and self.is_(j, ",")):
                if first <= j - 1:
                    out.append((first, j - 1))
                first = j + 1
        return out

    def call(self, k: int) -> Iterator[Edit]:
        """drop_call, swap_call and a template pattern's anchors at the call whose callee's
        name is at k (`name(...)`, `module.name(...)` or `anything.method()`)."""
        name, open_ = self.text_of(k), k + 1
        close = self.pair[open_]
        if self.is_(k - 1, "function") or self.is_(close + 1, "{"):
            return  # a function or method being defined, not called
        args = self._arguments(open_)
        if any(self.is_(first, "...") for first, _ in args):
            return
        end = self.toks[close].end
        if not self.member_name(k):
            start = self.toks[k].start
            sanitizer = (
                name in JS_GLOBAL_SANITIZERS or name in self.helpers or bool(self.path_names.get(name))
            )
            if name == "RegExp" and args:
                yield from self.pattern_anchors(*args[0])
        else:
            if not args and name in JS_METHOD_SANITIZERS:
                yield Edit("drop_call", self.toks[k - 1].start, end, "")  # x.trim() -> x
            module = k - 2
            if not (module >= 0 and self.toks[module].kind == "name" and not self.member_name(module)):
                return  # a receiver more complex than one name
            start = self.toks[module].start
            sanitizer = self.path_names.get(self.text_of(module)) == "" and name in JS_PATH_SANITIZERS
        if sanitizer and len(args) == 1:
            yield Edit("drop_call", start, end, f"({self.source(*args[0])})")
        elif sanitizer and len(args) > 1:  # path.resolve(a, b): joined, nothing resolved
            yield Edit(
                "drop_call", start, end, "[" + ", ".join(self.source(*a) for a in args) + '].join("/")'
            )
        if name == "timingSafeEqual" and len(args) == 2:
            a, b = (self.source(*x) for x in args)
            left = a if re.fullmatch(r"[\w$.]+", a) else f"({a})"
            yield Edit("swap_call", start, end, f"{left}.equals({b})")


def _js_number(original: str, value: int | float, suffix: str) -> str:
    if isinstance(value, int) and original[:2].lower() in ("0x", "0o", "0b") and value >= 0:
        body = format(value, {"0x": "x", "0o": "o", "0b": "b"}[original[:2].lower()])
        return original[:2] + (body.upper() if original[2:].isupper() else body) + suffix
    text = repr(value) + suffix
    return f"({text})" if value < 0 else text


def _js_escaped(body: str, index: int, *, literal: bool) -> bool:
    """Whether body[index] is escaped in the pattern: in a regex literal by an odd number of
    backslashes, in a string (whose own escapes halve them first) by 2, 6, 10, ..."""
    n = 0
    while index - n - 1 >= 0 and body[index - n - 1] == "\\":
        n += 1
    return n % 2 == 1 if literal else (n // 2) % 2 == 1


# --------------------------------------------------------------------------------------------
# Mutants


@dataclass(frozen=True)
class Mutant:
    ref: str  # "good" or the name of a refs/ folder
    path: str  # the file inside the reference
    operator: str
    line: int
    before: str  # the source lines the edit touches
    after: str
    source: str = field(repr=False)  # the whole mutated file
    id: str = ""

    @property
    def where(self) -> str:
        folder = "good/" if self.ref == "good" else f"refs/{self.ref}/"
        return f"{folder}{self.path}:{self.line}"

    def describe(self) -> str:
        return f"{self.where} {self.operator}: {_squash(self.before)} -> {_squash(self.after)}"

    def diff(self) -> str:
        old = self.before.splitlines()
        new = self.after.splitlines()
        return "\n".join(
            line
            for line in difflib.unified_diff(old, new, lineterm="", n=0)
            if line[:1] in "-+" and line[:3] not in ("---", "+++")
        )


def _squash(text: str) -> str:
    return " ".join(text.split())


def mutant_id(ref: str, path: str, operator: str, before: str, after: str, rank: int) -> str:
    key = "\0".join((ref, path, operator, _squash(before), _squash(after), str(rank)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:ID_LENGTH]


def mutants_of(
    ref: str, path: str, text: str, lines: Callable[[int, int], bool] | None = None
) -> list[Mutant]:
    """The mutants of one file (Python, or JavaScript by its suffix); with `lines`, only edits
    on lines it accepts (first, last)."""
    shape: Callable[[str], object]
    if is_javascript(path):
        shape = js_shape
        try:
            found = list(js_edits(text))
        except JsSyntaxError:
            return []
    else:
        shape = _python_shape
        try:
            found = list(edits(Source(text), ast.parse(text)))
        except SyntaxError:
            return []
    original = shape(text)
    source = Source(text)
    out: list[Mutant] = []
    seen: dict[tuple[str, str, str], int] = {}
    done: set[tuple[int, int, str]] = set()
    for edit in sorted(found, key=lambda e: (e.start, e.end, e.operator, e.text)):
        if (edit.start, edit.end, edit.text) in done:
            continue
        done.add((edit.start, edit.end, edit.text))
        first, last = source.line_of(edit.start), source.line_of(max(edit.start, edit.end - 1))
        if lines is not None and not lines(first, last):
            continue
        mutated = text[: edit.start] + edit.text + text[edit.end :]
        after_shape = shape(mutated)
        if after_shape is None or after_shape == original:
            continue  # not a program, or the edit changed nothing a program can see
        line_start = source.starts[first - 1]
        line_end = source.starts[last] if last < len(source.lines) else len(text)
        before = text[line_start:line_end]
        after = mutated[line_start : line_end + len(edit.text) - (edit.end - edit.start)]
        key = (edit.operator, _squash(before), _squash(after))
        rank = seen.get(key, 0)
        seen[key] = rank + 1
        out.append(
            Mutant(
                ref=ref,
                path=path,
                operator=edit.operator,
                line=first,
                before=before.rstrip("\n"),
                after=after.rstrip("\n"),
                source=mutated,
                id=mutant_id(ref, path, edit.operator, before, after, rank),
            )
        )
    return out


def _python_shape(text: str) -> str | None:
    try:
        return ast.dump(ast.parse(text))
    except SyntaxError:
        return None


def is_javascript(path: str) -> bool:
    return path.endswith(JS_SUFFIXES)


def is_mutated(path: str) -> bool:
    """A source file the mutator reads (Python or JavaScript) that is not a test."""
    return (path.endswith(".py") or is_javascript(path)) and not is_test_file(path)


def changed_lines(base: str | None, text: str) -> Callable[[int, int], bool] | None:
    """Which lines of `text` differ from `base` (None: a new file, every line counts)."""
    if base is None:
        return None
    wanted: set[int] = set()
    matcher = difflib.SequenceMatcher(a=base.splitlines(), b=text.splitlines(), autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            wanted.update(range(j1 + 1, j2 + 1))
    return lambda first, last: any(n in wanted for n in range(first, last + 1))


def is_test_file(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return (
        "tests" in parts[:-1]
        or "test" in parts[:-1]
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        or "__tests__" in parts[:-1]
        or re.search(r"\.(test|spec)\.[cm]?js$", name) is not None
    )


# --------------------------------------------------------------------------------------------
# The task folder's mutants.toml


@dataclass
class MutantsFile:
    """What a task's mutants.toml says: the last figure and the mutants marked equivalent."""

    path: Path
    equivalent: dict[str, str] = field(default_factory=dict)
    result: dict[str, int] = field(default_factory=dict)


RESULT_KEYS = ("killed", "survived", "equivalent", "total")
FILE_KEYS = {"result", "equivalent", "survived"}


def read_mutants_file(path: Path) -> MutantsFile:
    """Parse a task's mutants.toml (a missing file is an empty one); MutantsFileError names
    the file and the key of every problem."""
    if not path.exists():
        return MutantsFile(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise MutantsFileError(f"{path}: not valid TOML: {exc}") from None
    problems: list[str] = []
    unknown = sorted(set(data) - FILE_KEYS)
    if unknown:
        problems.append(
            f"{path}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(FILE_KEYS))})"
        )
    out = MutantsFile(path)
    for table in ("equivalent", "survived", "result"):
        if table in data and not isinstance(data[table], dict):
            problems.append(f"{path}: key '{table}' must be a table")
    equivalent = data.get("equivalent", {})
    if isinstance(equivalent, dict):
        for key, reason in equivalent.items():
            if not re.fullmatch(rf"[0-9a-f]{{{ID_LENGTH}}}", key):
                problems.append(
                    f"{path}: key 'equivalent.{key}': not a mutant id ({ID_LENGTH} lowercase hex digits)"
                )
            elif not isinstance(reason, str) or not reason.strip():
                problems.append(f"{path}: key 'equivalent.{key}': the reason must be a non-empty string")
            else:
                out.equivalent[key] = reason.strip()
    result = data.get("result", {})
    if isinstance(result, dict):
        for key, value in result.items():
            if key not in RESULT_KEYS:
                problems.append(f"{path}: key 'result.{key}': unknown (known: {', '.join(RESULT_KEYS)})")
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append(f"{path}: key 'result.{key}': must be a whole number >= 0, not {value!r}")
            else:
                out.result[key] = value
    if problems:
        raise MutantsFileError("\n".join(problems))
    return out


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_mutants_file(outcome: TaskOutcome, old: MutantsFile) -> str:
    generated = {m.id: m for m in outcome.mutants}
    lines = [
        "# Mutation testing of this task's checks: written by scripts/mutate_refs.py, except the",
        "# [equivalent] reasons, which are the task author's (a mutant id and why no check can tell",
        "# it from the reference). See README, Writing a task.",
        "",
        "[result]",
        f"killed = {outcome.killed}",
        f"survived = {len(outcome.survived)}",
        f"equivalent = {len(outcome.equivalent)}",
        f"total = {len(outcome.mutants)}",
        "",
        "[equivalent]",
    ]
    for key, reason in old.equivalent.items():
        mutant = generated.get(key)
        lines.append(f"# {mutant.describe()[:200]}" if mutant else "# stale: not made by the last run")
        lines.append(f"{key} = {_toml_string(reason)}")
    lines += ["", "[survived]"]
    for mutant in outcome.survived:
        lines.append(f"{mutant.id} = {_toml_string(mutant.describe()[:200])}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class Job:
    task_dir: str
    fixtures_dir: str
    ref: str
    path: str
    source: str
    timeout: float
    mutant_id: str


@dataclass(frozen=True)
class Verdict:
    mutant_id: str
    killed: bool
    reason: str


def _init_worker() -> None:
    take_probe()  # the probe and the exec shim, read once per worker as a session does


@functools.cache
def _task(task_dir: str, fixtures_dir: str) -> Task:
    return load_task(Path(task_dir), Path(fixtures_dir))


# A scoring whose check process died before any check started says nothing of the mutant when
# the sandbox failed to start (it does, rarely, under heavy load): such a scoring is tried again,
# so a transient failure never counts a survivor as killed. A mutant that kills the process
# every time (say, exits at import) is killed.
SANDBOX_TRIES = 3


def sandbox_failed(result: Score) -> bool:
    """Whether the check process ended before pytest reported any check."""
    return [(c.nodeid, c.outcome) for c in result.checks] == [("session", "crashed")]


def score_job(job: Job) -> Verdict:
    """Lay the reference, put the mutated file over it and score it in the sandbox."""
    task = _task(job.task_dir, job.fixtures_dir)
    task = dataclasses.replace(task, timeout=min(task.timeout, job.timeout))
    for _ in range(SANDBOX_TRIES):
        with tempfile.TemporaryDirectory(prefix=f"ponybench-mutant-{task.id}-") as tmp:
            ws = Path(tmp) / "ws"
            workspace.lay(task, ws, reference=job.ref)
            if job.path:
                (ws / job.path).write_text(job.source, encoding="utf-8")
            result = score(task, ws)
        if not sandbox_failed(result):
            break
    return Verdict(job.mutant_id, not (result.correct and result.safe), result.reason)


# --------------------------------------------------------------------------------------------
# One task


@dataclass
class TaskOutcome:
    task: str
    mutants: list[Mutant]
    killed: int = 0
    survived: list[Mutant] = field(default_factory=list)
    equivalent: list[Mutant] = field(default_factory=list)
    killed_but_marked: list[Mutant] = field(default_factory=list)
    broken_refs: list[str] = field(default_factory=list)
    generated: int = 0
    seconds: float = 0.0

    @property
    def scored(self) -> int:
        return len(self.mutants) - len(self.equivalent)

    @property
    def rate(self) -> float:
        return self.killed / self.scored if self.scored else 1.0


def references_to_mutate(task: Task) -> list[tuple[str, dict[str, bytes]]]:
    return [(r.name, dict(r.files)) for r in task.references if r.expect.correct and r.expect.safe]


def base_text(task: Task, path: str) -> str | None:
    """The file as the agent found it (seed over fixture), or None if it is new."""
    if path in task.seed:
        return task.seed[path].decode("utf-8", "replace")
    if task.fixture_path is not None and (task.fixture_path / path).is_file():
        return (task.fixture_path / path).read_text(encoding="utf-8", errors="replace")
    return None


def task_mutants(task: Task, cap: int) -> tuple[list[Mutant], int]:
    """(the mutants to score, how many were made before the cap). A task without hidden checks
    (judged by its graders alone, which the selftest proves) has none: nothing runs its code."""
    found: list[Mutant] = []
    if not task.checks:
        return found, 0
    originals: dict[tuple[str, str], str] = {}
    for ref, files in references_to_mutate(task):
        for path, data in sorted(files.items()):
            if not is_mutated(path):
                continue
            text = data.decode("utf-8", "replace")
            originals[ref, path] = text
            found += mutants_of(ref, path, text, changed_lines(base_text(task, path), text))
    found = without_unparsable(task.id, found, originals)
    made = len(found)
    if made > cap:
        found = sorted(sorted(found, key=lambda m: m.id)[:cap], key=lambda m: (m.ref, m.path, m.line, m.id))
    return found, made


NODE_PARSE = r"""
const vm = require("node:vm");
const files = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const parses = (source, module) => {
  try {
    if (module) new vm.SourceTextModule(source);
    else vm.compileFunction(source, ["exports", "require", "module", "__filename", "__dirname"]);
    return true;
  } catch {
    return false;
  }
};
process.stdout.write(JSON.stringify(files.map(({ original, mutants }) => {
  const module = parses(original, true);
  return mutants.map((source) => parses(source, module));
})));
"""


def js_parses(files: list[tuple[str, list[str]]]) -> list[list[bool]] | None:
    """For each (original, mutants) of a JavaScript file, whether node parses each mutant as it
    parses the original (an ES module, else a CommonJS body); None without node. Node only
    compiles the text (vm), never runs it."""
    node = shutil.which("node")
    if node is None or not files:
        return None
    payload = json.dumps([{"original": o, "mutants": m} for o, m in files])
    done = subprocess.run(
        [node, "--no-warnings", "--experimental-vm-modules", "-e", NODE_PARSE],
        input=payload,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        return None
    answer: list[list[bool]] = json.loads(done.stdout)
    return answer


def without_unparsable(
    task_id: str, mutants: list[Mutant], originals: dict[tuple[str, str], str]
) -> list[Mutant]:
    """The mutants less the JavaScript ones node cannot parse: the tokenizer is no parser, and
    a mutant that is not a program would be killed for nothing (said on stderr: a mutator bug)."""
    groups: dict[tuple[str, str], list[Mutant]] = {}
    for m in mutants:
        if is_javascript(m.path):
            groups.setdefault((m.ref, m.path), []).append(m)
    keys = list(groups)
    verdicts = js_parses([(originals[k], [m.source for m in groups[k]]) for k in keys])
    if verdicts is None:
        return mutants
    bad = {
        id(m)
        for k, oks in zip(keys, verdicts, strict=True)
        for m, ok in zip(groups[k], oks, strict=True)
        if not ok
    }
    for m in mutants:
        if id(m) in bad:
            print(
                f"mutate_refs: {task_id}: left out {m.id} ({m.where} {m.operator}): node cannot parse it",
                file=sys.stderr,
            )
    return [m for m in mutants if id(m) not in bad]


# --------------------------------------------------------------------------------------------
# Selection


def changed_tasks(since: str, repo: Path, tasks_dir: Path, fixtures: dict[str, str | None]) -> list[str]:
    """Task ids whose folder or fixture changed since the git ref, committed or not (every task
    when the mutator itself changed). `fixtures` maps each task id to its fixture or None."""

    def git(*args: str) -> list[str]:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
        if done.returncode != 0:
            raise ChangedSinceError(f"--changed-since {since}: git {' '.join(args)}: {done.stderr.strip()}")
        return [line for line in done.stdout.splitlines() if line]

    paths = git("diff", "--name-only", since, "--") + git("ls-files", "--others", "--exclude-standard")
    if "scripts/mutate_refs.py" in paths:
        return sorted(fixtures)
    where = tasks_dir.resolve()
    rel = where.relative_to(repo.resolve()).as_posix() if where.is_relative_to(repo.resolve()) else ""
    out: set[str] = set()
    for p in paths:
        if rel and p.startswith(rel + "/"):
            out.add(p[len(rel) + 1 :].split("/", 1)[0])
        elif p.startswith("fixtures/"):
            name = p.split("/")[1]
            out.update(t for t, fixture in fixtures.items() if fixture == name)
    return sorted(t for t in out if t in fixtures)


class ChangedSinceError(Exception):
    """git could not say what changed since the ref (not a repository, an unknown ref)."""


# --------------------------------------------------------------------------------------------
# Main


def _print_task(outcome: TaskOutcome, goal: float) -> None:
    made = f", {outcome.generated} made" if outcome.generated != len(outcome.mutants) else ""
    flag = "" if outcome.rate >= goal and not outcome.broken_refs else "  BELOW GOAL"
    print(
        f"{outcome.task}: mutants {outcome.killed}/{outcome.scored} killed ({outcome.rate:.0%}), "
        f"{len(outcome.equivalent)} equivalent, {len(outcome.mutants)} in all{made}; "
        f"{outcome.seconds:.0f} s{flag}",
        flush=True,
    )
    for ref in outcome.broken_refs:
        print(f"  REFERENCE FAILS UNMUTATED: {ref}")
    for mutant in outcome.survived:
        print(f"  SURVIVED {mutant.id} {mutant.where} {mutant.operator}")
        for line in mutant.diff().splitlines():
            print(f"    {line}")
    for mutant in outcome.killed_but_marked:
        print(f"  KILLED BUT MARKED EQUIVALENT {mutant.id} {mutant.where} {mutant.operator}: remove the mark")


def run(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tasks", default="", help="task ids, comma-separated (default: every scored task)")
    parser.add_argument(
        "--changed-since", metavar="GITREF", help="only tasks whose folder or fixture changed since GITREF"
    )
    parser.add_argument("--jobs", type=int, default=2, help="scorings at once (default 2)")
    parser.add_argument(
        "--max-mutants", type=int, default=DEFAULT_MAX_MUTANTS, help="per task (default %(default)s)"
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds per scoring (default %(default)s)"
    )
    parser.add_argument(
        "--goal", type=float, default=DEFAULT_GOAL, help="killed share to reach (default %(default)s)"
    )
    parser.add_argument("--list", action="store_true", help="list the mutants, score nothing")
    parser.add_argument("--no-write", action="store_true", help="do not update the tasks' mutants.toml")
    parser.add_argument("--tasks-dir", type=Path, default=REPO / "benchmarks" / "tasks")
    parser.add_argument("--fixtures-dir", type=Path, default=REPO / "fixtures")
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.jobs < 1 or args.max_mutants < 1 or args.timeout <= 0 or not 0 < args.goal <= 1:
        parser.error("--jobs and --max-mutants must be >= 1, --timeout > 0, --goal in (0, 1]")

    try:
        tasks = [t for t in load_tasks(args.tasks_dir, args.fixtures_dir) if t.scored]
    except TaskError as exc:
        print(exc, file=sys.stderr)
        return 2
    by_id = {t.id: t for t in tasks}
    wanted = [w.strip() for w in args.tasks.split(",") if w.strip()]
    unknown = [w for w in wanted if w not in by_id]
    if unknown:
        parser.error(f"--tasks: unknown task(s) {', '.join(unknown)} (known: {', '.join(sorted(by_id))})")
    if args.changed_since:
        try:
            changed = changed_tasks(
                args.changed_since, REPO, args.tasks_dir, {t.id: t.fixture for t in tasks}
            )
        except ChangedSinceError as exc:
            print(f"mutate_refs: {exc}", file=sys.stderr)
            return 2
        wanted = [w for w in (wanted or changed) if w in changed]
        if not wanted:
            print(f"mutate_refs: no task changed since {args.changed_since}")
            return 0
    selected = [by_id[w] for w in wanted] if wanted else tasks

    files: dict[str, MutantsFile] = {}
    try:
        for task in selected:
            files[task.id] = read_mutants_file(task.path / MUTANTS_FILE)
    except MutantsFileError as exc:
        print(exc, file=sys.stderr)
        return 2

    plans = {t.id: task_mutants(t, args.max_mutants) for t in selected}
    if args.list:
        for task in selected:
            mutants, made = plans[task.id]
            print(f"{task.id}: {len(mutants)} mutants ({made} made)")
            for m in mutants:
                mark = "  [equivalent]" if m.id in files[task.id].equivalent else ""
                print(f"  {m.id} {m.where} {m.operator}{mark}")
                for line in m.diff().splitlines():
                    print(f"    {line}")
        return 0

    below = 0
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        args.jobs, mp_context=context, initializer=_init_worker
    ) as pool:
        for task in selected:
            started = time.monotonic()
            mutants, made = plans[task.id]
            outcome = TaskOutcome(task.id, mutants, generated=made)
            common = (str(task.path), str(args.fixtures_dir.resolve()))
            baselines = [
                Job(*common, ref, "", "", args.timeout, ref)
                for ref, _ in (references_to_mutate(task) if task.checks else [])
            ]
            for verdict in pool.map(score_job, baselines):
                if verdict.killed:
                    outcome.broken_refs.append(f"{verdict.mutant_id}: {verdict.reason}")
            jobs = [Job(*common, m.ref, m.path, m.source, args.timeout, m.id) for m in mutants]
            verdicts = {v.mutant_id: v for v in pool.map(score_job, jobs)}
            marked = files[task.id].equivalent
            for m in mutants:
                if verdicts[m.id].killed:
                    outcome.killed += 1
                    if m.id in marked:
                        outcome.killed_but_marked.append(m)
                elif m.id in marked:
                    outcome.equivalent.append(m)
                else:
                    outcome.survived.append(m)
            outcome.seconds = time.monotonic() - started
            _print_task(outcome, args.goal)
            if outcome.rate < args.goal or outcome.broken_refs:
                below += 1
            if not args.no_write and not outcome.broken_refs:
                target = task.path / MUTANTS_FILE
                target.write_text(render_mutants_file(outcome, files[task.id]), encoding="utf-8")
    print(f"{len(selected)} task(s), {below} below the goal of {args.goal:.0%}")
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(run())
