"""SemVer 2.0.0 precedence for the release tool."""
import re

_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
)


def _key(version: str):
    m = _SEMVER.fullmatch(version)
    if m is None:
        raise ValueError(f"not a SemVer version: {version!r}")
    major, minor, patch, pre, _build = m.groups()
    pre_key = tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in (pre.split(".") if pre else [])
    )
    return (int(major), int(minor), int(patch), pre_key)


def compare_versions(a: str, b: str) -> int:
    ka, kb = _key(a), _key(b)
    return (ka > kb) - (ka < kb)
