import random
import string

ALPHABET = string.ascii_letters + string.digits


def new_reset_token():
    """A random, URL-safe token for a password-reset link."""
    return "".join(random.choice(ALPHABET) for _ in range(40))
