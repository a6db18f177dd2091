"""Sign-up form e-mail validation."""
import re

_LOCAL = r"[A-Za-z0-9_%+-]+(?:\.?[A-Za-z0-9_%+-]+)*"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_EMAIL = re.compile(rf"({_LOCAL})@((?:{_LABEL}\.)+[A-Za-z]{{2,63}})")


def is_valid_email(address: str) -> bool:
    if not isinstance(address, str) or len(address) > 254:
        return False
    m = _EMAIL.fullmatch(address)
    if m is None:
        return False
    return len(m.group(1)) <= 64
