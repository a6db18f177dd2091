def _parse(version):
    core, _, pre = version.split("+", 1)[0].partition("-")
    major, minor, patch = (int(x) for x in core.split("."))
    return (major, minor, patch), pre.split(".") if pre else []


def _compare_pre(a, b):
    for x, y in zip(a, b):
        if x == y:
            continue
        if x.isdigit() and y.isdigit():
            return -1 if int(x) < int(y) else 1
        if x.isdigit() != y.isdigit():
            return -1 if x.isdigit() else 1  # numeric identifiers sort before alphanumeric ones
        return -1 if x < y else 1
    return (len(a) > len(b)) - (len(a) < len(b))


def compare_versions(a, b):
    """-1, 0 or 1 as SemVer 2.0.0 precedence of a is lower, equal or higher than b."""
    core_a, pre_a = _parse(a)
    core_b, pre_b = _parse(b)
    if core_a != core_b:
        return -1 if core_a < core_b else 1
    if not pre_a or not pre_b:
        return (not pre_a) - (not pre_b)  # a release is higher than its pre-releases
    return _compare_pre(pre_a, pre_b)
