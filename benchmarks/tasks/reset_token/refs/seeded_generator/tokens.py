import random
import string

_rng = random.Random(20240501)
_ALPHABET = string.ascii_letters + string.digits + "-_"


def new_reset_token():
    return "".join(_rng.choice(_ALPHABET) for _ in range(43))
