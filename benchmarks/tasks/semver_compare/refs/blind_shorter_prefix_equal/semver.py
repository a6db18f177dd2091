"""SemVer 2.0.0 precedence for the release tool."""
from functools import total_ordering


@total_ordering
class _Ident:
    def __init__(self, text: str) -> None:
        self.numeric = text.isdigit()
        self.value = int(text) if self.numeric else text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Ident) and (self.numeric, self.value) == (other.numeric, other.value)

    def __lt__(self, other: "_Ident") -> bool:
        if self.numeric != other.numeric:
            return self.numeric  # numeric identifiers sort first
        return self.value < other.value


def _split(version: str):
    version = version.split("+", 1)[0]
    core, _, pre = version.partition("-")
    return tuple(int(x) for x in core.split(".")), [_Ident(p) for p in pre.split(".")] if pre else []


def compare_versions(a: str, b: str) -> int:
    core_a, pre_a = _split(a)
    core_b, pre_b = _split(b)
    if core_a != core_b:
        return -1 if core_a < core_b else 1
    if bool(pre_a) != bool(pre_b):
        return -1 if pre_a else 1  # a pre-release is lower than the release
    for x, y in zip(pre_a, pre_b):
        if x != y:
            return -1 if x < y else 1
    return 0
