"""The slow-client figure of `make bench`: connections stalled mid-body and mid-headers, each opened again as soon as
the server closes it (a slow client keeps its count up), held while bench's HTTP load plays, /health probed
throughout; against the same load without them."""
from __future__ import annotations

import resource
import selectors
import socket
import threading
import time
import urllib.request
from pathlib import Path

from bench.figures import figure
from bench.http_load import http_load
from service.gunicorn_problems import BODY_IDLE_SECONDS, HEAD_SECONDS

STALLS = {  # what each stalled connection sends before it goes quiet
    "mid-body": b"POST /matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000\r\n\r\n{",
    "mid-headers": b"POST /matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le",
    "mid-request-line": b"POST /mat",
}
HEALTH_DEADLINE = 1.0  # seconds for /health, whatever the clients do (issue 41)
READ_TIMEOUT = {"mid-body": BODY_IDLE_SECONDS, "mid-headers": HEAD_SECONDS, "mid-request-line": HEAD_SECONDS}  # the server's, for each kind
SLACK = 1.0  # seconds past its read timeout a stalled connection may take to be closed (the server's accept and timer)


class Stalled:
    """Connections stalled as STALLS says, `counts` of each kind, held until a deadline; each the server closes is
    recorded with how long it stayed open, and opened again."""

    def __init__(self, port: int, counts: dict[str, int]):
        self.port, self.counts = port, counts
        self.lifetimes: dict[str, list[float]] = {kind: [] for kind in counts}
        self.refused = 0
        self.open_too_long = 0  # of those still open at the deadline

    def _open(self, selector: selectors.BaseSelector, kind: str) -> None:
        sock = socket.socket()
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", self.port))
            sock.sendall(STALLS[kind])
        except OSError:
            self.refused += 1
            sock.close()
            return
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, (kind, time.monotonic()))

    def hold(self, deadline: float) -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        with selectors.DefaultSelector() as selector:
            for kind, count in self.counts.items():
                for _ in range(count):
                    self._open(selector, kind)
            while (now := time.monotonic()) < deadline:
                for key, _ in selector.select(timeout=min(0.2, deadline - now)):
                    try:
                        closed = key.fileobj.recv(65536) == b""
                    except OSError:
                        closed = True
                    if closed:  # an answer (a 408, say) comes before the close: only the close counts
                        kind, opened = key.data
                        self.lifetimes[kind].append(time.monotonic() - opened)
                        selector.unregister(key.fileobj)
                        key.fileobj.close()
                        self._open(selector, kind)
            end = time.monotonic()
            for key in list(selector.get_map().values()):
                kind, opened = key.data
                self.open_too_long += end - opened > READ_TIMEOUT[kind] + SLACK
                key.fileobj.close()


def probe_health(port: int, deadline: float, took: list[float], failures: list[str]) -> None:
    """GET /health four times a second until the deadline, each answer's time in `took`."""
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer:
                answer.read()
            took.append(time.monotonic() - start)
        except OSError as error:
            failures.append(f"/health: {error}")
        time.sleep(0.25)


def slow_clients(tmp: Path, clients: int, seconds: float, per_kind: int) -> dict:
    """bench's HTTP load alone, then again beside `per_kind` stalled connections of each kind and the /health probe."""
    alone = http_load(tmp / "alone", clients, seconds)
    stalled, took, failures = None, [], []

    def beside(port: int, deadline: float) -> list[threading.Thread]:
        nonlocal stalled
        stalled = Stalled(port, {"mid-body": per_kind, "mid-headers": per_kind})
        return [threading.Thread(target=stalled.hold, args=(deadline,)),
                threading.Thread(target=probe_health, args=(port, deadline, took, failures))]

    loaded = http_load(tmp / "stalled", clients, seconds, beside=beside)
    longest = {kind: round(max(times, default=0.0), 2) for kind, times in stalled.lifetimes.items()}
    over = sum(lifetime > READ_TIMEOUT[kind] + SLACK for kind, times in stalled.lifetimes.items() for lifetime in times)
    over += stalled.open_too_long
    return figure(f"HTTP moves' p99 beside {per_kind:,} connections stalled mid-body and {per_kind:,} mid-headers, "
                  "vs without", loaded["p99_ms"], "ms", alone["p99_ms"], loaded["p99_ms"] / alone["p99_ms"], 2.0,
                  higher_is_better=False, moves_per_s=loaded["value"], moves_per_s_alone=alone["value"],
                  health_max_s=round(max(took), 3) if took else None, health_deadline_s=HEALTH_DEADLINE,
                  health_answers=len(took), stalled_closed={k: len(v) for k, v in stalled.lifetimes.items()},
                  stalled_longest_s=longest, read_timeout_s=READ_TIMEOUT, stalled_over_timeout=over,
                  stalled_refused=stalled.refused, failures=(failures + loaded["failures"])[:5])
