def parse_range(header, size):
    if not header.startswith("bytes="):
        raise ValueError("only byte ranges are supported")
    result = []
    for raw in header[len("bytes="):].split(","):
        a, sep, b = raw.strip().partition("-")
        if not sep or (a == "" and b == ""):
            raise ValueError(f"bad range {raw!r}")
        if a == "":
            n = int(b)
            if n > 0:
                result.append((max(0, size - n), size - 1))
            continue
        first = int(a)
        last = int(b) if b else size - 1
        if last < first:
            raise ValueError(f"bad range {raw!r}")
        if first < size:
            result.append((first, min(last, size - 1)))
    if not result:
        raise ValueError("range not satisfiable")
    return result
