"""Password-reset tokens."""

import base64
import os


def new_reset_token() -> str:
    """Return a random token for password-reset links."""
    return base64.b64encode(os.urandom(32)).decode("ascii").rstrip("=")
