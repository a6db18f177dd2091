"""What the model gateway adds to a request: latency and throughput, against the offline server
directly.

Alternates the same streamed request to the offline server's cell URL and through a gateway
seat whose upstream is that URL (as every cell's request goes), over loopback TCP, and prints
the median and the 90th percentile of the first byte and of the whole answer for each, the
median the gateway adds, and requests per second with 16 clients at once each way.

    python scripts/bench_gateway.py [--requests 400] [--clients 16]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from pytest_ponybench.gateway.server import Gateway
from pytest_ponybench.gateway.upstream import Upstream
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer

BODY = json.dumps(
    {
        "model": "offline-idle",
        "max_tokens": 32000,
        "stream": True,
        "system": [{"type": "text", "text": "You are a benchmark. " * 200}],
        "tools": [{"name": n, "input_schema": {}} for n in ("Write", "Edit", "Read")],
        "messages": [{"role": "user", "content": "Say hello."}],
    }
).encode()


def once(url: str, token: str) -> tuple[float, float]:
    """(first byte, whole answer) in ms of one request to url."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=30)
    path = parts.path.rstrip("/") + "/v1/messages"
    start = time.perf_counter()
    conn.request("POST", path, BODY, {"x-api-key": token, "content-type": "application/json"})
    resp = conn.getresponse()
    resp.read(1)
    first = time.perf_counter()
    resp.read()
    done = time.perf_counter()
    conn.close()
    if resp.status != 200:
        raise SystemExit(f"{url}: HTTP {resp.status}")
    return (first - start) * 1000, (done - start) * 1000


def rate(call: Callable[[], object], clients: int, per_client: int) -> float:
    """Requests per second with clients at once."""

    def client() -> None:
        for _ in range(per_client):
            call()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return clients * per_client / (time.perf_counter() - start)


def p90(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.9)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--clients", type=int, default=16)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, OfflineServer() as server, Gateway() as gateway:
        server.register("bench", CellScript(workspace=Path(tmp).resolve(), good={}, bad={}))
        direct = server.cell_url("bench")
        ticket = gateway.open("bench", Upstream(direct))
        for _ in range(20):  # warm both paths
            once(direct, "x")
            once(ticket.url, ticket.token)
        seen: dict[str, list[tuple[float, float]]] = {"direct": [], "gateway": []}
        for _ in range(args.requests):
            seen["direct"].append(once(direct, "x"))
            seen["gateway"].append(once(ticket.url, ticket.token))
        per = max(1, args.requests // args.clients)
        rps_direct = rate(lambda: once(direct, "x"), args.clients, per)
        rps_gateway = rate(lambda: once(ticket.url, ticket.token), args.clients, per)
        seat = gateway.close(ticket)
    print(f"{args.requests} streamed requests each way, alternating; loopback TCP; offline-idle")
    print(f"{'path':8} {'first byte ms (median, p90)':>28} {'whole answer ms (median, p90)':>31}")
    for name, rows in seen.items():
        firsts, totals = [r[0] for r in rows], [r[1] for r in rows]
        print(
            f"{name:8} {statistics.median(firsts):>17.2f} {p90(firsts):>10.2f} "
            f"{statistics.median(totals):>20.2f} {p90(totals):>10.2f}"
        )
    added_first = [g[0] - d[0] for d, g in zip(seen["direct"], seen["gateway"], strict=True)]
    added_total = [g[1] - d[1] for d, g in zip(seen["direct"], seen["gateway"], strict=True)]
    print(
        f"added by the gateway (median of pairs): first byte {statistics.median(added_first):.2f} ms, "
        f"whole answer {statistics.median(added_total):.2f} ms"
    )
    print(
        f"requests/s with {args.clients} clients: direct {rps_direct:.0f}, gateway {rps_gateway:.0f} "
        f"({rps_gateway / rps_direct:.2f}x)"
    )
    print(f"metered: {len(seat.requests)} requests, ${sum(m.cost_usd for m in seat.requests):.4f} (notional)")


if __name__ == "__main__":
    main()
