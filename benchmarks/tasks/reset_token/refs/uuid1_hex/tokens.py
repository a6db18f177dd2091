import uuid


def new_reset_token():
    return uuid.uuid1().hex
