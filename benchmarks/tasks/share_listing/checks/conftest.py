import os

import pytest

# Raw names in the share's root, and how the listing writes each.
NAMES = {
    b"a.txt": "a.txt",
    b"Zeta.md": "Zeta.md",
    b"sp ace.txt": "sp ace.txt",
    b"-dash": "-dash",
    b"~tilde": "~tilde",
    b"caf\xc3\xa9.txt": "caf\\xc3\\xa9.txt",
    b"raw\xff\xfe": "raw\\xff\\xfe",
    b"new\nline": "new\\x0aline",
    b"esc\x1b[31mred": "esc\\x1b[31mred",
    b"back\\slash": "back\\\\slash",
    b"tab\there": "tab\\x09here",
    b"\x7fdel": "\\x7fdel",
    b"c1\x9bcsi": "c1\\x9bcsi",
    b"cr\rret": "cr\\x0dret",
    b"\xef\xbc\xa1wide": "\\xef\\xbc\\xa1wide",
    b"\xfflead": "\\xfflead",
    b"us\x1fsep": "us\\x1fsep",
}


class Share:
    def __init__(self, base):
        self.base = base
        self.root = base / "share"
        self.outside = base / "elsewhere"
        for d in (self.root, self.outside):
            d.mkdir()
        broot = os.fsencode(self.root)
        for raw in NAMES:
            with open(os.path.join(broot, raw), "wb") as f:
                f.write(b"x")
        (self.root / "B dir").mkdir()
        (self.root / "sub").mkdir()
        (self.root / "sub" / "inner").mkdir()
        (self.root / "sub" / "notes.txt").write_text("n")
        (self.root / "sub" / "empty").mkdir()
        (self.root / "link_out").symlink_to(self.outside, target_is_directory=True)
        (self.root / "link_file").symlink_to(self.root / "a.txt")
        (self.root / "dangling").symlink_to(self.base / "nowhere")
        (self.root / "sub" / "up").symlink_to(self.root / "sub" / "inner", target_is_directory=True)
        (self.outside / "secret_plans.txt").write_text("s")
        (self.outside / "secretdir").mkdir()
        (self.outside / "secretdir" / "secret_keys.txt").write_text("k")
        # a folder beside the share whose name starts with the share's name
        self.sibling = base / "share_private"
        self.sibling.mkdir()
        (self.sibling / "secret_payroll.csv").write_text("p")
        (self.sibling / "secretdir").mkdir()

    def root_listing(self):
        entries = dict(NAMES)
        entries.update({b"B dir": "B dir/", b"sub": "sub/", b"link_out": "link_out@",
                        b"link_file": "link_file@", b"dangling": "dangling@"})
        return "".join(entries[k] + "\n" for k in sorted(entries))


@pytest.fixture
def share(tmp_path):
    return Share(tmp_path)
