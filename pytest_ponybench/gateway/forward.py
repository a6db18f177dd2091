"""One request forwarded to its upstream over a socket of its own, the answer streamed back.

Bytes pass as they come: the answer's head is rewritten (hop-by-hop headers dropped), its body
is relayed raw (chunked stays chunked) while a copy of the decoded body feeds the meter. While
it waits the forwarder watches both ends: a client that leaves (a CLI that gave up) ends the
upstream request at once, and an upstream silent for longer than its timeout ends it too.
"""

from __future__ import annotations

import select
import socket
import ssl
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pytest_ponybench.gateway.upstream import Upstream, proxy_for

__all__ = [
    "Chunks",
    "Forwarded",
    "HEAD_LIMIT",
    "HOP_BY_HOP",
    "UpstreamError",
    "forward",
    "request_head",
]

HEAD_LIMIT = 65_536
_POLL_S = 0.25
# Headers that belong to one connection (RFC 9110 7.6.1) or that the gateway sets itself.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "accept-encoding",
    }
)
# What a client may never send on: its own credential (the cell's token), replaced upstream.
_CREDENTIAL_HEADERS = frozenset({"x-api-key", "authorization"})


class UpstreamError(Exception):
    """The upstream could not be reached or broke off; `status` is what the client is told."""

    def __init__(self, status: int, message: str, unreachable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.unreachable = unreachable  # nothing answered: the client is best told nothing too


class ClientGone(Exception):
    """The client closed its connection while the answer was on its way."""


@dataclass
class Forwarded:
    """How one forwarded request went."""

    status: int = 0
    headers: list[tuple[str, str]] = field(default_factory=list)
    first_byte_s: float | None = None  # from sending the request to the answer's first byte
    total_s: float = 0.0
    bytes: int = 0
    complete: bool = False  # the body ended as its framing said
    client_gone: bool = False


class Chunks:
    """Chunked transfer coding decoded as it passes; `done` once the last chunk and the
    trailers are through."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._left = 0  # bytes of the current chunk's data still to come
        self._state = "size"  # size | data | crlf | trailer
        self.done = False

    def feed(self, data: bytes) -> bytes:
        self._buffer += data
        out = bytearray()
        while not self.done:
            if self._state == "data":
                if not self._buffer:
                    break
                take = min(self._left, len(self._buffer))
                out += self._buffer[:take]
                del self._buffer[:take]
                self._left -= take
                if self._left:
                    break
                self._state = "crlf"
                continue
            end = self._buffer.find(b"\r\n")
            if end < 0:
                if len(self._buffer) > HEAD_LIMIT:
                    raise UpstreamError(502, "the upstream's chunked body is malformed")
                break
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 2]
            if self._state == "crlf":
                self._state = "size"
            elif self._state == "size":
                try:
                    size = int(line.split(b";")[0].strip() or b"x", 16)
                except ValueError:
                    raise UpstreamError(502, "the upstream's chunked body is malformed") from None
                self._left = size
                self._state = "data" if size else "trailer"
            elif self._state == "trailer" and not line:
                self.done = True
        return bytes(out)


def request_head(
    method: str, target: str, host: str, headers: Iterable[tuple[str, str]], upstream: Upstream, length: int
) -> bytes:
    """The request's head as it leaves: the client's headers but its credential and the
    hop-by-hop ones, the upstream's credential, identity coding, one request per connection."""
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}"]
    beta: list[str] = []
    for name, value in headers:
        low = name.lower()
        if low in HOP_BY_HOP or low in _CREDENTIAL_HEADERS:
            continue
        if low == "anthropic-beta":
            beta += [b.strip() for b in value.split(",") if b.strip()]
            continue
        lines.append(f"{name}: {value}")
    if upstream.beta and upstream.beta not in beta:
        beta.append(upstream.beta)
    if beta:
        lines.append(f"anthropic-beta: {','.join(beta)}")
    lines += [f"{name}: {value}" for name, value in upstream.headers]
    lines += ["Accept-Encoding: identity", "Connection: close"]
    if length or method not in ("GET", "HEAD"):
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _open(upstream: Upstream, path: str) -> tuple[socket.socket, str, str]:
    """A connected socket to the upstream (TLS, through the harness's proxy, as needed), the
    request target and the Host header."""
    scheme, host, port, full = upstream.target(path)
    proxy = None if upstream.local else proxy_for(scheme, host)
    hostport = host if port in (80, 443) else f"{host}:{port}"
    try:
        sock = socket.create_connection(proxy or (host, port), timeout=min(upstream.timeout_s, 30.0))
        if proxy is not None and scheme == "http":
            return sock, f"http://{hostport}{full}", hostport
        if proxy is not None:
            sock.sendall(f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            head = _read_head(sock, time.monotonic() + upstream.timeout_s, None)
            if not head.startswith(b"HTTP/1.1 200") and not head.startswith(b"HTTP/1.0 200"):
                sock.close()
                status = head.split(b"\r\n")[0]
                raise UpstreamError(502, f"the proxy refused the tunnel: {status!r}")
        if scheme == "https":
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
    except OSError as exc:
        raise UpstreamError(502, f"the upstream {host}:{port} could not be reached: {exc}", True) from None
    return sock, full, hostport


def _readable(sock: socket.socket) -> bool:
    return isinstance(sock, ssl.SSLSocket) and sock.pending() > 0


def _wait(up: socket.socket, client: socket.socket | None, deadline: float) -> None:
    """Until up has bytes; ClientGone when the client left first, UpstreamError at deadline."""
    while not _readable(up):
        left = deadline - time.monotonic()
        if left <= 0:
            raise UpstreamError(504, "the upstream said nothing before the gateway's timeout")
        watch = [up] + ([client] if client is not None else [])
        ready, _, _ = select.select(watch, [], [], min(_POLL_S, left))
        if up in ready:
            return
        if client is not None and client in ready:
            try:
                if not client.recv(1, socket.MSG_PEEK):
                    raise ClientGone()
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                raise ClientGone() from None


def _read_head(up: socket.socket, deadline: float, client: socket.socket | None) -> bytes:
    buffer = bytearray()
    while b"\r\n\r\n" not in buffer:
        _wait(up, client, deadline)
        data = up.recv(65_536)
        if not data:
            raise UpstreamError(502, "the upstream closed the connection before its answer")
        buffer += data
        if len(buffer) > HEAD_LIMIT and b"\r\n\r\n" not in buffer:
            raise UpstreamError(502, "the upstream's answer head is too long")
    return bytes(buffer)


def forward(
    upstream: Upstream,
    method: str,
    path: str,
    headers: Iterable[tuple[str, str]],
    body: bytes,
    *,
    client: socket.socket | None,
    send_head: Callable[[int, str, list[tuple[str, str]]], None],
    send_body: Callable[[bytes], None],
    feed: Callable[[bytes], None],
) -> Forwarded:
    """Send one request and relay its answer: send_head(status, reason, headers) once, then
    send_body(raw bytes) as they arrive (chunked framing kept), feed(decoded bytes) for the
    meter. UpstreamError before anything was sent to the client; ClientGone once it left."""
    done = Forwarded()
    started = time.monotonic()
    up, target, host = _open(upstream, path)
    try:
        up.sendall(request_head(method, target, host, headers, upstream, len(body)) + body)
        raw = _read_head(up, started + upstream.timeout_s, client)
        done.first_byte_s = time.monotonic() - started
        head, _, rest = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        try:
            done.status = int(parts[1])
        except (IndexError, ValueError):
            raise UpstreamError(502, f"the upstream's answer is not HTTP: {lines[0][:80]!r}") from None
        reason = parts[2] if len(parts) > 2 else ""
        for line in lines[1:]:
            name, _, value = line.partition(":")
            done.headers.append((name.strip(), value.strip()))
        found = {n.lower(): v for n, v in done.headers}
        chunked = "chunked" in found.get("transfer-encoding", "").lower()
        length = None if chunked or "content-length" not in found else int(found["content-length"] or 0)
        if method == "HEAD" or done.status in (204, 304) or 100 <= done.status < 200:
            length, chunked = 0, False
        send_head(done.status, reason, done.headers)
        decoder = Chunks() if chunked else None
        seen = 0

        def relay(data: bytes) -> bool:
            """Pass data on; True once the body is complete."""
            nonlocal seen
            if not data:
                return False
            try:
                send_body(data)
            except OSError:
                raise ClientGone() from None
            done.bytes += len(data)
            if decoder is not None:
                feed(decoder.feed(data))
                return decoder.done
            seen += len(data)
            feed(data)
            return length is not None and seen >= length

        finished = length == 0 or relay(rest)
        while not finished:
            _wait(up, client, time.monotonic() + upstream.timeout_s)
            data = up.recv(65_536)
            if not data:  # closed: complete only when the framing said it ends at close
                finished = True
                done.complete = length is None and decoder is None
                break
            finished = relay(data)
        else:
            done.complete = True
    except ClientGone:
        done.client_gone = True
    except (OSError, ValueError) as exc:
        if done.status == 0:
            raise UpstreamError(502, f"the upstream broke off: {exc}") from None
    finally:
        up.close()
        done.total_s = time.monotonic() - started
    return done
