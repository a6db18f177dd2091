"""Sign-up form e-mail validation."""
import re

_LOCAL = re.compile(r"[\w%+-]+(?:\.[\w%+-]+)*")
_LABEL = re.compile(r"\w(?:[\w-]{0,61}\w)?")
_TLD = re.compile(r"[^\W\d_]{2,}")


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
    return bool(_TLD.fullmatch(labels[-1]))
