import ast
import operator

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_UN = {ast.USub: operator.neg, ast.UAdd: operator.pos}


def _eval(node):
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _flat(node)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UN:
        return _UN[type(node.op)](_eval(node.operand))
    raise ValueError(f"not allowed in a formula: {ast.dump(node)[:40]}")


def _flat(node):
    """Operands and operators in reading order, applied left to right."""
    items = []

    def walk(n):
        if isinstance(n, ast.BinOp) and type(n.op) in _BIN:
            walk(n.left)
            items.append(n.op)
            walk(n.right)
        else:
            items.append(_eval(n))

    walk(node)
    value = items[0]
    for op, operand in zip(items[1::2], items[2::2]):
        value = _BIN[type(op)](value, operand)
    return value


def evaluate(expression: str) -> float:
    """The value of an arithmetic formula: numbers, + - * /, unary minus, parentheses."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"not a formula: {expression!r}") from exc
    return float(_eval(tree))
