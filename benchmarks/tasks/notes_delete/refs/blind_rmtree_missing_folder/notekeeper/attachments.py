"""Attachment files on disk: <root>/<note id>/<file name>."""

import shutil
from pathlib import Path


class AttachmentStore:
    def __init__(self, root):
        self.root = Path(root)

    def folder(self, note_id):
        return self.root / str(int(note_id))

    def save(self, note_id, filename, data):
        if "/" in filename or "\\" in filename or filename in ("", ".", ".."):
            raise ValueError(f"not a plain file name: {filename!r}")
        folder = self.folder(note_id)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / filename).write_bytes(data)

    def names(self, note_id):
        folder = self.folder(note_id)
        return sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []

    def delete_all(self, note_id):
        """Remove the note's attachment folder and its files."""
        shutil.rmtree(self.folder(note_id))
