SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    total, number, parts = 0, "", 0
    for ch in text.strip() if isinstance(text, str) else "":
        if ch.isascii() and ch.isdigit():
            number += ch
        elif ch in SECONDS and number:
            total += int(number) * SECONDS[ch]
            number, parts = "", parts + 1
        elif ch == " " and not number:
            continue
        else:
            raise ValueError(f"not a duration: {text!r}")
    if number or parts == 0:
        raise ValueError(f"not a duration: {text!r}")
    return total
