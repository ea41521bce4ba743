"""Faults: a lost, restarted or hung Redis, racing projectors, a projection that fails after the commit."""
from __future__ import annotations

import random
import sys
import threading
import time

import pytest
import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from domain.korona import GAME as KORONA
from domain.matches import Matches
from projections.connection import EmbeddedRedis, connect, describe
from projections.projector import POSITION, REQUEST_LIMIT, DocumentBehind, Projector, apply, match_key
from service.app import Herald, create_app
from service.config import Settings
from tests.conftest import herald_context
from tests.helpers.api import Table, viewers
from tests.helpers.server import RedisServer


def all_views(projector: Projector, match_id: str, seats: int) -> dict:
    return {str(v): projector.view(match_id, v) for v in ["referee", None, *range(seats)]}


def test_a_lost_redis_loses_no_move_and_serves_no_stale_view(store_env, tmp_path):
    """With Redis stopped moves are accepted and views come from the event store; lists answer 503 with
    Retry-After; when Redis returns the views catch up; after FLUSHALL a rebuild restores identical views."""
    embedded = EmbeddedRedis(tmp_path).start()
    server = connect(embedded.url, pause=0)  # the client Herald itself uses, its breaker off to see Redis return
    matches = Matches(env=store_env)
    context = Herald(matches, Projector(matches, server), server, store_env["PERSISTENCE_MODULE"], "embedded")
    client = create_app(Settings(data_dir=tmp_path), context).test_client()
    table = Table(client, ["Ana", "Bo"])
    embedded.stop()

    chooser = random.Random(4)
    for _ in range(12):
        seat = table.view()["awaiting_seat"]
        table.play(seat, chooser.choice(table.moves(seat)))
    live = matches.load(table.id)
    view = table.view(table.tokens[0])
    assert view["version"] == live.version
    assert view == {**KORONA.view(live.state, 0), "version": live.version, "chain_head": live.chain}
    listed = client.get("/matches")
    assert listed.status_code == 503 and listed.headers["Retry-After"] == "5"
    assert listed.headers["Content-Type"] == "application/problem+json"
    assert client.get("/health").status_code == 503

    embedded.start()
    assert server.hget(f"herald:match:{table.id}", "doc") is not None, "Redis came back with what it had"
    assert client.get("/matches").get_json()[0]["version"] == live.version
    before = all_views(context.projector, table.id, 2)
    assert before["0"]["version"] == live.version
    server.flushall()
    context.projector.rebuild()
    assert all_views(context.projector, table.id, 2) == before
    embedded.stop()
    matches.close()


@pytest.mark.parametrize("own", [False, True], ids=["reading the store", "with the notifications in hand"])
def test_racing_projectors_never_apply_an_event_twice(context, own):
    """Three projectors follow the log while moves are recorded; every view ends equal to the event store's. With
    `own`, as a worker's move has them do, they project the notifications the process's saves made where those follow
    the position."""
    matches = context.matches
    created = [matches.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])[0] for _ in range(3)]
    context.redis.flushdb()
    racers = [Projector(matches, context.redis) for _ in range(3)]
    stop = threading.Event()
    errors = []

    def follow(projector):
        try:
            while not stop.is_set():
                projector.catch_up(own=own)
        except Exception as error:  # noqa: BLE001 - any failure of a racer fails the test
            errors.append(error)

    threads = [threading.Thread(target=follow, args=(p,)) for p in racers]
    switching = sys.getswitchinterval()
    # Racers with nothing new to project spin without releasing the GIL: hand it over every 0.1 ms (not 5 ms) so
    # that the moves, which wait on the store between their statements, are recorded among them at a real pace.
    sys.setswitchinterval(0.0001)
    try:
        for thread in threads:
            thread.start()
        chooser = random.Random(9)
        for _ in range(60):
            match = chooser.choice(created)
            live = matches.load(match.id)
            if live.finished:
                continue
            seat = KORONA.awaiting(live.state)
            matches.play(match.id, seat, chooser.choice(KORONA.legal_moves(live.state, seat)))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        sys.setswitchinterval(switching)
    assert errors == []
    racers[0].catch_up()
    assert racers[0].position() == matches.recorder.max_notification_id()
    for match in created:
        live = matches.load(match.id)
        doc_viewers = viewers({"created": live.created})
        for viewer in doc_viewers:
            assert racers[0].view(match.id, viewer) == {**KORONA.view(live.state, viewer), "version": live.version,
                                                        "chain_head": live.chain}


def test_a_projector_whose_documents_went_stale_brings_them_forward_from_the_store(context, monkeypatch):
    """A projector keeps the documents it folded. Once another projector has written since, its commit finds the
    position moved and answers where it stands, and its documents, behind, are brought forward from the event store:
    it reads neither the position nor a document from Redis again, and the views are the store's."""
    matches = context.matches
    match = matches.create("korona", [{"name": "A"}, {"name": "B"}])[0]
    own_client = redis.Redis(connection_pool=context.redis.connection_pool)
    reads = []
    for command in ("get", "hget", "hmget"):
        read = getattr(own_client, command)
        monkeypatch.setattr(own_client, command, lambda *args, read=read: reads.append(args) or read(*args))
    first, second = Projector(matches, own_client), Projector(matches, context.redis)
    chooser = random.Random(2)
    for projector in (first, second, first, second, first):
        play_randomly(matches, match.id, 3, chooser)
        projector.catch_up()
    assert reads == [(POSITION,)], "only the first batch asked where the position stood"
    assert second.position() == matches.recorder.max_notification_id()
    assert_views_are_the_store_s(second, matches, match.id)


def test_a_projector_whose_position_went_back_forgets_its_documents(context):
    """Redis lost its data (a FLUSHALL, a restore) while a projector held a match's document further on: its commit
    finds the position moved back and it forgets what it held, so another projector refilling after it never takes the
    match's document back to an earlier version, and the views end equal to the store's."""
    matches = context.matches
    match = matches.create("korona", [{"name": "A"}, {"name": "B"}])[0]
    chooser = random.Random(8)
    ahead, refilling = Projector(matches, context.redis), Projector(matches, context.redis)
    play_randomly(matches, match.id, 8, chooser)
    ahead.catch_up()
    context.redis.flushdb()
    refilling.catch_up(limit=3)
    play_randomly(matches, match.id, 1, chooser)
    versions = []
    for projector in (ahead, refilling, ahead, refilling):
        projector.catch_up(limit=2)
        versions.append(int(context.redis.hget(match_key(match.id), "version")))
    assert versions == sorted(versions), "the document went back to an earlier version"
    refilling.catch_up()
    assert refilling.position() == matches.recorder.max_notification_id()
    assert_views_are_the_store_s(refilling, matches, match.id)


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
        seat = KORONA.awaiting(live.state)
        matches.play(match.id, seat, chooser.choice(KORONA.legal_moves(live.state, seat)))
    fresh = Projector(matches, context.redis)
    fresh.catch_up()
    assert fresh.position() == matches.recorder.max_notification_id()
    for match in (lost, other):
        live = matches.load(match.id)
        for viewer in viewers({"created": live.created}):
            assert fresh.view(match.id, viewer) == {**KORONA.view(live.state, viewer), "version": live.version,
                                                    "chain_head": live.chain}


def play_randomly(matches: Matches, match_id, count: int, chooser: random.Random) -> None:
    for _ in range(count):
        live = matches.load(match_id)
        seat = KORONA.awaiting(live.state)
        matches.play(match_id, seat, chooser.choice(KORONA.legal_moves(live.state, seat)))


def assert_views_are_the_store_s(projector: Projector, matches: Matches, match_id) -> None:
    live = matches.load(match_id)
    for viewer in viewers({"created": live.created}):
        assert projector.view(match_id, viewer) == {**KORONA.view(live.state, viewer), "version": live.version,
                                                    "chain_head": live.chain}


def test_apply_refuses_a_document_that_misses_the_events_before(context):
    """A document is folded forward only from the version just before the event; one it already holds is skipped."""
    matches = context.matches
    match = matches.create("korona", [{"name": "A"}, {"name": "B"}])[0]
    play_randomly(matches, match.id, 4, random.Random(5))
    events = list(matches.events.get(match.id))
    doc = None
    for event in events[:2]:
        doc = apply(doc, event)
    with pytest.raises(DocumentBehind, match=f"at version 2, not {events[4].originator_version - 1}"):
        apply(doc, events[4])
    assert apply(doc, events[1])["version"] == 2


def test_a_projector_whose_position_went_stale_folds_nothing_onto_a_document_behind_it(store_env, tmp_path):
    """The fault behind the 500s: a worker's commit fails with Redis (its remembered position stays), Redis comes
    back empty, another worker re-projects part of the log; the first worker's next catch-up must not fold new events
    onto the partly re-projected document (Korona's evolve raised ValueError), and the views end equal to the store."""
    redis_server = RedisServer(tmp_path).start()
    matches = Matches(env=store_env)
    try:
        stale = Projector(matches, connect(redis_server.url, pause=0))
        match = matches.create("korona", [{"name": "A"}, {"name": "B"}])[0]
        chooser = random.Random(7)
        play_randomly(matches, match.id, 6, chooser)
        stale.catch_up()
        redis_server.kill()
        play_randomly(matches, match.id, 2, chooser)
        with pytest.raises(RedisError):
            stale.catch_up()
        redis_server.start()
        play_randomly(matches, match.id, 2, chooser)
        other = Projector(matches, connect(redis_server.url, pause=0))
        other.catch_up(limit=3)
        stale.catch_up()
        other.catch_up()
        assert stale.position() == matches.recorder.max_notification_id()
        assert_views_are_the_store_s(other, matches, match.id)
    finally:
        redis_server.stop()
        matches.close()


def test_a_recorded_move_is_answered_200_whatever_its_projection_raises(client, context):
    """Projection after the commit is best effort: a Redis holding what the projector cannot read (here a position
    that is not a number) fails the projection, not the move; the move is in the log and views come from the store."""
    table = Table(client, ["Ana", "Bo"])
    context.redis.set(POSITION, "not a position")
    seat = table.view()["awaiting_seat"]
    response = table.post(table.moves(seat)[0], table.tokens[seat])
    assert response.status_code == 200, response.get_json()
    live = context.matches.load(table.id)
    assert response.get_json()["version"] == live.version
    assert table.view(table.tokens[0]) == {**KORONA.view(live.state, 0), "version": live.version,
                                           "chain_head": live.chain}
    context.projector.rebuild()
    assert_views_are_the_store_s(context.projector, context.matches, table.id)


def test_a_hung_redis_slows_no_answer(store_env, tmp_path):
    """Redis stopped with SIGSTOP (it accepts, never answers): moves and views answer within 2 s, /health within 1 s
    (503 naming the fault); after the hang the views catch up."""
    redis_server = RedisServer(tmp_path).start()
    matches = Matches(env=store_env)
    redis_client = connect(redis_server.url)
    context = Herald(matches, Projector(matches, redis_client), redis_client, "test store", redis_server.url)
    client = create_app(Settings(data_dir=tmp_path), context).test_client()
    try:
        table = Table(client, ["Ana", "Bo"])
        redis_server.hang()
        for _ in range(3):
            started = time.monotonic()
            health = client.get("/health")
            assert time.monotonic() - started < 1.0
            assert health.status_code == 503 and "Redis" in health.get_json()["detail"]
            started = time.monotonic()
            seat = table.view()["awaiting_seat"]
            table.play(seat, table.moves(seat)[0])
            assert time.monotonic() - started < 2.0
        redis_server.resume()
        deadline = time.monotonic() + 10
        while not context.refresh():  # the breaker lets Redis be asked again a moment after the hang
            assert time.monotonic() < deadline, "the views did not catch up after the hang"
            time.sleep(0.1)
        assert_views_are_the_store_s(context.projector, matches, table.id)
    finally:
        redis_server.stop()
        matches.close()


def test_the_breaker_skips_a_failed_redis_for_a_pause_then_asks_again(tmp_path):
    """After a failure the client does not ask Redis again until its pause is over, even if Redis is back meanwhile."""
    redis_server = RedisServer(tmp_path).start()
    client = connect(redis_server.url, pause=0.5)
    try:
        assert client.ping()
        redis_server.kill()
        with pytest.raises(RedisConnectionError):
            client.ping()
        redis_server.start()
        with pytest.raises(RedisConnectionError, match="not asked"):
            client.ping()
        time.sleep(0.6)
        assert client.ping()
    finally:
        redis_server.stop()


def test_health_and_the_log_name_a_redis_without_its_password():
    assert describe("redis://herald:s3cret@cache.example:6379/0") == "redis://herald:***@cache.example:6379/0"
    assert describe("redis://:s3cret@cache.example/0") == "redis://:***@cache.example/0"
    assert describe("unix:///srv/herald/var/redis.socket") == "unix:///srv/herald/var/redis.socket"


def test_a_request_refills_an_emptied_redis_a_bounded_part_at_a_time(redis_client, tmp_path):
    """A Redis that came back empty is not refilled from the whole log inside one request (a large log would hold a
    move for minutes): each request projects at most REQUEST_LIMIT notifications, and the views converge."""
    context = herald_context({"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                              "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}, redis_client)
    matches, chooser = context.matches, random.Random(11)
    try:
        # a log of more than REQUEST_LIMIT notifications: matches of 60 random moves, each match's saved at once
        while (matches.recorder.max_notification_id() or 0) <= REQUEST_LIMIT:
            created = matches.create("korona", [{"name": "A"}, {"name": "B"}])[0]
            match = matches.load(created.id)
            for _ in range(60):
                seat = KORONA.awaiting(match.state)
                match.play(seat, chooser.choice(KORONA.legal_moves(match.state, seat)))
            matches.save(match)
        redis_client.flushdb()
        assert not context.refresh()
        assert context.projector.position() == REQUEST_LIMIT
        assert context.refresh()
        assert context.projector.position() == matches.recorder.max_notification_id()
        assert_views_are_the_store_s(context.projector, matches, match.id)
    finally:
        matches.close()


def test_processes_starting_together_on_an_empty_store_all_open_it(store_env):
    """`herald serve` and `herald project` started at once on an empty PostgreSQL database raced to create its
    tables (a duplicate type, a concurrently updated catalogue row): each now opens the store, whoever made them."""
    import threading

    from domain.matches import Matches

    barrier, errors, opened = threading.Barrier(4), [], []

    def open_store():
        barrier.wait()
        try:
            opened.append(Matches.open(store_env))
        except Exception as error:  # noqa: BLE001  (any failure to open is what this test looks for)
            errors.append(repr(error))

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(opened) == 4
    match, _ = opened[0].create("korona", [{"name": "Ana"}, {"name": "Bo"}])
    assert opened[3].load(match.id).version == match.version
    for store in opened:
        store.close()
