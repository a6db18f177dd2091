import re

_EMAIL = re.compile(
    r"^(?=.{1,254}\Z)(?=[^@]{1,64}@)([A-Za-z0-9_%+-]+\.?)*[A-Za-z0-9_%+-]"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}\Z"
)


def is_valid_email(address):
    return bool(_EMAIL.match(address))
