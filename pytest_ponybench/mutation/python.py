"""The mutator of Python files: a small AST one, each operator editing the source text of one
node, so that a mutant differs from its reference by one small diff and comments survive.

Operators: `compare` (< <=, > >=, == !=, in / not in, is / is not), `boolop` (and / or), `not`
(dropped), `number` (n+1 and n-1), `bool` (True / False), `string` (a literal emptied), `guard`
(an `if ...: raise/return/continue/break` without else dropped), `filter` (a comprehension's
`if` dropped), `drop_call` (a sanitizer such as `html.escape`, `shlex.quote`,
`os.path.realpath`, `.resolve()`, `.strip()` replaced by its argument), `swap_call`
(`compare_digest(a, b)` -> `a == b`), `regex` (`\\Z` -> `$`, `\\A` -> `^`, a leading `^` or
final `$` dropped, `fullmatch` -> `match` -> `search`) and `drop_kwarg` (`encoding=`, `errors=`,
`newline=`, `check=`, `filter=`, `mode=`, `safe=`, `quote=`, `strict=`, `follow_symlinks=`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from pytest_ponybench.mutation.source import Edit, Source

__all__ = ["edits", "python_shape"]

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


def python_shape(text: str) -> str | None:
    """What a program of this text is (its AST dumped), or None when it does not parse."""
    try:
        return ast.dump(ast.parse(text))
    except SyntaxError:
        return None
