"""A worker's move brings the views up to date with the notifications its own save made, without reading them back
from the event store, where nothing else was recorded after the views' position (Projector.catch_up(own=True), issue
21); otherwise it reads them from the store, with what lies between, and no further."""
from __future__ import annotations

import random

import pytest

from domain.matches import Matches
from projections.projector import Projector
from tests.helpers.stores import play_random

PLAYERS = [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}]


@pytest.fixture
def reads(monkeypatch):
    """Counts the notification reads each application makes of its store."""
    counted: list[Matches] = []

    def count(app: Matches) -> Matches:
        select = app.recorder.select_notifications

        def selecting(*args, **kwargs):
            counted.append(app)
            return select(*args, **kwargs)

        monkeypatch.setattr(app.recorder, "select_notifications", selecting)
        return app

    return count, counted


@pytest.fixture
def two_processes(store_env, redis_client, reads):
    """This process (its notification reads counted) and another on the same store and Redis, with a match each and
    the views caught up: the two applications, this process's projector and the two matches."""
    count, _ = reads
    redis_client.flushdb()
    first, second = count(Matches(env=store_env)), Matches(env=store_env)
    projector = Projector(first, redis_client)
    match, _ = first.create("korona", PLAYERS)
    other, _ = second.create("korona", PLAYERS)
    projector.catch_up()
    yield first, second, projector, match, other
    first.close()
    second.close()


def play_one(app: Matches, match_id, chooser: random.Random):
    """One random legal move through `app`: the match after it, and the version before it."""
    (before,) = play_random(app, match_id, chooser, 1)
    return app.load(match_id), before


def test_a_move_is_projected_from_its_own_notifications(store_env, redis_client, reads):
    count, counted = reads
    redis_client.flushdb()
    app = count(Matches(env=store_env))
    projector = Projector(app, redis_client)
    match, _ = app.create("korona", PLAYERS)
    projector.catch_up()
    chooser = random.Random(2)
    for _ in range(10):
        counted.clear()
        played, before = play_one(app, match.id, chooser)
        assert projector.catch_up(own=True) == played.version - before
        assert counted == [], "no notification read back"
        assert projector.position() == app.recorder.max_notification_id()
        assert projector.view(match.id, 0) == {**played.game.view(played.state, 0), "version": played.version,
                                                "chain_head": played.chain}
    app.close()


@pytest.mark.parametrize("order", ["other, own", "own, other, own"])
def test_another_process_s_notification_before_or_between_this_process_s_sends_the_catch_up_to_the_store(
        two_processes, reads, order):
    """Another process's save between the position and this process's own, or between two of this process's own
    (those follow the position, but a batch of them alone would skip the other's): the batch is read from the store,
    and holds every save (every view up to date, none applied twice)."""
    first, second, projector, match, other = two_processes
    counted = reads[1]
    chooser = random.Random(4)
    if order.startswith("own"):
        play_one(first, match.id, chooser)
    other_played, _ = play_one(second, other.id, chooser)
    played, _ = play_one(first, match.id, chooser)
    counted.clear()
    projector.catch_up(own=True)
    assert counted == [first], "read from the store"
    assert projector.position() == first.recorder.max_notification_id()
    for live in (played, other_played):
        assert projector.view(live.id, None) == {**live.game.view(live.state, None), "version": live.version,
                                                 "chain_head": live.chain}


def test_a_move_is_projected_up_to_its_own_last_notification_and_no_further(two_processes, reads):
    """After its move a worker projects up to the last notification its saves made: another process's save between
    them is read from the store with them, one after them is left to that process (or to the next read), and once the
    position has passed them (this projector's or another process's) nothing is read from the store."""
    first, second, projector, match, other = two_processes
    counted = reads[1]
    chooser = random.Random(6)
    play_one(first, match.id, chooser)
    between, _ = play_one(second, other.id, chooser)
    played, _ = play_one(first, match.id, chooser)
    mine = first.recorder.max_notification_id()
    after, _ = play_one(second, other.id, chooser)
    counted.clear()
    projector.catch_up(own=True)
    assert counted == [first], "read from the store, for the save between"
    assert projector.position() == mine < first.recorder.max_notification_id()
    assert projector.view(match.id, None)["version"] == played.version
    assert projector.view(other.id, None)["version"] == between.version, "the later save is not projected yet"
    counted.clear()
    assert projector.catch_up(own=True) == 0 and counted == []
    assert projector.catch_up() == after.version - between.version
    assert projector.view(other.id, None) == {**after.game.view(after.state, None), "version": after.version,
                                              "chain_head": after.chain}
    last, _ = play_one(first, match.id, chooser)
    Projector(second, projector.redis).catch_up()  # another process's projector passes this process's last save
    counted.clear()
    assert projector.catch_up(own=True) == 0 and counted == []
    assert projector.view(match.id, None)["version"] == last.version
