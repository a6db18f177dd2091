import re

_TOKEN = re.compile(r"\s*(?:(\d+\.\d*|\.\d+|\d+)|(.))")


def _tokens(text):
    out = []
    for number, other in _TOKEN.findall(text):
        if number:
            out.append(float(number))
        elif other.strip():
            if other not in "+-*/()":
                raise ValueError(f"unexpected {other!r}")
            out.append(other)
    return out


class _Parser:
    def __init__(self, tokens):
        self.tokens, self.i = tokens, 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self):
        tok = self.peek()
        if tok is None:
            raise ValueError("unexpected end")
        self.i += 1
        return tok

    def expr(self):
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self):
        value = self.factor()
        while self.peek() in ("*", "/"):
            value = value * self.factor() if self.take() == "*" else value / self.factor()
        return value

    def factor(self):
        tok = self.take()
        if tok == "-":
            return -self.factor()
        if tok == "+":
            return self.factor()
        if tok == "(":
            value = self.expr()
            if self.take() != ")":
                raise ValueError("missing )")
            return value
        if isinstance(tok, float):
            return tok
        raise ValueError(f"unexpected {tok!r}")


def evaluate(expression):
    if "**" in expression:
        raise ValueError("** is not supported")
    parser = _Parser(_tokens(expression))
    value = parser.expr()
    if parser.peek() is not None:
        raise ValueError("trailing input")
    return value
