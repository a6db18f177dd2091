import subprocess


def count_lines(path) -> int:
    # Spaces were the reported problem: escape them for the shell.
    safe = str(path).replace(" ", "\\ ")
    out = subprocess.run(f"wc -l {safe}", shell=True, capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0])
