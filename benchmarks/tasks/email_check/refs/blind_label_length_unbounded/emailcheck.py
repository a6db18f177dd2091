"""Sign-up form e-mail validation."""
import re

_LOCAL = re.compile(r"[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*")
_LABEL = re.compile(r"[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)*")
_TLD = re.compile(r"[A-Za-z]{2,}")


def is_valid_email(address: str) -> bool:
    if len(address) > 254 or address.count("@") != 1:
        return False
    local, domain = address.split("@")
    if not 1 <= len(local) <= 64 or not _LOCAL.fullmatch(local):
        return False
    labels = domain.split(".")
    if len(labels) < 2:
        return False
    if not all(_LABEL.fullmatch(label) for label in labels):
        return False
    return _TLD.fullmatch(labels[-1]) is not None
