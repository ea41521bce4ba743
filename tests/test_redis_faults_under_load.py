"""Redis killed, brought back empty, then hung with SIGSTOP, under concurrent load on `herald serve` (gunicorn, two
workers, inline projection): no 5xx, nothing acknowledged lost, /health and moves answered in time, views rebuilt."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time

import redis

from domain.matches import Matches
from projections.projector import POSITION
from tests.helpers.server import (
    NEW_MATCH,
    RedisServer,
    Server,
    assert_acknowledged_once,
    call,
    create_matches,
    match_entry,
)

HEALTH_DEADLINE = 1.0  # seconds, whatever Redis does (issue 15)
HANG_MOVE_DEADLINE = 2.0  # seconds for a move while Redis hangs (issue 15)


class Recorder:
    """Requests made from several threads, each with when it started and how long its answer took."""

    def __init__(self, base: str):
        self.base = base
        self.rows: list[dict] = []
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []

    def request(self, phase: str, method: str, path: str, body=None, token=None, **extra) -> tuple[int, object]:
        started = time.monotonic()
        try:
            status, answer = call(self.base, method, path, body, token, timeout=10)
        except OSError as error:  # no answer at all: recorded, and fails the test
            status, answer = None, str(error)
        self.rows.append({"phase": phase, "status": status, "started": started,
                          "took": time.monotonic() - started, **extra,
                          "events": answer.get("events") if status == 200 and phase == "move" else None})
        return status, answer

    def run(self, target, count: int) -> Recorder:
        self.threads = [threading.Thread(target=target, args=(n,)) for n in range(count)]
        for thread in self.threads:
            thread.start()
        return self

    def stop(self) -> list[dict]:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=60)
        return self.rows


def players(recorder: Recorder, matches: list[dict]):
    """A client: the referee's view of a match, the awaited seat's legal moves, one of them posted; a client that
    finds its match over creates another, so that the load never runs out of matches to race on."""
    def play(seed: int) -> None:
        chooser = random.Random(seed)
        while not recorder.stopping.is_set():
            match = chooser.choice(matches)
            path = f"/matches/{match['id']}"
            status, view = recorder.request("view", "GET", f"{path}/view", token=match["referee"])
            if status == 200 and view["status"] != "active":
                status, created = recorder.request("create", "POST", "/matches", NEW_MATCH)
                if status == 201:
                    matches.append(match_entry(created))
                continue
            if status != 200:
                continue
            token = match["seats"][view["awaiting_seat"]]
            status, legal = recorder.request("legal", "GET", f"{path}/legal-moves", token=token)
            if status == 200 and legal["moves"]:
                recorder.request("move", "POST", f"{path}/moves", chooser.choice(legal["moves"]), token=token,
                                 match=match["id"])
    return play


def health_probe(recorder: Recorder):
    def probe(_n: int) -> None:
        while not recorder.stopping.is_set():
            recorder.request("health", "GET", "/health")
            time.sleep(0.1)
    return probe


def redis_snapshot(client: redis.Redis) -> dict:
    """Every Herald key: the position and each hash with its JSON values parsed (field order aside); a match's views
    are left out: they are rendered from its document when read and kept only as a cache beside it."""
    def parsed(value: bytes):
        try:
            return json.loads(value)
        except ValueError:
            return value.decode()

    snapshot = {"position": client.get(POSITION)}
    for key in client.scan_iter("herald:*"):
        if key != POSITION.encode():
            snapshot[key.decode()] = {f.decode(): parsed(v) for f, v in client.hgetall(key).items()
                                      if not f.startswith(b"view:")}
    return snapshot


def acknowledged(rows: list[dict]) -> int:
    """How many moves were acknowledged (200)."""
    return sum(1 for r in list(rows) if r["phase"] == "move" and r["status"] == 200)


def wait_for(condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the load did not get there"
        time.sleep(0.02)


def wait_for_catch_up(server: Server, client: redis.Redis, store_env: dict, match: dict) -> None:
    """Reads heal the views once Redis answers again: read until the position is the log's last notification."""
    store = Matches(env=store_env)
    last = store.recorder.max_notification_id()
    store.close()
    deadline = time.monotonic() + 30
    while int(client.get(POSITION) or 0) != last:
        assert time.monotonic() < deadline, "the views did not catch up after Redis recovered"
        call(server.base, "GET", f"/matches/{match['id']}/view", token=match["referee"])
        time.sleep(0.05)


def test_redis_killed_emptied_and_hung_under_load(store_env, tmp_path):
    """Six clients play through two gunicorn workers while Redis is killed, restarted empty and then hung for 10 s:
    no 5xx and no request left unanswered, every acknowledged move is in the log once, /health always answers within
    1 s, moves during the hang within 2 s, and afterwards the views equal those `herald rebuild-projections` gives."""
    redis_server = RedisServer(tmp_path).start()
    # its clients replace each match that ends, as fast as they can: no limit on creation is under test here
    server = Server(tmp_path, {**store_env, "HERALD_CREATE_LIMIT": "100000 per minute"}, redis_server.url).start()
    try:
        matches = create_matches(server.base, 4)
        clients = Recorder(server.base)
        clients.run(players(clients, matches), 6)
        health = Recorder(server.base)
        health.run(health_probe(health), 1)
        wait_for(lambda: acknowledged(clients.rows) >= 10)  # the load under way
        redis_server.kill()
        time.sleep(2)
        redis_server.start()
        time.sleep(2)
        hang_began = time.monotonic()
        redis_server.hang()
        time.sleep(10)
        redis_server.resume()
        hang_ended = time.monotonic()
        time.sleep(2.5)
        rows, probes = clients.stop(), health.stop()

        assert {r["status"] for r in rows} <= {200, 201, 409, 422}, {r["status"] for r in rows}
        moves = [r for r in rows if r["phase"] == "move"]
        during_hang = [r for r in moves if hang_began <= r["started"] < hang_ended]
        assert len(during_hang) >= 10, f"only {len(during_hang)} moves answered during the hang"
        assert max(r["took"] for r in during_hang) < HANG_MOVE_DEADLINE
        assert sum(1 for r in moves if r["status"] == 200 and r["started"] > hang_ended) > 0
        assert {p["status"] for p in probes} <= {200, 503}  # 503 names the fault while Redis is away
        assert max(p["took"] for p in probes) < HEALTH_DEADLINE, max(p["took"] for p in probes)
        assert_acknowledged_once(server.base, matches, moves)

        reader = redis.Redis.from_url(redis_server.url)
        wait_for_catch_up(server, reader, store_env, matches[0])
        assert call(server.base, "GET", "/health")[0] == 200
        live = redis_snapshot(reader)
        subprocess.run([sys.executable, "-m", "service.cli", "rebuild-projections"], env=server.env, check=True,
                       capture_output=True, timeout=120)
        assert redis_snapshot(reader) == live
    finally:
        server.kill()  # its stop is not what this test looks at
        redis_server.stop()
