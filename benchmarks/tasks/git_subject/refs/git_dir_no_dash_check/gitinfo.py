import os
import subprocess


def commit_subject(repo_dir, rev):
    git_dir = os.path.join(os.fspath(repo_dir), ".git")
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "log", "-1", "--format=%s", rev + "^{commit}"],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise ValueError(f"git cannot resolve {rev!r}: {done.stderr.strip()}")
    return done.stdout.rstrip("\n")
