"""Password-reset tokens."""

import random
import secrets
import string

ALPHABET = string.ascii_letters + string.digits + "-_"


def new_reset_token() -> str:
    """Return a 43-character URL-safe token for password-reset links."""
    # Seed a fresh generator from the OS CSPRNG so tokens can't be predicted across calls.
    rng = random.Random(secrets.randbits(32))
    return "".join(rng.choice(ALPHABET) for _ in range(43))
