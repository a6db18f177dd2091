"""Sign-up form e-mail validation."""
import re

_EMAIL = re.compile(
    r"^(?=[^@]{1,64}@)"  # local part length
    r"[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*"  # local part, no leading/trailing/double dot
    r"@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"  # labels
    r"[A-Za-z]{2,63}$"  # last label: letters only
)


def is_valid_email(address: str) -> bool:
    if len(address) > 254:
        return False
    return _EMAIL.match(address) is not None
