def evaluate(expression: str) -> float:
    """The value of an arithmetic formula."""
    try:
        return float(eval(expression))
    except ZeroDivisionError:
        raise
    except Exception as exc:
        raise ValueError(f"not a formula: {expression!r}") from exc
