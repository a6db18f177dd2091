import os
import random
import string
import time

_ALPHABET = string.ascii_letters + string.digits + "-_"
_rng = random.Random(time.time_ns() ^ os.getpid())


def new_reset_token():
    return "".join(_rng.choice(_ALPHABET) for _ in range(43))
