"""The mutator of JavaScript files (`.js`, `.mjs`, `.cjs`) and TypeScript ones (`.ts`, `.mts`,
`.cts`, not `.d.ts`): operators over tokens.

A small tokenizer of its own reads strings, template literals (their text apart from the code
in `${...}`), regular expression literals (a `/` where an expression may start) and comments, so
an operator never edits inside them by mistake. A parser would have to come from npm, which the
scorer's machine may not reach, and every operator is one token's edit (or a guard's span, found
by its brackets), which tokens suffice for; node, where present, then compiles every mutant
(`runner.without_unparsable`: `vm`, nothing run).

Operators, in the spirit of Python's: `compare` (< <=, > >=, === !==, == !=), `boolop` (each
&& / ||), `not` (a `!` dropped), `number` (n+1, n-1; hex, BigInt and separators kept), `bool`
(true / false), `string` (a string or a template without substitutions emptied; object keys,
`obj["key"]`, directives, import sources and `require()` arguments left alone), `guard` (`if
(...) return/throw/continue/break ...;`, or a block ending in one, without else, dropped),
`drop_call` (`encodeURIComponent`, `encodeURI`, the file's own `escape*`/`sanitize*`/`quote*`
helpers, `path.resolve`/`normalize`/`basename` and `fs.realpath` however imported -- several
arguments joined with "/" --, `.trim()`, `.toLowerCase()`), `swap_call` (`timingSafeEqual(a,
b)` -> `a.equals(b)`) and `regex` (a leading `^` or final `$` dropped from a regex literal or a
`RegExp` pattern given as a string, a template or a concatenation). `throw` statements and `new
...Error(...)` are left alone, as a Python `raise` is.

TypeScript is JavaScript with types, which a mutant should not edit (a type changed is a
compile error, not a behaviour): in a `.ts` file the declarations of types (`type X = ...`,
`interface X {...}`, `declare ...`) are left alone, and so are a string next to `|` or `&` (a
literal type of a union), a `!` after an expression (a non-null assertion) and a `<` or `>`
without a space on both sides (a type's angle brackets: a formatted comparison has them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from pytest_ponybench.mutation.source import Edit

__all__ = ["JS_SUFFIXES", "JsSyntaxError", "TS_SUFFIXES", "Token", "js_edits", "js_shape", "js_tokens"]

JS_SUFFIXES = (".js", ".mjs", ".cjs")
TS_SUFFIXES = (".ts", ".mts", ".cts")  # a .d.ts declares types only: never mutated
TS_DECLARATIONS = frozenset({"type", "interface", "declare"})
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


def js_edits(text: str, *, typescript: bool = False) -> Iterator[Edit]:
    """Every mutation the JavaScript operators make of the file (a TypeScript one's code, its
    types left alone)."""
    return _JsMutator(text, js_tokens(text), typescript=typescript).edits()


class _JsMutator:
    """The operators over one tokenized file; each yields Edits of its source text."""

    def __init__(self, text: str, tokens: list[Token], *, typescript: bool = False) -> None:
        self.text, self.toks, self.typescript = text, tokens, typescript
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
            elif self.typescript and tok.text in TS_DECLARATIONS and self._declares_type(k):
                out.update(range(k, self._declaration_end(k) + 1))
        return out

    def _declares_type(self, k: int) -> bool:
        """Whether the name at k starts a TypeScript declaration (`type X =`, `interface X`,
        `declare ...`) rather than being a variable of that name."""
        starts = k == 0 or self.is_(k - 1, ";", "{", "}", "export") or self.toks[k].newline
        return starts and k + 1 < len(self.toks) and self.toks[k + 1].kind == "name"

    def _declaration_end(self, k: int) -> int:
        """The last token of the declaration at k: an interface's (or a declared block's)
        closing brace, else the statement's end."""
        j = k + 1
        while j < len(self.toks) and self.depth[j] == self.depth[k] and not self.is_(j, "=", ";"):
            if self.is_(j, "{"):
                return self.pair[j]
            j += 1
        return self.statement_end(k)

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
                if tok.text in JS_COMPARE_FLIPS and not self.type_bracket(tok):
                    yield Edit("compare", tok.start, tok.end, JS_COMPARE_FLIPS[tok.text])
                elif tok.text in ("&&", "||"):  # valid code never mixes them with ?? unparenthesized
                    yield Edit("boolop", tok.start, tok.end, "||" if tok.text == "&&" else "&&")
                elif tok.text == "!" and (tok.newline or k == 0 or not self._ends_expression(k - 1)):
                    yield Edit("not", tok.start, tok.end, "")  # (after an expression: x! asserts)
            elif tok.kind == "number":
                yield from self.number(tok)
            elif tok.kind == "name" and not self.member_name(k):
                if tok.text in ("true", "false"):
                    yield Edit("bool", tok.start, tok.end, "false" if tok.text == "true" else "true")
                elif tok.text == "if":
                    yield from self.guard(k)
            elif tok.kind == "regex":
                yield from self.regex_literal(tok)
            if (
                tok.kind == "string"
                and self.typescript
                and (self.is_(k - 1, "|", "&") or self.is_(k + 1, "|", "&"))
            ):
                pass  # a literal type in a union: "open" | "closed"
            elif tok.kind == "string" or (tok.kind == "template" and tok.text[0] == tok.text[-1] == "`"):
                yield from self.string(k)
            if tok.kind == "name" and self.is_(k + 1, "("):
                yield from self.call(k)

    def type_bracket(self, tok: Token) -> bool:
        """In TypeScript, a `<` or `>` that is not spaced as an operator: `Array<string>`."""
        if not self.typescript or tok.text not in ("<", ">"):
            return False
        before = self.text[tok.start - 1 : tok.start]
        after = self.text[tok.end : tok.end + 1]
        return not (before.isspace() and after.isspace())

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
