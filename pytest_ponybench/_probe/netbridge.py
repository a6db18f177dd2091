"""The cell's one way out: a loopback port inside the cell's own network namespace, forwarded to
the model gateway's unix socket bound into the sandbox.

Run as the sandbox's first process: `python3 -I -S netbridge.py SOCKET PORT -- CMD...`. It
listens on 127.0.0.1:PORT (the namespace has nothing else: no route out, no host service),
starts CMD as its child, relays every connection to SOCKET, and exits with CMD's status once CMD
ends (everything else in the namespace ends with it). It writes nothing to stdout or stderr:
the session's stream is CMD's alone. Standard library only; it imports nothing of ponybench.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def _relay(client: socket.socket, path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        upstream.close()
        return
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def _serve(listener: socket.socket, path: str) -> None:
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=_relay, args=(client, path), daemon=True).start()


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        sys.exit(2)
    path, port = argv[0], int(argv[1])
    command = argv[3:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    listener.set_inheritable(False)
    child = os.fork()
    if child == 0:
        listener.close()
        try:
            os.execvp(command[0], command)
        except OSError:
            os._exit(127)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, _f: os.kill(child, s))
    threading.Thread(target=_serve, args=(listener, path), daemon=True).start()
    while True:  # as the namespace's first process it reaps every orphan too
        pid, status = os.wait()
        if pid == child:
            code = os.waitstatus_to_exitcode(status)
            return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
