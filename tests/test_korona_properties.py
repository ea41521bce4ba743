"""Property tests over many random legal Korona playouts through the pure rules and the aggregate."""
from __future__ import annotations

import json
import random
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.korona import rules
from domain.korona.cards import DECK_SIZE
from domain.match import Match

# a fixed match id, so that a playout depends only on its seed and is the same on every run
PLAYOUT_ID = uuid.UUID(int=1)

ACTIONS = {"CardPlaced", "ActionCardPlayed"}


def card_places(state: dict) -> list[int]:
    ids = list(state["pile"]) + list(state["market"]) + list(state["discard"])
    for player in state["players"]:
        ids += player["hand"] + [c for stack in player["area"] for c in stack]
    ids += [waiting["card"] for transit in state["transit"] for waiting in transit]
    return ids


def ids_in(document, marker: str = "id") -> set[int]:
    """Every card id in a JSON document: the int "id" of each object that also has the marker key."""
    found = set()
    if isinstance(document, dict):
        if isinstance(document.get("id"), int) and marker in document:
            found.add(document["id"])
        for value in document.values():
            found |= ids_in(value, marker)
    elif isinstance(document, list):
        for value in document:
            found |= ids_in(value, marker)
    return found


def play_out(seed: bytes, players: int, chooser: random.Random, check_event=None) -> Match:
    """A whole match of random legal moves; check_event(state, type, payload) runs after every event."""
    match = Match.create(PLAYOUT_ID, "korona", [f"P{i}" for i in range(players)],
                         [f"c{i}" for i in range(players)], {"referee": "", "seats": []}, seed)
    match.start()
    while not match.finished:
        seat = rules.awaiting(match.state)
        moves = rules.legal_moves(match.state, seat)
        assert moves, "the seat whose decision is awaited always has a legal move"
        for other in range(players):
            if other != seat:
                assert rules.legal_moves(match.state, other) == [], "a pending decision has exactly one owner"
        before = match.version
        match.play(seat, chooser.choice(moves))
        if check_event:
            for event in match.pending_events:
                if event.originator_version > before:
                    check_event(match, type(event).__name__, event.payload)
    return match


seeds = st.binary(min_size=32, max_size=32)
player_counts = st.integers(min_value=2, max_value=4)
choosers = st.integers(min_value=0, max_value=2**32)
fast = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(seeds, player_counts, choosers)
def test_every_card_is_in_exactly_one_place(seed, players, choice_seed):
    """The 90 cards are each in exactly one place (pile, market, discard, a hand, a play area) after every move."""
    chooser = random.Random(choice_seed)
    match = Match.create(PLAYOUT_ID, "korona", [f"P{i}" for i in range(players)], ["c"] * players,
                         {"referee": "", "seats": []}, seed)
    match.start()
    while not match.finished:
        assert sorted(card_places(match.state)) == list(range(DECK_SIZE))
        seat = rules.awaiting(match.state)
        match.play(seat, chooser.choice(rules.legal_moves(match.state, seat)))
    assert sorted(card_places(match.state)) == list(range(DECK_SIZE))


@fast
@given(seeds, player_counts, choosers)
def test_turns_draw_first_take_one_to_three_actions_and_end_within_the_hand_limit(seed, players, choice_seed):
    """Each turn begins with a draw, has 1 to 3 actions, and no seat ends a turn holding more than 7."""
    match = play_out(seed, players, random.Random(choice_seed))
    turn = None
    for event in match.collect_events():
        kind, payload = type(event).__name__, event.payload
        if kind == "TurnStarted":
            turn = {"first": None, "actions": 0, "seat": payload["seat"]}
        elif turn is not None:
            if turn["first"] is None:
                turn["first"] = (kind, payload.get("step"))
                assert turn["first"] == ("CardsDrawn", "draw")
            if kind in ACTIONS and payload["seat"] == turn["seat"] or (kind == "CardDiscarded" and payload["reason"] == "action"):
                turn["actions"] += 1
            if kind in ("TurnEnded", "VictoryDeclared"):
                assert 1 <= turn["actions"] <= 3
                turn = None
    assert match.state["status"] == "finished"


@fast
@given(seeds, player_counts, choosers)
def test_hand_limit_holds_at_every_turn_end(seed, players, choice_seed):
    """"At the end of your turn, you cannot have more than 7 cards in hand." """
    ends = []

    def check(match, kind, payload):
        if kind == "TurnEnded":
            ends.append(len(match.state["players"][payload["seat"]]["hand"]))

    play_out(seed, players, random.Random(choice_seed), check)
    assert ends and max(ends) <= 7


@fast
@given(seeds, player_counts, choosers)
def test_rebuilding_from_the_log_equals_the_live_state(seed, players, choice_seed):
    """Folding the recorded events from scratch gives exactly the live state and chain head."""
    match = play_out(seed, players, random.Random(choice_seed))
    rebuilt = None
    for event in match.collect_events():
        rebuilt = event.mutate(rebuilt)
    assert rebuilt.state == match.state
    assert rebuilt.chain == match.chain and rebuilt.version == match.version


@fast
@given(seeds, player_counts, choosers)
def test_a_seat_never_sees_another_hand_or_the_pile_order(seed, players, choice_seed):
    """A seat's view and its redacted log hold no card of another seat's hand nor of the pile."""
    chooser = random.Random(choice_seed)
    match = Match.create(PLAYOUT_ID, "korona", [f"P{i}" for i in range(players)], ["c"] * players,
                         {"referee": "", "seats": []}, seed)
    match.start()
    log = [(type(e).__name__, e.payload) for e in match.collect_events()]
    while not match.finished:
        state = match.state
        public = set()
        for kind, payload in log:
            if kind not in ("DeckShuffled", "CardsDealt") and payload.get("source") != "pile":
                public |= ids_in(payload)
        for seat in range(players):
            secret = set(state["pile"])
            for other in range(players):
                if other != seat:
                    secret |= set(state["players"][other]["hand"]) - public
            shown = rules.view(state, seat)
            assert "draw_pile" not in shown
            assert not ids_in(shown) & secret
            redacted = [rules.redact(kind, payload, seat) for kind, payload in log]
            assert not ids_in(json.loads(json.dumps(redacted))) & secret
        current = rules.awaiting(state)
        match.play(current, chooser.choice(rules.legal_moves(state, current)))
        log += [(type(e).__name__, e.payload) for e in match.collect_events()]


def test_every_random_playout_ends_with_a_winner():
    """Random legal playouts of 2, 3 and 4 players all finish, with at least one winner."""
    for players in (2, 3, 4):
        for n in range(5):
            match = play_out(bytes([n]) * 32, players, random.Random(n))
            assert match.state["winners"]
            assert match.revealed_seed == (bytes([n]) * 32).hex()


def test_random_playouts_use_every_action_card():
    """With all eight action cards in the deck, random legal playouts play each of them (Shields as answers)."""
    from collections import Counter

    played = Counter()
    for n in range(150):
        match = play_out(n.to_bytes(32, "big"), 2 + n % 3, random.Random(n))
        for event in match.collect_events():
            kind = type(event).__name__
            if kind in ("ActionCardPlayed", "ShieldPlayed", "ShieldCountered"):
                played[event.payload["card"]["name"]] += 1
    assert set(played) == {"donation", "extra_draw", "internal_move", "tactical_swap", "sneak_attack",
                           "glorious_attack", "revolt", "shield"}, played
