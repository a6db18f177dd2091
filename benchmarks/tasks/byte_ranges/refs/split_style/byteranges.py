def _number(text):
    if not text or not (text.isascii() and text.isdigit()):
        raise ValueError(f"not a number: {text!r}")
    return int(text)


def parse_range(header, size):
    if not header.startswith("bytes="):
        raise ValueError("only byte ranges are supported")
    result = []
    for raw in header[len("bytes="):].split(","):
        part = raw.strip(" ")
        if part.count("-") != 1:
            raise ValueError(f"bad range {raw!r}")
        a, b = part.split("-")
        if a == "":
            n = _number(b)
            if n:
                result.append((max(0, size - n), size - 1))
        else:
            first = _number(a)
            last = _number(b) if b else None
            if last is not None and last < first:
                raise ValueError(f"bad range {raw!r}")
            if first >= size:
                continue
            result.append((first, size - 1 if last is None else min(last, size - 1)))
    if not result:
        raise ValueError("range not satisfiable")
    return result
