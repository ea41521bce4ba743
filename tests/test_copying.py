"""domain/copying.py: the deep copy every game's working table starts from."""
from __future__ import annotations

import random
import uuid

import pytest

from domain.copying import copy_sharing
from domain.match import Match
from domain.registry import GAMES


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
    events changed."""
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
            match.play(seat, move)
