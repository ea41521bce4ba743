"""A move is played on the match its process holds, without reading the store first (Matches.held, issue 21): two
processes on one event store (two Matches applications) take turns on one match, so each plays on a match the other
has moved on from. The store takes each version of a match once, so a stale copy neither records a move nor refuses a
legal one: the move is made again on the match as the store has it."""
from __future__ import annotations

import random

import pytest

from domain.errors import IllegalMove
from domain.matches import Matches, VersionConflict

PLAYERS = [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}]


@pytest.fixture
def workers(store_env):
    """Two applications on one store, as two worker processes would be, and a third that reads it, as a client's
    views would (a load brings a process's own copy up to date, so the two workers never load)."""
    made = [Matches(env=store_env), Matches(env=store_env), Matches(env=store_env)]
    yield made
    for app in made:
        app.close()


def a_move(match, chooser: random.Random) -> tuple[int, dict]:
    seat = match.game.awaiting(match.state)
    return seat, chooser.choice(match.game.legal_moves(match.state, seat))


def test_moves_alternating_between_two_processes_are_all_recorded_in_order(workers):
    """Each process's copy is behind by the other's last move whenever it plays; every move is still recorded once,
    at the next version, and the log is the one a single process would have written."""
    first, second, reader = workers
    match, _ = first.create("korona", PLAYERS)
    chooser = random.Random(3)
    for number in range(40):
        app = (first, second)[number % 2]
        current = reader.load(match.id)
        if current.finished:
            break
        held = app.held(match.id)
        assert number < 2 or held.version < current.version, "the player's process holds a match behind the store"
        seat, move = a_move(current, chooser)
        played, events = app.play(match.id, seat, move)
        assert events[0]["version"] == current.version + 1
        assert played.version == reader.load(match.id).version
    log = reader.history(match.id)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert reader.load(match.id).chain == log[-1]["chain"]


def test_a_stale_copy_refuses_nothing_legal_and_records_nothing_illegal(workers):
    """The seat whose turn it was on the stale copy may not move again; the seat to move now may, though its move is
    not legal on the stale copy."""
    first, second, reader = workers
    match, _ = first.create("korona", PLAYERS)
    chooser = random.Random(5)
    held = first.held(match.id)
    seat, move = a_move(held, chooser)
    second.play(match.id, seat, move)  # the other process moves; `first` still holds the match before it
    moved = reader.load(match.id)
    assert first.held(match.id).version == held.version < moved.version
    assert move not in moved.game.legal_moves(moved.state, seat)

    with pytest.raises(IllegalMove):
        first.play(match.id, seat, move)  # legal on the stale copy only
    assert reader.load(match.id).version == moved.version, "nothing recorded"

    stale = first.held(match.id)
    for _ in range(20):  # until the seat to move has a move the stale copy refuses
        second.play(match.id, *a_move(reader.load(match.id), chooser))
        now = reader.load(match.id)
        seat = now.game.awaiting(now.state)
        unheard = [m for m in now.game.legal_moves(now.state, seat)
                   if stale.game.awaiting(stale.state) != seat or m not in stale.game.legal_moves(stale.state, seat)]
        if unheard:
            break
    assert first.held(match.id).version == stale.version < now.version and unheard
    played, _ = first.play(match.id, seat, unheard[0])
    assert played.version > now.version


def test_expected_version_is_checked_against_the_store_not_the_stale_copy(workers):
    first, second, reader = workers
    match, _ = first.create("korona", PLAYERS)
    chooser = random.Random(7)
    stale = first.held(match.id)
    second.play(match.id, *a_move(stale, chooser))
    moved = reader.load(match.id)
    with pytest.raises(VersionConflict, match=f"at version {moved.version}, not {stale.version}"):
        first.play(match.id, *a_move(moved, chooser), expected_version=stale.version)

    stale = first.held(match.id)
    second.play(match.id, *a_move(reader.load(match.id), chooser))
    moved = reader.load(match.id)
    assert stale.version < moved.version
    played, _ = first.play(match.id, *a_move(moved, chooser), expected_version=moved.version)
    assert played.version > moved.version


def test_a_process_that_recorded_the_last_move_plays_the_next_without_reading_the_store(workers, monkeypatch):
    first, _, _ = workers
    match, _ = first.create("korona", PLAYERS)
    chooser = random.Random(9)
    played, _ = first.play(match.id, *a_move(first.held(match.id), chooser))
    reads = []
    select = first.recorder.select_events
    monkeypatch.setattr(first.recorder, "select_events", lambda *a, **k: reads.append(a) or select(*a, **k))
    for _ in range(5):
        played, _ = first.play(match.id, *a_move(played, chooser))
    assert reads == []
