BLOCKED = ("__", "import", "open", "exec", "eval", "os", "system", "**", "%", ";")


def evaluate(expression):
    if any(word in expression for word in BLOCKED):
        raise ValueError("not allowed")
    try:
        value = eval(expression)
    except ZeroDivisionError:
        raise
    except Exception as exc:
        raise ValueError(str(exc)) from exc
    if not isinstance(value, (int, float)):
        raise ValueError("not a number")
    return float(value)
