"""SemVer 2.0.0 precedence for the release tool."""


def _parse(version: str):
    core, _, build = version.partition("+")
    core, _, pre = core.partition("-")
    major, minor, patch = (int(p) for p in core.split("."))
    return (major, minor, patch), pre.split(".") if pre else [], build


def _cmp_ident(a: str, b: str) -> int:
    a_num, b_num = a.isdigit(), b.isdigit()
    if a_num and b_num:
        x, y = int(a), int(b)
    elif a_num != b_num:
        return -1 if a_num else 1
    else:
        x, y = a, b
    return (x > y) - (x < y)


def compare_versions(a: str, b: str) -> int:
    core_a, pre_a, build_a = _parse(a)
    core_b, pre_b, build_b = _parse(b)
    if core_a != core_b:
        return -1 if core_a < core_b else 1
    if pre_a != pre_b:
        if not pre_a:
            return 1
        if not pre_b:
            return -1
        for x, y in zip(pre_a, pre_b):
            c = _cmp_ident(x, y)
            if c:
                return c
        return (len(pre_a) > len(pre_b)) - (len(pre_a) < len(pre_b))
    # Same version: make the order total by looking at the build too.
    return (build_a > build_b) - (build_a < build_b)
