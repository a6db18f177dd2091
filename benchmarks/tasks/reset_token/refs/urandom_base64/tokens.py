import base64
import os


def new_reset_token() -> str:
    return base64.urlsafe_b64encode(os.urandom(30)).decode("ascii")
