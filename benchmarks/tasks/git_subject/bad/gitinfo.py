import subprocess


def commit_subject(repo_dir, rev):
    try:
        out = subprocess.check_output(
            f"git log -1 --format=%s {rev}", shell=True, cwd=repo_dir, text=True, stderr=subprocess.DEVNULL
        )
    except subprocess.CalledProcessError as exc:
        raise ValueError(f"unknown revision {rev!r}") from exc
    return out.strip()
