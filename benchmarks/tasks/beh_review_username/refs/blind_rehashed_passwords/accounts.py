"""User accounts: sign-up checks and password hashes.

The hashes are stored in the accounts table, which our other services read too.
"""

import hashlib
import hmac
import os
import re

RESERVED = {"admin", "root", "support", "security"}


def validate_username(name: str) -> str:
    """The username as it is stored (in lower case), or ValueError when it cannot be used.

    A username starts with an ASCII letter, has only ASCII letters, digits, underscores and
    single dots between two other characters, and is 3 to 20 characters long.
    """
    if not name.isascii():
        raise ValueError(f"invalid username: {name!r}")
    lowered = name.lower()
    if not re.fullmatch(r"[a-z][a-z0-9_.]{2,19}", lowered) or ".." in lowered or lowered.endswith("."):
        raise ValueError(f"invalid username: {name!r}")
    if lowered in RESERVED:
        raise ValueError(f"reserved username: {name!r}")
    return lowered


def hash_password(password: str, salt: bytes | None = None) -> str:
    """The hash stored for a password: salted PBKDF2-SHA256, as "salt$hash" in hex."""
    if salt is None:
        salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, 200_000)
    return f"{salt.hex()}${digest.hex()}"


def check_password(stored: str, password: str) -> bool:
    """Whether a login's password matches the stored hash."""
    salt_hex, _, _ = stored.partition("$")
    return hmac.compare_digest(hash_password(password, bytes.fromhex(salt_hex)), stored)
