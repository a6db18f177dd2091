"""User accounts: sign-up checks and password hashes.

The hashes are stored in the accounts table, which our other services read too.
"""

import hashlib
import hmac
import os
import re

RESERVED = {"admin", "root", "support", "security"}


def validate_username(name: str) -> str:
    """The username as it is stored, or ValueError when it cannot be used."""
    name = name.lower()
    if not re.fullmatch(r"[a-z](?:\.?[a-z0-9_])*", name) or not 3 <= len(name) <= 20:
        raise ValueError(f"invalid username: {name!r}")
    if name in RESERVED:
        raise ValueError(f"reserved username: {name!r}")
    return name


def hash_password(password: str) -> str:
    """The hash stored for a password: salted PBKDF2 (salt$hash, hex)."""
    salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, 200_000)
    return f"{salt.hex()}${digest.hex()}"


def check_password(stored: str, password: str) -> bool:
    """Whether a login's password matches the stored hash (old MD5 hashes still accepted)."""
    if "$" not in stored:
        return hmac.compare_digest(hashlib.md5(password.encode("utf-8")).hexdigest(), stored)
    salt, digest = stored.split("$", 1)
    again = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), bytes.fromhex(salt), 200_000)
    return hmac.compare_digest(again.hex(), digest)
