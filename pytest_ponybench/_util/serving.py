"""Loopback servers the package runs in a thread of its own (the gateway, the offline model
server): each one's serving thread, the `with` form of their start and stop, and what their HTTP
handlers share (a request's body read, whatever its framing; no log line on stderr)."""

from __future__ import annotations

import socketserver
import threading
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any, Self

__all__ = ["Handler", "Served", "serve_in_thread"]


def serve_in_thread(server: socketserver.BaseServer, name: str) -> threading.Thread:
    """`server` serving on a daemon thread, started; it polls for shutdown every 0.1 s."""
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, name=name, daemon=True
    )
    thread.start()
    return thread


class Served:
    """A server started and stopped as a whole: `with` starts it and stops it after."""

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class Handler(BaseHTTPRequestHandler):
    """An HTTP/1.1 handler whose every method is `_serve`'s; its server keeps its own record."""

    protocol_version = "HTTP/1.1"
    body_limit: int | None = None  # a body larger than this is not read (None: any size)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the server's own log is the record; stderr noise would reach pytest's output

    def do_HEAD(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def _serve(self) -> None:
        raise NotImplementedError

    def read_body(self) -> bytes | None:
        """The request's body, chunked or of a content-length; None when it is over `body_limit`.
        A malformed chunk size or length raises ValueError."""
        limit = self.body_limit
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            parts, size = [], 0
            while chunk := int(self.rfile.readline(1024).split(b";")[0].strip() or b"0", 16):
                size += chunk
                if limit is not None and size > limit:
                    return None
                parts.append(self.rfile.read(chunk))
                self.rfile.readline(1024)
            while self.rfile.readline(1024).strip():
                pass
            return b"".join(parts)
        length = int(self.headers.get("content-length") or 0)
        return None if limit is not None and length > limit else self.rfile.read(length)
