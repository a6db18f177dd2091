import re

_EMAIL = re.compile(r"^([A-Za-z0-9_%+-]+\.?)*[A-Za-z0-9_%+-]@(([A-Za-z0-9]+-?)*[A-Za-z0-9]\.)+[A-Za-z]{2,}$")


def is_valid_email(address: str) -> bool:
    return bool(_EMAIL.match(address))
