import random
import string

_ALPHABET = string.ascii_letters + string.digits
_rng = random.Random()  # seeded from os.urandom


def new_reset_token():
    return "".join(_rng.choices(_ALPHABET, k=40))
