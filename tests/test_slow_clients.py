"""Clients that stall cannot stop `herald serve` (issue 41): /health answers while 200 connections hang mid-body,
mid-headers and mid-request-line, and the server closes each within its read timeout."""
from __future__ import annotations

import threading
import time

from bench.slow_clients import HEALTH_DEADLINE, READ_TIMEOUT, SLACK, Stalled, probe_health
from tests.helpers.server import call, shared_server

STALLED = {"mid-body": 70, "mid-headers": 70, "mid-request-line": 60}


def test_stalled_connections_neither_stop_health_nor_stay_open(request):
    """Held for the longest read timeout and a little more, so that every stalled connection must have been closed by
    the server once (each is opened again when closed, as a slow client would): none stayed open past its timeout,
    /health answered within its deadline throughout, and a match can still be created."""
    server = shared_server(request, "sqlite")  # a real server on SQLite, shared with other tests
    stalled, took, failures = Stalled(server.port, STALLED), [], []
    deadline = time.monotonic() + max(READ_TIMEOUT.values()) + SLACK + 1
    threads = [threading.Thread(target=stalled.hold, args=(deadline,)),
               threading.Thread(target=probe_health, args=(server.port, deadline, took, failures))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == [] and stalled.refused == 0
    assert len(took) >= 10 and max(took) < HEALTH_DEADLINE, took
    for kind, count in STALLED.items():
        lifetimes = stalled.lifetimes[kind]
        assert len(lifetimes) >= count, f"{kind}: {len(lifetimes)} of {count} closed by the server"
        assert max(lifetimes) <= READ_TIMEOUT[kind] + SLACK, (kind, max(lifetimes))
    assert stalled.open_too_long == 0
    assert call(server.base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})[0] == 201
