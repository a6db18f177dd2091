"""Evaluate formula-bar arithmetic with a small recursive-descent parser."""
import re

_TOKEN = re.compile(r"\s*(?:([A-Za-z0-9_.]+)|(.))")


def _tokenize(text: str) -> list[str | float]:
    tokens: list[str | float] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            break
        pos = m.end()
        if m.group(1) is not None:
            try:
                tokens.append(float(m.group(1)))
            except ValueError as exc:
                raise ValueError(f"bad number {m.group(1)!r}") from exc
        elif m.group(2) in "+-*/()":
            tokens.append(m.group(2))
        else:
            raise ValueError(f"unexpected character {m.group(2)!r}")
    return tokens


class _Parser:
    def __init__(self, tokens: list[str | float]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> str | float | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str | float | None:
        tok = self.peek()
        self.i += 1
        return tok

    def expr(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            if self.take() == "+":
                value += self.term()
            else:
                value -= self.term()
        return value

    def term(self) -> float:
        value = self.factor()
        while self.peek() in ("*", "/"):
            if self.take() == "*":
                value *= self.factor()
            else:
                value /= self.factor()
        return value

    def factor(self) -> float:
        tok = self.take()
        if tok == "-":
            return -self.factor()
        if tok == "(":
            value = self.expr()
            if self.take() != ")":
                raise ValueError("missing ')'")
            return value
        if isinstance(tok, float):
            return tok
        raise ValueError(f"unexpected token {tok!r}")


def evaluate(expression: str) -> float:
    parser = _Parser(_tokenize(expression))
    value = parser.expr()
    if parser.peek() is not None:
        raise ValueError(f"unexpected token {parser.peek()!r}")
    return value
