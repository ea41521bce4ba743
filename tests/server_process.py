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
