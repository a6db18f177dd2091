"""SQLite storage of notes. Every query takes the owner's id: a user only ever sees their notes."""

import sqlite3
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS notes_owner ON notes(owner_id);
"""


@dataclass(frozen=True)
class Note:
    id: int
    owner_id: int
    title: str
    body: str


class NoteStore:
    def __init__(self, conn):
        self.conn = conn

    @classmethod
    def open(cls, path):
        conn = sqlite3.connect(path)
        conn.executescript(SCHEMA)
        return cls(conn)

    def add(self, owner_id, title, body=""):
        cur = self.conn.execute(
            "INSERT INTO notes (owner_id, title, body) VALUES (?, ?, ?)", (owner_id, title, body)
        )
        self.conn.commit()
        return Note(cur.lastrowid, owner_id, title, body)

    def get(self, owner_id, note_id):
        """The note, or None if it does not exist or belongs to someone else."""
        row = self.conn.execute(
            "SELECT id, owner_id, title, body FROM notes WHERE id = ? AND owner_id = ?",
            (note_id, owner_id),
        ).fetchone()
        return Note(*row) if row else None

    def delete(self, owner_id, note_id):
        """Delete the owner's note; False (and nothing deleted) if it is missing or someone else's."""
        cur = self.conn.execute("DELETE FROM notes WHERE id = ? AND owner_id = ?", (note_id, owner_id))
        self.conn.commit()
        return cur.rowcount > 0

    def list_for(self, owner_id):
        rows = self.conn.execute(
            "SELECT id, owner_id, title, body FROM notes WHERE owner_id = ? ORDER BY id", (owner_id,)
        )
        return [Note(*row) for row in rows]
