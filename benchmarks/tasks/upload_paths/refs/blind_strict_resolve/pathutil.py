from pathlib import Path


def safe_join(base_dir, name):
    base = Path(base_dir).resolve(strict=True)
    target = (base / name).resolve(strict=True)
    if not target.is_relative_to(base):
        raise ValueError(f"{name!r} leads outside {base}")
    return target
