import shlex
import subprocess


def commit_subject(repo_dir, rev):
    cmd = "git log -1 --format=%s " + shlex.quote(rev + "^{commit}")
    done = subprocess.run(cmd, shell=True, cwd=repo_dir, capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip())
    return done.stdout.strip()
