def _key(version):
    version = version.split("+", 1)[0]
    core, sep, pre = version.partition("-")
    numbers = tuple(int(p) for p in core.split("."))
    if not sep:
        return numbers, (1,)
    ids = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split("."))
    return numbers, (0, ids)


def compare_versions(a: str, b: str) -> int:
    ka, kb = _key(a), _key(b)
    return (ka > kb) - (ka < kb)
