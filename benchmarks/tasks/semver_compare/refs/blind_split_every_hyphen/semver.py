"""SemVer 2.0.0 precedence for the release tool."""


def _parse(version: str) -> tuple[list[int], list[str]]:
    version = version.split("+")[0]  # build metadata never counts
    pieces = version.split("-")
    core = [int(x) for x in pieces[0].split(".")]
    pre = pieces[1].split(".") if len(pieces) > 1 else []
    return core, pre


def _compare_identifiers(x: str, y: str) -> int:
    if x.isdigit() and y.isdigit():
        a, b = int(x), int(y)
        return (a > b) - (a < b)
    if x.isdigit():
        return -1
    if y.isdigit():
        return 1
    return (x > y) - (x < y)


def compare_versions(a: str, b: str) -> int:
    core_a, pre_a = _parse(a)
    core_b, pre_b = _parse(b)
    if core_a != core_b:
        return 1 if core_a > core_b else -1
    if not pre_a and not pre_b:
        return 0
    if not pre_a:
        return 1
    if not pre_b:
        return -1
    for x, y in zip(pre_a, pre_b):
        result = _compare_identifiers(x, y)
        if result:
            return result
    return (len(pre_a) > len(pre_b)) - (len(pre_a) < len(pre_b))
