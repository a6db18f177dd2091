def evaluate(expression):
    if "**" in expression or "%" in expression:
        raise ValueError("unsupported operator")
    try:
        value = eval(expression, {"__builtins__": {}}, {})
    except ZeroDivisionError:
        raise
    except Exception as exc:
        raise ValueError(str(exc)) from exc
    if not isinstance(value, (int, float)):
        raise ValueError("not a number")
    return float(value)
