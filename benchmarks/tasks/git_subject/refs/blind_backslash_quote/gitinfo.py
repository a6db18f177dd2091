import subprocess


def commit_subject(repo_dir, rev: str) -> str:
    if rev.startswith("-"):
        raise ValueError(f"invalid revision {rev!r}")
    quoted = "'" + rev.replace("'", "\\'") + "'"
    cmd = f"git -C '{repo_dir}' show -s --format=%s {quoted}^{{commit}} --"
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ValueError(proc.stderr.strip() or f"cannot resolve {rev!r}")
    return proc.stdout.rstrip("\n")
