"""Shared fixtures: a real Redis (a redis-server of its own, or REDIS_URL) and real event stores (SQLite, and
PostgreSQL when reachable)."""
from __future__ import annotations

import os

import pytest
import redis

from domain.matches import Matches
from projections.projector import Projector
from service.app import Herald, create_app
from service.config import Settings
from tests.helpers.server import event_store
from tests.helpers.stores import own_redis
from tests.helpers.tournaments import audit_finished_tournaments

POSTGRES = {
    "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
    "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
    "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
    "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
    "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
}


def _postgres_conninfo() -> str:
    return (f"host={POSTGRES['POSTGRES_HOST']} port={POSTGRES['POSTGRES_PORT']} dbname={POSTGRES['POSTGRES_DBNAME']} "
            f"user={POSTGRES['POSTGRES_USER']} password={POSTGRES['POSTGRES_PASSWORD']} connect_timeout=2")


def postgres_reachable() -> bool:
    import psycopg

    try:
        with psycopg.connect(_postgres_conninfo()):
            return True
    except psycopg.Error:
        return False


@pytest.fixture(scope="session")
def redis_client():
    """A real Redis: REDIS_URL when set, else a redis-server of its own."""
    url = os.environ.get("REDIS_URL")
    if url:
        client = redis.Redis.from_url(url)
        yield client
        return
    with own_redis() as (client, _):
        yield client


@pytest.fixture(params=["sqlite", "postgres"])
def store_env(request, tmp_path):
    """eventsourcing persistence settings for a fresh, empty event store."""
    with event_store(request.param, tmp_path) as env:
        yield env


def herald_context(store_env: dict, redis_client) -> Herald:
    redis_client.flushdb()
    matches = Matches(env=store_env)
    return Herald(matches, Projector(matches, redis_client), redis_client, store_env["PERSISTENCE_MODULE"], "test redis")


@pytest.fixture
def context(store_env, redis_client):
    made = herald_context(store_env, redis_client)
    yield made
    audit_finished_tournaments(made.matches)
    made.matches.close()


@pytest.fixture
def client(context, tmp_path):
    """An API client on each event store (SQLite, and PostgreSQL when reachable)."""
    return create_app(Settings(data_dir=tmp_path), context).test_client()


@pytest.fixture
def sqlite_client(redis_client, tmp_path):
    """An API client on SQLite only, for suites that need not run twice."""
    made = herald_context({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                           "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}, redis_client)
    yield create_app(Settings(data_dir=tmp_path), made).test_client()
    audit_finished_tournaments(made.matches)
    made.matches.close()
