import subprocess


def commit_subject(repo_dir, rev):
    done = subprocess.run(["git", "log", "-1", "--format=%s", rev + "^{commit}"], cwd=repo_dir,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip())
    return done.stdout.strip()
