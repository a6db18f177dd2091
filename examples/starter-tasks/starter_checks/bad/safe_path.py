from pathlib import Path


def resolve_inside(base, name):
    return Path(base).absolute() / name
