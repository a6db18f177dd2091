"""Loopback servers the package runs in a thread of its own (the gateway, the offline model
server): each one's serving thread, the `with` form of their start and stop, and what their HTTP
handlers share (a request's body read, whatever its framing; no log line on stderr)."""

from __future__ import annotations

import os
import selectors
import socketserver
import threading
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any, Self

__all__ = ["Handler", "Served", "Serving"]


class Serving:
    """`server` handling requests on a daemon thread of its own until `stop`.

    `stop` wakes the loop through a pipe and returns once it ended: socketserver's serve_forever
    looks for a shutdown only between polls, which made each stop wait up to its poll interval,
    at the end of every worker and run.
    """

    def __init__(self, server: socketserver.TCPServer, name: str) -> None:
        self.server = server
        server.timeout = 0  # handle_request returns at once when what woke the loop is gone
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.server, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while True:
                ready = selector.select()
                if any(key.fd == self._wake_r for key, _ in ready):
                    return
                self.server.handle_request()

    def stop(self, timeout_s: float = 5.0) -> None:
        """End the loop and wait for it, then close the server (a request being handled goes on
        in its own thread and is answered)."""
        if self._wake_w < 0:
            return
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=timeout_s)
        if not self._thread.is_alive():  # a loop still running keeps its pipe open
            os.close(self._wake_r)
        os.close(self._wake_w)
        self._wake_w = -1
        self.server.server_close()


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
