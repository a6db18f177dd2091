import os


def render_listing(root, rel):
    path = os.path.join(root, rel)
    if not os.path.isdir(path):
        raise FileNotFoundError(rel)
    out = []
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if os.path.islink(full):
            name += "@"
        elif os.path.isdir(full):
            name += "/"
        out.append(name + "\n")
    return "".join(out)
