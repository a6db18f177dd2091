"""A session's output read live by the harness, through a socket nothing else in the cell can open.

Everything in a cell (a plugin's hooks, an MCP server, the agent's tools) runs as the same user
as claude, in the same namespaces. Were claude's stdout a file, any of them could reopen it
through `/proc/<claude>/fd/1` and truncate or rewrite what the harness later reads as the
session's cost, tokens, tool calls and reply. A unix socket cannot be opened through /proc
(`ENXIO`), and `pidfd_getfd` is refused by the seccomp filter, so only a process that inherited
the descriptor can write to it; the harness's end has `SO_PASSCRED`, so every chunk arrives with
the pid of the process that wrote it. The harness copies what it reads into the cell folder
(which no cell can see), under a cap, hashing it as it goes.

`Capture` is what the live read saw: the writers, whether the cap was reached, the hash. Whoever
parses the copy checks it against that (`tampering`).
"""

from __future__ import annotations

import hashlib
import os
import socket
import struct
import threading
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Capture", "LiveOutput", "STDERR_CAP", "STREAM_CAP", "file_matches"]

STREAM_CAP = 32 << 20  # a session's stream-json: far above any real session's, and bounded
STDERR_CAP = 1 << 20
_UCRED = struct.Struct("iII")  # struct ucred: pid, uid, gid
_CHUNK = 1 << 16


@dataclass
class Capture:
    """What the live read of one output saw."""

    path: Path
    cap: int
    bytes: int = 0  # written to path
    dropped: int = 0  # read past the cap, not written
    sha256: str = ""
    writer: int | None = None  # the pid of the first process that wrote: the session
    foreign: list[int] = field(default_factory=list)  # any other process that wrote
    error: str | None = None  # the read itself failed (the copy could not be written)

    @property
    def over_cap(self) -> bool:
        return self.dropped > 0


class LiveOutput:
    """One socket pair: `child` becomes the session's stdout (or stderr), the harness reads the
    other end on a thread of its own into `path`."""

    def __init__(self, path: Path, cap: int) -> None:
        self.capture = Capture(path, cap)
        self.first_output = threading.Event()
        self._ours, self._theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        # Set before anything is written: the kernel then attaches each writer's credentials.
        self._ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self._thread = threading.Thread(target=self._read, name=f"ponybench-live-{path.name}", daemon=True)
        self._out = open(path, "wb")  # noqa: SIM115  (closed by the reading thread)
        self._thread.start()

    @property
    def child(self) -> int:
        """The descriptor to hand to the child process (Popen dups it onto 1 or 2)."""
        return self._theirs.fileno()

    def started(self) -> None:
        """The child holds its copy: drop the harness's, so the read ends when the child's do."""
        self._theirs.close()

    def finish(self, timeout_s: float = 5.0) -> Capture:
        """Wait for the end of the output (every writer closed), at most timeout_s; a writer that
        keeps it open past that (nothing should: the session's PID namespace is gone) is cut."""
        self._theirs.close()
        self._thread.join(timeout_s)
        if self._thread.is_alive():
            try:
                self._ours.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._thread.join()
        self._ours.close()
        return self.capture

    def _read(self) -> None:
        cap, digest = self.capture, hashlib.sha256()
        space = socket.CMSG_SPACE(_UCRED.size)
        try:
            while True:
                try:
                    data, ancdata, _, _ = self._ours.recvmsg(_CHUNK, space)
                except OSError:
                    break
                if not data:
                    break
                self._note_writer(ancdata)
                room = max(0, cap.cap - cap.bytes)
                kept = data[:room]
                if kept:
                    self._out.write(kept)
                    digest.update(kept)
                    cap.bytes += len(kept)
                cap.dropped += len(data) - len(kept)
                self.first_output.set()
        except OSError as exc:  # the copy could not be written (a full disk)
            cap.error = f"{type(exc).__name__}: {exc}"
            self._drain()
        finally:
            try:
                self._out.close()
            except OSError as exc:
                cap.error = cap.error or f"{type(exc).__name__}: {exc}"
            cap.sha256 = digest.hexdigest()
            self.first_output.set()

    def _drain(self) -> None:
        """Keep reading (and dropping) so the session is never blocked on a full socket."""
        while True:
            try:
                data = self._ours.recv(_CHUNK)
            except OSError:
                return
            if not data:
                return
            self.capture.dropped += len(data)

    def _note_writer(self, ancdata: list[tuple[int, int, bytes]]) -> None:
        cap = self.capture
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and len(payload) >= _UCRED.size:
                pid = _UCRED.unpack_from(payload)[0]
                if cap.writer is None:
                    cap.writer = pid
                elif pid != cap.writer and pid not in cap.foreign:
                    cap.foreign.append(pid)


def file_matches(capture: Capture) -> bool:
    """Whether the copy on disk is still exactly what was read live."""
    digest = hashlib.sha256()
    try:
        if os.path.getsize(capture.path) != capture.bytes:
            return False
        with open(capture.path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return False
    return digest.hexdigest() == capture.sha256
