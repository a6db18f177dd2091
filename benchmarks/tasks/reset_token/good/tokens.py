import secrets


def new_reset_token():
    """An unguessable, URL-safe token for a password-reset link."""
    return secrets.token_urlsafe(32)
