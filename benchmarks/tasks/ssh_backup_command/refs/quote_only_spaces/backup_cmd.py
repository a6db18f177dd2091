def archive_command(folder, archive, excludes=()):
    def q(s):
        return s.replace(" ", "\\ ")
    excl = " ".join(f"--exclude={q(p)}" for p in excludes)
    return f"tar -czf {q(archive)} {excl} -C {q(folder)} .".replace("  ", " ")
