"""Parse an HTTP Range header into inclusive byte offsets."""

import re

_PART = re.compile(r"([0-9]*)-([0-9]*)")


def parse_range(header: str, size: int) -> list[tuple[int, int]]:
    unit, sep, spec = header.partition("=")
    if not sep or unit.strip() != "bytes":
        raise ValueError(f"not a bytes range: {header!r}")
    parts = spec.split(",")
    ranges: list[tuple[int, int]] = []
    for raw in parts:
        part = raw.strip(" ")
        if not part:
            continue  # tolerate stray commas
        m = _PART.fullmatch(part)
        if m is None or (m.group(1) == "" and m.group(2) == ""):
            raise ValueError(f"malformed range: {raw!r}")
        first_s, last_s = m.groups()
        if first_s == "":
            suffix = int(last_s)
            if suffix == 0:
                continue
            ranges.append((max(size - suffix, 0), size - 1))
            continue
        first = int(first_s)
        last = int(last_s) if last_s else size - 1
        if last < first:
            raise ValueError(f"last before first: {raw!r}")
        if first >= size:
            continue
        ranges.append((first, min(last, size - 1)))
    if not ranges:
        raise ValueError(f"no satisfiable range: {header!r}")
    return ranges

