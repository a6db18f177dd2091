import subprocess


def count_lines(path) -> int:
    # Single quotes keep spaces and odd characters together; escape any quote inside.
    quoted = "'" + str(path).replace("'", "\\'") + "'"
    out = subprocess.run("wc -l < " + quoted, shell=True, capture_output=True, text=True, check=True)
    return int(out.stdout.strip())
