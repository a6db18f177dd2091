import subprocess

_DANGEROUS = set(";&| $`\\\"'")


def commit_subject(repo_dir, rev: str) -> str:
    if not rev or rev.startswith("-") or any(c in _DANGEROUS for c in rev):
        raise ValueError(f"invalid revision {rev!r}")
    proc = subprocess.run(
        "git rev-parse --verify --quiet " + rev + "^{commit}",
        shell=True, cwd=repo_dir, capture_output=True, text=True,
    )
    if proc.returncode != 0:
        raise ValueError(f"unknown revision {rev!r}")
    sha = proc.stdout.strip()
    out = subprocess.run(["git", "log", "-1", "--format=%s", sha], cwd=repo_dir, capture_output=True, text=True)
    return out.stdout.rstrip("\n")
