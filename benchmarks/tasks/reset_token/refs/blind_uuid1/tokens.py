"""Password-reset tokens."""

import uuid


def new_reset_token() -> str:
    """Return a unique token for a password-reset link (32 hex characters)."""
    # uuid1 is guaranteed unique (timestamp + node), so two users never get the same token.
    return uuid.uuid1().hex
