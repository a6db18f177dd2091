def archive_command(folder, archive, excludes=()):
    parts = ["tar", "-czf", f'"{archive}"']
    for pattern in excludes:
        parts.append(f'--exclude="{pattern}"')
    parts += ["-C", f'"{folder}"', "."]
    return " ".join(parts)
