"""Password-reset tokens."""

import hashlib
import os
import time


def new_reset_token() -> str:
    """Return a unique token for a password-reset link (64 hex characters)."""
    seed = f"{time.time_ns()}-{os.getpid()}"
    return hashlib.sha256(seed.encode()).hexdigest()
