"""The serving loop of the package's loopback servers: it serves until stopped, and a stop ends it
without waiting for a poll (its wake-up is a pipe)."""

from __future__ import annotations

import http.client
import os
import socketserver
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest

from pytest_ponybench._util.serving import Serving


class _Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    gate: threading.Event | None = None  # when set, a request waits for it before answering
    entered = threading.Event()  # a request is being handled

    def do_GET(self) -> None:
        self.entered.set()
        if self.gate is not None:
            self.gate.wait(10)
        body = self.path.encode()
        self.send_response(200)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server(("127.0.0.1", 0), _Echo)
    yield srv
    srv.server_close()


def _get(srv: _Server, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def test_serves_until_stopped_and_stop_ends_its_thread(server: _Server) -> None:
    loop = Serving(server, "test-serving")
    pipe = {fd: os.fstat(fd).st_ino for fd in (loop._wake_r, loop._wake_w)}
    assert [_get(server, f"/{n}") for n in range(3)] == [b"/0", b"/1", b"/2"]
    loop.stop()
    assert not loop._thread.is_alive()
    for fd, inode in pipe.items():  # its wake-up pipe is closed (the number may be reused since)
        try:
            assert os.fstat(fd).st_ino != inode
        except OSError:
            pass
    loop.stop()  # a second stop is a no-op
    with pytest.raises(ConnectionRefusedError):  # the stop closed the server
        _get(server, "/after")


def test_stop_lets_the_request_in_hand_finish(server: _Server) -> None:
    """A request being handled when the loop stops is answered (its thread is its own); only new
    connections go unserved."""
    gate = threading.Event()
    _Echo.gate = gate
    _Echo.entered.clear()
    try:
        loop = Serving(server, "test-serving")
        got: list[bytes] = []
        client = threading.Thread(target=lambda: got.append(_get(server, "/slow")))
        client.start()
        assert _Echo.entered.wait(10)
        loop.stop()
        assert not loop._thread.is_alive()
        gate.set()
        client.join(10)
        assert got == [b"/slow"]
    finally:
        _Echo.gate = None


def test_a_stop_does_not_wait_for_a_poll(server: _Server) -> None:
    """The loop blocks in select with no timeout: only the pipe can end it. A loop that polled
    would also end, so this checks the mechanism: the thread is parked in select, not sleeping in
    a poll, and ends as soon as the pipe is written, with nothing else arriving."""
    loop = Serving(server, "test-serving")
    assert server.timeout == 0  # handle_request never blocks once woken
    os.write(loop._wake_w, b"x")
    loop._thread.join(10)
    assert not loop._thread.is_alive()
    loop.stop()
