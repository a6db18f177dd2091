def _key(version):
    version = version.split("+", 1)[0]
    core, _, pre = version.partition("-")
    numbers = tuple(int(x) for x in core.split("."))
    # a release sorts after its pre-releases
    return numbers, (1, "") if not pre else (0, pre)


def compare_versions(a, b):
    """-1, 0 or 1 as SemVer 2.0.0 precedence of a is lower, equal or higher than b."""
    ka, kb = _key(a), _key(b)
    return (ka > kb) - (ka < kb)
