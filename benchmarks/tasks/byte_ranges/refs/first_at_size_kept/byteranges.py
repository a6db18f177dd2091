import re

_PART = re.compile(r"([0-9]*)-([0-9]*)")


def parse_range(header: str, size: int) -> list[tuple[int, int]]:
    """The satisfiable (first, last) byte ranges of a Range header, for a file of `size` bytes."""
    unit, eq, spec = header.partition("=")
    if unit != "bytes" or not eq:
        raise ValueError(f"not a bytes range: {header!r}")
    ranges = []
    for part in spec.split(","):
        m = _PART.fullmatch(part.strip(" "))
        if m is None or m.group(1) == m.group(2) == "":
            raise ValueError(f"malformed range {part!r}")
        first, last = m.groups()
        if first == "":
            length = int(last)
            if length > 0:
                ranges.append((max(size - length, 0), size - 1))
            continue
        start = int(first)
        end = size - 1 if last == "" else int(last)
        if last != "" and end < start:
            raise ValueError(f"range {part!r} ends before it starts")
        if start <= size:
            ranges.append((start, min(end, size - 1)))
    if not ranges:
        raise ValueError(f"no satisfiable range in {header!r}")
    return ranges
