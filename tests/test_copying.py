"""domain/copying.py: the deep copy every game's working table starts from."""
from __future__ import annotations

import copy
import random
import uuid

import pytest

from domain.copying import copy_sharing
from domain.match import Match
from domain.matches import Matches
from domain.registry import GAMES
from tests.helpers.korona import played_match


def test_a_copy_is_deep_except_for_the_shared_keys():
    """Changing the copy anywhere below the top level leaves the original alone, but a shared key's value is the
    original's own object (a match's card list, which never changes); types and key order are kept."""
    cards = [{"id": 0, "name": "Knight"}]
    state = {"players": [{"hand": [1, 2], "at": (0, 1)}], "cards": cards, "flag": True, "none": None, "x": 1.5}
    copy = copy_sharing(state, ("cards",))
    assert copy == state and list(copy) == list(state)
    copy["players"][0]["hand"].append(3)
    assert state["players"][0]["hand"] == [1, 2]
    assert copy["cards"] is cards and copy["players"][0]["at"] == (0, 1) and copy["flag"] is True
    assert copy_sharing(state)["cards"] is not cards


@pytest.mark.parametrize("game", sorted(GAMES))
def test_deciding_a_move_never_changes_the_state_it_was_given(game):
    """Every game's working table copies deep enough (domain/table.py): through whole random games of its most
    players, the match's state after each decision equals a full deep copy taken before it, whatever the table's
    events changed; and each event a table emitted carries the class its game finds for its type and payload, which
    the match records it under (domain/match.py _record_all)."""
    chooser = random.Random(5)
    names = [f"P{i}" for i in range(GAMES[game].max_players)]
    for number in range(3):
        match = Match.create(uuid.UUID(int=number + 1), game, names, names, {}, bytes([number]) * 32)
        match.start()
        while not match.finished:
            seat = match.game.awaiting(match.state)
            move = chooser.choice(match.game.legal_moves(match.state, seat))
            before = copy_sharing(match.state)
            events = match.game.decide(match.state, seat, move, match.rng())
            assert events and match.state == before, (game, move)
            classes = getattr(events, "classes", [match.game.event(*event) for event in events])
            assert [match.game.event(*event) for event in events] == classes, (game, move)
            match.play(seat, move)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_folding_an_event_onto_a_copy_never_changes_the_original(game):
    """A worker fast-forwards its cached match by another worker's events on a copy of it (store/aggregates.py
    apply_events), whose state is copied by the game's copy_state before the first event evolves it: through whole
    random games of its most players, each event folded onto a copy leaves the match it was copied from as it was,
    and the fold ends at the played match's state."""
    chooser = random.Random(6)
    names = [f"P{i}" for i in range(GAMES[game].max_players)]
    for number in range(2):
        played = Match.create(uuid.UUID(int=number + 1), game, names, names, {}, bytes([number + 7]) * 32)
        played.start()
        while not played.finished:
            seat = played.game.awaiting(played.state)
            played.play(seat, chooser.choice(played.game.legal_moves(played.state, seat)))
        events = played.collect_events()
        folded = events[0].mutate(None)
        for event in events[1:]:
            before = copy_sharing(folded.state)
            successor = event.mutate(copy.deepcopy(folded))
            assert folded.state == before, (game, event.originator_version, event.name)
            folded = successor
        assert folded.state == played.state and folded.version == played.version


def test_a_match_copy_shares_the_state_until_it_changes_it():
    """A command's copy of a match shares its game state (domain/match.py __deepcopy__) and leaves the original's
    alone whichever way it changes: a move hands the copy a state of its own, and events evolving the state in place
    (a referee's resolution) copy it first."""
    original = played_match(12)
    before, version = copy_sharing(original.state), original.version
    played, resolved = copy.deepcopy(original), copy.deepcopy(original)
    assert played.state is original.state and resolved.state is original.state
    seat = original.game.awaiting(original.state)
    played.play(seat, original.game.legal_moves(original.state, seat)[0])
    resolved.resolve(seat, {"type": "default"})
    assert original.state == before and original.version == version < played.version
    for changed in (played, resolved):
        assert changed.state is not original.state and changed.state != before and not changed.state_shared


def test_a_match_loaded_for_reading_never_changes_under_its_reader(tmp_path):
    """Two processes on one store (two Matches, as two gunicorn workers): the match one holds for reading stays as it
    was while the other records moves, and its next load fast-forwards a new cached match from it."""
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}
    writer, reader = Matches(env=env), Matches(env=env)
    match, _ = writer.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
    held = reader.load(match.id, for_reading=True)
    version, state = held.version, copy_sharing(held.state)
    seat = match.game.awaiting(match.state)
    writer.play(match.id, seat, match.game.legal_moves(match.state, seat)[0])
    moved = reader.load(match.id, for_reading=True)
    assert held.version == version and held.state == state
    assert moved is not held and moved.version > version and moved.state == writer.load(match.id).state
    assert reader.load(match.id, for_reading=True) is moved
    writer.close()
    reader.close()
