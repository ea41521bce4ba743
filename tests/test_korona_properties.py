"""Property tests over many random legal Korona playouts through the pure rules and the aggregate."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.korona import GAME as KORONA
from domain.korona.cards import DECK_SIZE, NAMES
from domain.korona.stacking import base, has_ruler_pair, is_ruler_pair
from domain.korona.state import HAND_LIMIT, MAX_ACTIONS
from domain.match import Match
from tests.helpers.korona import SeenCards, card_ids, card_places
from tests.helpers.playouts import PLAYOUT_ID, events_since, play_out, randomly

ACTIONS = {"CardPlaced", "ActionCardPlayed"}


def korona_playout(seed: bytes, players: int, chooser: random.Random, check_event=None) -> Match:
    """A whole match of random legal moves; check_event(match, type, payload) runs after every event."""

    def each_move_checks_alone(match, seat, moves):
        for move in moves:
            like = KORONA.legal_moves(match.state, seat, move)
            assert move in like and all(m in moves for m in like), \
                "the moves decide checks a move against hold that move, and only legal ones"

    def check_new_events(match, before):
        for event in events_since(match, before):
            check_event(match, event.name, event.payload)

    return play_out("korona", players, seed, randomly(chooser), before_move=each_move_checks_alone,
                    after_move=check_new_events if check_event else None)


seeds = st.binary(min_size=32, max_size=32)
player_counts = st.integers(min_value=2, max_value=4)
choosers = st.integers(min_value=0, max_value=2**32)
fast = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(seeds, player_counts, choosers)
def test_every_card_is_in_exactly_one_place(seed, players, choice_seed):
    """The 90 cards are each in exactly one place (pile, market, discard, a hand, a play area, in transit) after
    every event from the first shuffle on, folding the match's log one event at a time."""
    match = korona_playout(seed, players, random.Random(choice_seed))
    folded, checked = None, 0
    for event in match.collect_events():
        folded = event.mutate(folded)
        if event.name != "MatchCreated":
            assert sorted(card_places(folded.state)) == list(range(DECK_SIZE)), event.name
            checked += 1
    assert checked == match.version - 1


@fast
@given(seeds, player_counts, choosers)
def test_turns_draw_first_take_one_to_three_actions_and_end_within_the_hand_limit(seed, players, choice_seed):
    """Each turn begins with a draw, has 1 to 3 actions, and no seat ends a turn holding more than 7."""
    match = korona_playout(seed, players, random.Random(choice_seed))
    turn = None
    for event in match.collect_events():
        kind, payload = event.name, event.payload
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

    korona_playout(seed, players, random.Random(choice_seed), check)
    assert ends and max(ends) <= 7


@fast
@given(seeds, player_counts, choosers)
def test_rebuilding_from_the_log_equals_the_live_state(seed, players, choice_seed):
    """Folding the recorded events from scratch gives exactly the live state and chain head."""
    match = korona_playout(seed, players, random.Random(choice_seed))
    rebuilt = None
    for event in match.collect_events():
        rebuilt = event.mutate(rebuilt)
    assert rebuilt.state == match.state
    assert rebuilt.chain == match.chain and rebuilt.version == match.version


@fast
@given(seeds, player_counts, choosers)
def test_a_seat_never_sees_another_hand_or_the_pile_order(seed, players, choice_seed):
    """A seat's view and its redacted log hold no card of the pile, nor of another seat's hand unless it was shown to
    everyone or to this seat (its own deal and draws, a card it gave or received by Donation)."""
    chooser = random.Random(choice_seed)
    match = Match.create(PLAYOUT_ID, "korona", [f"P{i}" for i in range(players)], ["c"] * players,
                         {"referee": "", "seats": []}, seed)
    match.start()
    seen = [SeenCards(seat) for seat in range(players)]
    in_redacted_log = [set() for _ in range(players)]  # the card ids each seat's redacted log shows so far

    def record(events) -> None:
        """Follow new events: what each seat was shown, and what its redaction of each shows (both per event)."""
        for event in events:
            for seat in range(players):
                seen[seat].add(event.name, event.payload)
                redacted = KORONA.redact(event.name, event.payload, seat)
                in_redacted_log[seat] |= card_ids(json.loads(json.dumps(redacted)))

    record(match.collect_events())
    while not match.finished:
        state = match.state
        for seat in range(players):
            secret = seen[seat].unseen(state["pile"], [p["hand"] for p in state["players"]])
            shown = KORONA.view(state, seat)
            assert "draw_pile" not in shown
            assert not card_ids(shown) & secret
            assert not in_redacted_log[seat] & secret
        current = KORONA.awaiting(state)
        match.play(current, chooser.choice(KORONA.legal_moves(state, current)))
        record(match.collect_events())


def test_every_random_playout_ends_with_a_winner():
    """Random legal playouts of 2, 3 and 4 players all finish, with at least one winner."""
    for players in (2, 3, 4):
        for n in range(5):
            match = korona_playout(bytes([n]) * 32, players, random.Random(n))
            assert match.state["winners"]
            assert match.revealed_seed == (bytes([n]) * 32).hex()


def test_random_playouts_use_every_action_card():
    """With all eight action cards in the deck, random legal playouts play each of them (Shields as answers)."""
    from collections import Counter

    every = {"donation", "extra_draw", "internal_move", "tactical_swap", "sneak_attack", "glorious_attack", "revolt",
             "shield"}
    played = Counter()
    for n in range(150):  # up to 150 playouts: the first that completes the set ends the search
        match = korona_playout(n.to_bytes(32, "big"), 2 + n % 3, random.Random(n))
        for event in match.collect_events():
            kind = event.name
            if kind in ("ActionCardPlayed", "ShieldPlayed", "ShieldCountered"):
                played[event.payload["card"]["name"]] += 1
        if set(played) == every:
            break
    assert set(played) == every, played


class Hoarder(random.Random):
    """A chooser that plays cards at other players whenever it can and seldom discards, so hands grow and cards
    change play areas often: the positions where the one-pair rule and the hand limit are tested hardest."""

    def choice(self, moves):
        def weight(move):
            if move["type"] == "play" and ("target" in move or NAMES[move["card"]] == "revolt"):
                return 20
            return {"end_turn": 5, "discard": 0.1}.get(move["type"], 1)
        return self.choices(moves, [weight(m) for m in moves])[0]


class LimitsHold:
    """After every event: one Ruler pair and one Healer stack per player; a Ruler placed alone never stands beside
    another lone Ruler it could have been stacked on; a seat never discards for the hand limit more cards than the
    excess it already had when its actions began (what it got from its own cards must fit in its actions)."""

    def __init__(self):
        self.turn = None

    def __call__(self, match, kind, payload):
        state = match.state
        for player in state["players"]:
            assert sum(is_ruler_pair(s, state["roles"]) for s in player["area"]) <= 1, (kind, player["area"])
            assert sum(base(s) == "healer" for s in player["area"]) <= 1, (kind, player["area"])
        if kind in ("CardPlaced", "ReceivedCardPlaced", "CardMoved") and payload["card"]["name"] == "ruler" \
                and payload.get("to") != "hand":
            area = state["players"][payload.get("owner", payload["seat"])]["area"]
            lone = [s for s in area if s == [payload["card"]["id"]]]
            if lone:
                others = [s for s in area if len(s) == 1 and base(s) == "ruler" and s != lone[0]]
                assert not others or has_ruler_pair(area, state["roles"]), (kind, area)
        if kind == "TurnStarted":
            self.turn = {"seat": payload["seat"], "excess": None, "discarded": 0}
        elif self.turn and self.turn["excess"] is None and state["phase"] == "actions":
            hand = len(state["players"][self.turn["seat"]]["hand"])
            self.turn["excess"] = max(0, hand - MAX_ACTIONS - HAND_LIMIT)
        if kind == "CardDiscarded" and payload["reason"] == "hand_limit":
            self.turn["discarded"] += 1
            assert self.turn["discarded"] <= self.turn["excess"], "a discard caused by the seat's own card"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_pair_one_healer_stack_and_own_cards_within_the_hand_limit(players):
    """Ruler: "Only one ruler pair per player is allowed"; "Must stack second Ruler on first"; "Second Healer must
    be stack on the first"; hand limit: "must reduce to 7 by the turn's end without additional discard actions
    beyond the normal 1 to 3 actions" -- checked after every event of random playouts (uniform and card-happy)."""
    for n in range(60):
        chooser = Hoarder(n) if n % 3 else random.Random(n)
        korona_playout(bytes([n, players]) * 16, players, chooser, LimitsHold())
