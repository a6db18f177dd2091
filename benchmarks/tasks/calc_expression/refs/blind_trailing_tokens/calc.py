"""Evaluate formula-bar arithmetic with a small recursive-descent parser."""
import re

_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def _skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def _peek(self) -> str:
        self._skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expr(self) -> float:
        value = self.term()
        while self._peek() in ("+", "-") and self._peek():
            op = self.text[self.pos]
            self.pos += 1
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self) -> float:
        value = self.factor()
        while self._peek() in ("*", "/") and self._peek():
            op = self.text[self.pos]
            self.pos += 1
            if self._peek() == "*":
                raise ValueError("'**' is not supported")
            rhs = self.factor()
            value = value * rhs if op == "*" else value / rhs
        return value

    def factor(self) -> float:
        ch = self._peek()
        if ch == "-":
            self.pos += 1
            return -self.factor()
        if ch == "(":
            self.pos += 1
            value = self.expr()
            if self._peek() != ")":
                raise ValueError("missing ')'")
            self.pos += 1
            return value
        m = _NUMBER.match(self.text, self.pos)
        if m is None:
            raise ValueError(f"expected a number at position {self.pos}")
        self.pos = m.end()
        return float(m.group(0))


def evaluate(expression: str) -> float:
    return _Parser(expression).expr()
