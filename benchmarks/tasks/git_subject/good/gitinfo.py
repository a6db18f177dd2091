import subprocess


def commit_subject(repo_dir, rev: str) -> str:
    if not rev or rev.startswith("-"):
        raise ValueError(f"not a revision: {rev!r}")
    done = subprocess.run(
        ["git", "log", "-1", "--format=%s", rev + "^{commit}", "--"],
        cwd=repo_dir, capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise ValueError(f"unknown revision {rev!r}: {done.stderr.strip()}")
    return done.stdout.rstrip("\n")
