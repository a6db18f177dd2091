"""SemVer 2.0.0 precedence for the release tool."""


def _cmp(x, y) -> int:
    return (x > y) - (x < y)


def _pre_key(ident: str):
    return (0, int(ident), "") if ident.isdigit() else (1, 0, ident)


def compare_versions(a: str, b: str) -> int:
    a = a.split("+", 1)[0]
    b = b.split("+", 1)[0]
    core_a, _, pre_a = a.partition("-")
    core_b, _, pre_b = b.partition("-")
    c = _cmp(core_a.split("."), core_b.split("."))
    if c:
        return c
    if pre_a == pre_b:
        return 0
    if not pre_a:
        return 1
    if not pre_b:
        return -1
    return _cmp([_pre_key(p) for p in pre_a.split(".")], [_pre_key(p) for p in pre_b.split(".")])
