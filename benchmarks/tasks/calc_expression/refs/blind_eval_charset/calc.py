"""Evaluate formula-bar arithmetic."""
import re

# Only digits, the four operators, dots, parentheses and spaces can pass, so no
# names, attributes or calls can ever reach eval.
_ALLOWED = re.compile(r"[0-9+\-*/(). ]+")


def evaluate(expression: str) -> float:
    if not isinstance(expression, str) or not _ALLOWED.fullmatch(expression):
        raise ValueError(f"invalid expression: {expression!r}")
    try:
        return float(eval(expression, {"__builtins__": {}}, {}))
    except ZeroDivisionError:
        raise
    except (SyntaxError, TypeError) as exc:
        raise ValueError(f"invalid expression: {expression!r}") from exc
