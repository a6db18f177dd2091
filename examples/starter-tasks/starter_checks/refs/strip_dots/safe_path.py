from pathlib import Path


def resolve_inside(base, name):
    cleaned = name.replace("../", "")
    return (Path(base) / cleaned).resolve()
