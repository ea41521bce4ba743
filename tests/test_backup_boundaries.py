"""Undos return only to versions between two moves: never into the setup or the middle of a move, where no seat
would be left to decide and the match would freeze (rulings U1 and U2)."""
from __future__ import annotations

import random
import uuid

import pytest

from domain.errors import IllegalMove
from domain.match import Match
from domain.matches import Matches
from tests.helpers.stores import memory_app, play_random

KORONA_3P = ("korona", 3)
MOVES = 25
CRUSADERS = [("crusader_kingdoms", n) for n in (1, 2, 3, 4)]
# decks rich in attack events and armies, so that moves of several automatic steps come up often
EVENTFUL_DECKS = {
    "christian": [{"name": "Joint Attack", "effect": "attack_event", "value": 0, "allies": True, "count": 20},
                  {"name": "Troop 1", "effect": "troop", "value": 1, "count": 20}],
    "muslim": [{"name": "Minor Campaign", "effect": "attack_event", "value": 1, "count": 25},
               {"name": "Troop 1", "effect": "troop", "value": 1, "count": 20}],
}


def resting_versions(app: Matches, match_id) -> list[int]:
    log = app.history(match_id)
    accepted = []
    for version in range(1, len(log)):
        try:
            app.at_rest(match_id, version, log[version:])
        except IllegalMove:
            continue
        accepted.append(version)
    return accepted


@pytest.mark.parametrize("game, players", [KORONA_3P, *CRUSADERS])
@pytest.mark.parametrize("seed", [1, 2])
def test_an_undo_may_return_to_every_move_and_play_goes_on_from_wherever_it_is_allowed(game, players, seed):
    """U2 "A backup goes to a version between two moves, never into the middle of one": every version at which a
    played move began is accepted, the setup is not, and from any accepted version a backup leaves a seat to decide
    and the match plays on (a version inside a move is accepted only where the rest of the move is itself a legal
    move, e.g. Korona's end_turn after a second action)."""
    app = memory_app()
    options = {"decks": EVENTFUL_DECKS} if game == "crusader_kingdoms" and seed == 2 else None
    match = Match.create(uuid.UUID(int=seed), game, [f"P{i}" for i in range(players)], ["c"] * players,
                         {"referee": "", "seats": []}, seed.to_bytes(32, "big"), options)
    match.start()
    app.save(match)
    starts = play_random(app, match.id, random.Random(seed), MOVES)
    accepted = resting_versions(app, match.id)
    assert set(starts) <= set(accepted) and accepted[0] == starts[0]  # nothing inside the setup
    for version in sorted(random.Random(seed).sample(accepted, 3), reverse=True):  # each further back than the last
        backed, _ = app.back_up(match.id, version, "misplay")
        assert backed.game.legal_moves(backed.state, backed.game.awaiting(backed.state))
    assert len(play_random(app, match.id, random.Random(seed), MOVES)) == MOVES  # no freeze


# every hand surely holds an attack event
EVENT_HANDS = {
    "christian": [{"name": "Joint Attack", "effect": "attack_event", "value": 0, "allies": True, "count": 36},
                  {"name": "Troop 1", "effect": "troop", "value": 1, "count": 4}],
    "muslim": [{"name": "Minor Campaign", "effect": "attack_event", "value": 1, "count": 41},
               {"name": "Troop 1", "effect": "troop", "value": 1, "count": 4}],
}


def event_attack(app: Matches):
    """A 3-player match whose first seat has just played an attack event; (app's match, its version before)."""
    match, _ = app.create("crusader_kingdoms", [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}],
                          {"decks": EVENT_HANDS})
    seat = match.game.awaiting(match.state)
    event = next(m for m in match.game.legal_moves(match.state, seat) if m["type"] == "play" and "area" in m)
    before = match.version
    played, events = app.play(match.id, seat, event)
    assert played.state["attack"] is not None and events[1]["type"] == "AttackDeclared"
    return played, seat, event, before, events


def test_a_seat_takes_back_an_attack_begun_by_an_event_card_with_the_card():
    """U1, and §4.4 "El jugador muestra la carta de evento y procede de acuerdo con su texto": the attack an event
    card begins is part of playing the card, so a take-back returns to before the card and the seat decides again."""
    app = memory_app()
    played, seat, event, before, _ = event_attack(app)
    taken, _ = app.take_back(played.id, seat)
    assert app.history(played.id)[-1]["payload"]["to_version"] == before
    assert taken.state["attack"] is None and taken.game.awaiting(taken.state) == seat
    assert event in taken.game.legal_moves(taken.state, seat)


def test_a_backup_into_the_middle_of_an_event_attack_is_refused_and_changes_nothing():
    """U2: the version between an event card and the attack it begins is inside one move."""
    app = memory_app()
    played, _, _, _, events = event_attack(app)
    with pytest.raises(IllegalMove, match="middle of a move"):
        app.back_up(played.id, events[0]["version"], "misplay")
    assert app.load(played.id).version == played.version


def test_a_backup_into_the_seating_of_a_match_is_refused():
    """U2: before every client seed was set nobody had a move, so a backup to version 1 would leave the match
    waiting for seeds it already has."""
    app = memory_app()
    match, _ = app.create("crusader_kingdoms", [{"name": "Godfrey"}], await_client_seeds=True)
    started, _, _ = app.act(match.id, lambda m: m.set_client_seed(0, "abc"))
    assert started.state["status"] == "active"
    with pytest.raises(IllegalMove, match="middle of a move or of the setup"):
        app.back_up(match.id, 1, "again")
    assert app.load(match.id).version == started.version
