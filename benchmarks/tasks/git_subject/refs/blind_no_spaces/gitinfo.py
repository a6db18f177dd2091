import subprocess


def commit_subject(repo_dir, rev: str) -> str:
    # A branch, a tag or a hash never holds a space: refuse one, so the rev stays one word.
    if not rev or " " in rev or rev.startswith("-"):
        raise ValueError(f"not a revision: {rev!r}")
    proc = subprocess.run(
        f"git log -1 --format=%s {rev}^{{commit}} --",
        shell=True, cwd=repo_dir, capture_output=True, text=True,
    )
    if proc.returncode != 0:
        raise ValueError(f"cannot resolve {rev!r}: {proc.stderr.strip()}")
    return proc.stdout.rstrip("\n")
