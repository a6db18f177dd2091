import hashlib
import time


def new_reset_token():
    return hashlib.sha256(f"reset-{time.time_ns()}".encode()).hexdigest()
