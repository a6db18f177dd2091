"""Sign-up form e-mail validation."""
import re

_LOCAL = re.compile(r"[a-z0-9_%+-]+(?:\.[a-z0-9_%+-]+)*", re.IGNORECASE)
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?", re.IGNORECASE)
_TLD = re.compile(r"[a-z]{2,63}", re.IGNORECASE)


def is_valid_email(address: str) -> bool:
    if len(address) > 254 or address.count("@") != 1:
        return False
    local, _, domain = address.partition("@")
    if len(local) > 64 or not _LOCAL.fullmatch(local):
        return False
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(lab) for lab in labels):
        return False
    return _TLD.fullmatch(labels[-1]) is not None
