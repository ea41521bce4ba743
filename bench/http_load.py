"""The HTTP figure of `make bench`: clients playing through gunicorn while `herald project` keeps the views."""
from __future__ import annotations

import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import psutil

from bench.figures import ROOT, figure, sqlite_app, wait_for_projector

CPU_TARGET_MS = 1.0  # server CPU a move (workers, projector, Redis), issue 21
WORKERS = 2


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used so far."""
    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


class Client:
    """One player's connection, playing random legal Korona moves on matches of its own until a deadline."""

    def __init__(self, port: int, seed: int, include: bool = True):
        self.port = port
        self.include = "?include=legal_moves" if include else ""
        self.chooser = random.Random(seed)
        self.latencies: list[float] = []
        self.failures: list[str] = []

    def request(self, method: str, path: str, body=None, token: str | None = None) -> dict:
        """One request on a connection of its own (`Connection: close`), as a client without keep-alive makes it, read
        to the server's close. Written on a socket rather than http.client, whose header parsing (email.parser) cost
        this load generator much of the CPU it shares with the server."""
        payload = b"" if body is None else orjson.dumps(body)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as connection:
            connection.settimeout(30)
            connection.connect(("127.0.0.1", self.port))  # an address, not create_connection's lookup of a name
            connection.sendall(f"{head}\r\n".encode() + payload)
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        headers, _, answer = b"".join(chunks).partition(b"\r\n\r\n")
        status, length = int(headers[9:12] or 0), headers.lower().partition(b"content-length:")[2].split(b"\r\n")[0]
        if not length.strip().isdigit() or int(length) != len(answer):
            raise OSError(f"{method} {path}: an incomplete answer ({len(answer)} bytes after {headers[:200]!r})")
        if status >= 300:
            raise OSError(f"{method} {path} answered {status}: {answer[:200]!r}")
        return orjson.loads(answer)

    def play(self, deadline: float) -> None:
        """Play until the deadline; the first refusal or lost connection ends this client, recorded in failures."""
        try:
            self._play(deadline)
        except (OSError, ValueError) as error:
            self.failures.append(str(error))

    def _play(self, deadline: float) -> None:
        """Matches of its own, one after another, each move as soon as the last is answered."""
        match = None
        while time.monotonic() < deadline:
            if match is None:
                match = self.new_match()
            self.move(match)
            if match["seat"] is None:
                match = None

    def new_match(self) -> dict:
        """A new Korona match of three seats: its id, each seat's token and the seat awaited ("seat")."""
        created = self.request("POST", "/matches", {"game": "korona", "players": ["A", "B", "C"]})
        match = {"id": created["match_id"], "seats": [s["token"] for s in created["seats"]], "legal": None}
        match["seat"] = self.request("GET", f"/matches/{match['id']}/view",
                                     token=created["referee_token"])["awaiting_seat"]
        return match

    def move(self, match: dict) -> dict:
        """One random legal move of the seat awaited, and the server's answer ({} where it has no legal move: the
        match is left). Each answer carries the mover's next legal moves (?include=legal_moves): a turn of the same
        seat needs one request a move; only when another seat is awaited does it ask GET /legal-moves with its token.
        match["seat"] becomes the seat awaited next, None once the match is over; the move's time is in latencies."""
        token = match["seats"][match["seat"]]
        if match["legal"] is None:
            match["legal"] = self.request("GET", f"/matches/{match['id']}/legal-moves", token=token)["moves"]
        if not match["legal"]:
            match["seat"] = None
            return {}
        start = time.perf_counter()
        played = self.request("POST", f"/matches/{match['id']}/moves{self.include}",
                              self.chooser.choice(match["legal"]), token=token)
        self.latencies.append((time.perf_counter() - start) * 1000)
        match["legal"] = played.get("legal_moves") if played.get("awaiting_seat") == match["seat"] else None
        match["seat"] = played.get("awaiting_seat")
        return played


def http_load(tmp: Path, clients: int, seconds: float, include: bool = True, beside=None, ready=None) -> dict:
    """Moves per second through `herald serve` (WEB_CONCURRENCY=WORKERS), each client on matches of its own, the views
    kept by one `herald project` (HERALD_PROJECTOR=separate) as the README deploys it; also the projector's final lag
    and the server's CPU a move (gunicorn's master and workers, the projector and Redis).
    include=False: every move asks GET /legal-moves first, as before moves answered with them.
    beside(port, deadline): the threads to run beside the load until its deadline (bench/slow_clients.py's).
    ready(port, pids): called once the server is up, before the load and its clock, with the pids of gunicorn's master
    and workers (bench/live.py's opens its streams)."""
    from tests.helpers.server import Server
    from tests.helpers.stores import own_redis

    tmp.mkdir(parents=True, exist_ok=True)
    with own_redis() as (server_redis, embedded):
        store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "http.sqlite"),
                 "HERALD_PROJECTOR": "separate",
                 "HERALD_CREATE_LIMIT": "1000000 per minute"}  # the clients share one address, and create many matches
        server = Server(tmp, store, embedded.url, workers=WORKERS).start()
        projector = subprocess.Popen([sys.executable, "-m", "service.cli", "project"],  # as the README deploys it
                                     env=server.env, cwd=ROOT.parent, stderr=subprocess.DEVNULL)
        players = [Client(server.port, n, include) for n in range(clients)]
        gunicorn = psutil.Process(server.process.pid)
        booted = time.monotonic() + 10
        while len(gunicorn.children()) < WORKERS and time.monotonic() < booted:  # every worker's CPU counts
            time.sleep(0.05)
        groups = {"gunicorn": [gunicorn.pid, *(c.pid for c in gunicorn.children(recursive=True))],
                  "projector": [projector.pid], "redis": [embedded.process.pid]}
        try:
            if ready is not None:
                ready(server.port, groups["gunicorn"])
            cpu_before = {name: cpu_seconds(pids) for name, pids in groups.items()}
            start = time.monotonic()
            threads = [threading.Thread(target=player.play, args=(start + seconds,)) for player in players]
            if beside is not None:
                threads += beside(server.port, start + seconds)
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - start
            cpu = {name: cpu_seconds(pids) - cpu_before[name] for name, pids in groups.items()}
            caught_up = time.monotonic()
            wait_for_projector(server_redis, sqlite_app(tmp / "http.sqlite"))
            lag_ms = (time.monotonic() - caught_up) * 1000
        finally:
            projector.terminate()
            projector.wait()
            server.stop()
    latencies = sorted(ms for player in players for ms in player.latencies)
    failures = [f"a client failed ({failure})" for player in players for failure in player.failures]
    rate, moves = len(latencies) / elapsed, max(1, len(latencies))
    return figure(f"HTTP moves/s through gunicorn + herald project, {clients} clients", rate, "moves/s", 500,
                  rate / 500, 1.0, p50_ms=round(latencies[len(latencies) // 2], 1),
                  p99_ms=round(latencies[int(len(latencies) * 0.99)], 1), p99_target_ms=50,
                  projector_lag_at_end_ms=round(lag_ms, 1), failures=failures[:5],
                  server_cpu_ms_per_move=round(sum(cpu.values()) * 1000 / moves, 3), cpu_target_ms=CPU_TARGET_MS,
                  server_cpu_ms_split={name: round(seconds * 1000 / moves, 3) for name, seconds in cpu.items()})
