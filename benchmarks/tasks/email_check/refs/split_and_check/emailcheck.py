import string

LOCAL = set(string.ascii_letters + string.digits + "._%+-")
LABEL = set(string.ascii_letters + string.digits + "-")


def is_valid_email(address):
    if not isinstance(address, str) or len(address) > 254 or address.count("@") != 1:
        return False
    local, domain = address.split("@")
    if not 1 <= len(local) <= 64 or not set(local) <= LOCAL:
        return False
    if local.startswith(".") or local.endswith(".") or ".." in local:
        return False
    labels = domain.split(".")
    if len(labels) < 2:
        return False
    for label in labels:
        if not 1 <= len(label) <= 63 or not set(label) <= LABEL or label[0] == "-" or label[-1] == "-":
            return False
    last = labels[-1]
    return len(last) >= 2 and all(c in string.ascii_letters for c in last)
