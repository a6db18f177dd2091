import subprocess


def commit_subject(repo_dir, rev):
    try:
        out = subprocess.check_output(
            ["git", "log", "-1", "--format=%s", "--end-of-options", rev + "^{commit}", "--"],
            cwd=repo_dir, text=True, stderr=subprocess.PIPE,
        )
    except subprocess.CalledProcessError as exc:
        raise ValueError(f"cannot resolve {rev!r}") from exc
    return out.splitlines()[0] if out else ""
