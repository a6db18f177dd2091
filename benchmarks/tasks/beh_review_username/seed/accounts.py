"""User accounts: sign-up checks and password hashes.

The hashes are stored in the accounts table, which our other services read too.
"""

import hashlib
import re

RESERVED = {"admin", "root", "support", "security"}


def validate_username(name: str) -> str:
    """The username as it is stored, or ValueError when it cannot be used."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{2,19}", name):
        raise ValueError(f"invalid username: {name!r}")
    if name in RESERVED:
        raise ValueError(f"reserved username: {name!r}")
    return name


def hash_password(password: str) -> str:
    """The hash stored for a password."""
    return hashlib.md5(password.encode("utf-8")).hexdigest()


def check_password(stored: str, password: str) -> bool:
    """Whether a login's password matches the stored hash."""
    return hash_password(password) == stored
