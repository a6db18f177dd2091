"""Password-reset tokens."""

import secrets


def new_reset_token() -> str:
    """Return an unguessable, URL-safe token (128 bits of randomness)."""
    return secrets.token_urlsafe(16)
