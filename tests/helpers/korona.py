"""Korona test helpers: card ids by name, a table built from new_state(), moves decided and applied through
the rules, and what a document shows of the cards."""
from __future__ import annotations

import copy
import random
import uuid

from domain import fair
from domain.events import ActionsRetracted, BackupPerformed
from domain.korona import GAME as KORONA
from domain.korona.state import new_state
from domain.match import Match

PLAYERS = ["Ana", "Bo", "Cy"]
ANA, BO, CY = 0, 1, 2

# Card ids by name, in cards.json order (checked by test_card_ids_used_here_match_the_card_list).
RULER = [0, 1, 2, 3]
STABLE = [4, 5, 6, 7]
KNIGHT = [8, 9, 10, 11, 12]
TOWER = [13, 14, 15, 16, 17, 18]
ARCHER = list(range(19, 29))
FIELD = list(range(29, 35))
FARMER = list(range(35, 47))
HEALER = [47, 48]
JOKER = [49, 50, 51]
THIEF = [52, 53]
DONATION = [54, 55, 56, 57]
EXTRA_DRAW = list(range(58, 68))
INTERNAL_MOVE = list(range(68, 76))
SWAP = [76, 77, 78, 79]
SNEAK = [80, 81, 82]
GLORIOUS = [83, 84]
REVOLT = 85
SHIELD = [86, 87, 88, 89]


# ---------------------------------------------------------------- helpers

def rng() -> fair.Generator:
    return fair.Generator(b"\0" * 32, "m", ["a", "b", "c"])


def table(hands, areas, *, current=ANA, actions=0, roles=None) -> dict:
    """An active match in the actions phase with the given hands and play areas (stacks bottom first)."""
    state = new_state({"players": PLAYERS[:len(hands)]})
    for player, hand, area in zip(state["players"], hands, areas):
        player["hand"] = list(hand)
        player["area"] = [list(s) for s in area]
    state.update(pile=EXTRA_DRAW[:6], market=INTERNAL_MOVE[:3], current=current, phase="actions",
                 actions=actions, turn=1, status="active",
                 roles={str(k): v for k, v in (roles or {}).items()})
    return state


def play_events(state, seat, move, generator: fair.Generator | None = None):
    """Decide a move and apply its events to the state in place; return the events."""
    events = KORONA.decide(state, seat, move, generator or rng())
    for type_, payload in events:
        KORONA.evolve(state, type_, payload)
    return events


def play(state, seat, move):
    """play_events, returning only the event types."""
    return [t for t, _ in play_events(state, seat, move)]


def area(state, seat):
    return state["players"][seat]["area"]


def hand(state, seat):
    return state["players"][seat]["hand"]


def kind(state):
    pending = KORONA.view(state, "referee")["pending"]
    return pending and pending["kind"]


def options(state, seat, type_=None):
    return [m for m in KORONA.legal_moves(state, seat) if type_ is None or m["type"] == type_]


def let_it_through(state, *seats):
    """Each listed seat passes its Shield window."""
    for seat in seats:
        assert KORONA.awaiting(state) == seat
        play(state, seat, {"type": "pass"})


def reachable_areas(state, seat):
    """Every play area the seat can end with by choosing its pending placements in every legal way."""
    if KORONA.awaiting(state) != seat or kind(state) != "place":
        return [[list(s) for s in area(state, seat)]]
    found = []
    for move in options(state, seat):
        branch = copy.deepcopy(state)
        play(branch, seat, move)
        found += reachable_areas(branch, seat)
    return found


def six_farmers():
    return [[FIELD[0], FARMER[0], FARMER[1], FARMER[2]], [FIELD[1], FARMER[3], FARMER[4], FARMER[5]]]


def revolt_table(ana_extra=(), bo_area=(), cy_area=(), roles=None, hands=((), (), ())):
    ana = six_farmers() + [list(s) for s in ana_extra]
    return table([[REVOLT, *hands[0]], list(hands[1]), list(hands[2])], [ana, list(bo_area), list(cy_area)],
                 roles=roles)


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


# the keys under which Korona payloads, moves and views hold bare card ids
CARD_KEYS = {"card", "cards", "stack_cards", "take", "moved_card", "hand", "hands", "pile", "draw_pile", "market",
             "discard", "discard_pile", "area", "play_area"}


def card_ids(document, under_card_key: bool = False) -> set[int]:
    """Every Korona card id a JSON document shows: card objects, bare ints under a key that holds cards, and what
    a shuffle shuffled (its input and result); versions, seats, turns and other numbers do not count."""
    found = set()
    if isinstance(document, int) and not isinstance(document, bool):
        return {document} if under_card_key else found
    if isinstance(document, list):
        for value in document:
            found |= card_ids(value, under_card_key)
    elif isinstance(document, dict):
        if isinstance(document.get("id"), int):
            found.add(document["id"])
        shuffle = document.get("kind") == "shuffle"
        for key, value in document.items():
            if key == "reshuffled":  # zones and how many cards each held
                continue
            holds_cards = key in CARD_KEYS or (shuffle and key in ("input", "result"))
            found |= card_ids(value, holds_cards and key != "id")
    return found


RESTORING = (ActionsRetracted.name, BackupPerformed.name)


def secret_to_others(kind: str, payload: dict) -> bool:
    """Whether an event shows cards that only some seats may see: the deck, a deal, a draw from the pile, a card
    given from hand to hand, a referee's move for a seat, a restored state."""
    return kind in ("DeckShuffled", "CardsDealt", "RefereeResolved", *RESTORING) or payload.get("source") == "pile" \
        or (kind == "CardGiven" and payload.get("zone") == "hand")


class SeenCards:
    """What one seat has been shown of the cards, fed the log one event at a time: cards shown to everyone, and
    those shown to it alone (its own deal and draws, a card it gave or received)."""

    def __init__(self, seat: int):
        self.seat, self.public, self.known = seat, set(), set()

    def add(self, kind: str, payload: dict) -> None:
        if not secret_to_others(kind, payload):
            self.public |= card_ids(payload)
        elif kind not in ("DeckShuffled", *RESTORING) and self.seat in (payload["seat"], payload.get("to")):
            self.known |= card_ids(payload)

    def unseen(self, pile, hands) -> set[int]:
        """The cards of the pile and of the other seats' hands it has not been shown (a card it saw may be back in
        the pile after a backup: it knows the card is there, not where)."""
        others = {card for other, hand in enumerate(hands) if other != self.seat for card in hand}
        return (card_ids({"pile": pile}) | card_ids({"hand": list(others)})) - self.public - self.known


def unseen_by(seat: int, log, pile, hands) -> set[int]:
    """The cards a seat has not seen, after the whole log."""
    seen = SeenCards(seat)
    for kind, payload in log:
        seen.add(kind, payload)
    return seen.unseen(pile, hands)


def played_match(moves: int, match_id: int = 7) -> Match:
    """A seeded Korona match (the same deal for the same id) played by random legal moves, up to `moves` or its end;
    its events are still pending, so an application can save it whole."""
    chooser = random.Random(2)
    match = Match.create(uuid.UUID(int=match_id), "korona", ["A", "B", "C"], ["a", "b", "c"], {}, bytes(32))
    match.start()
    for _ in range(moves):
        if match.finished:
            break
        seat = match.game.awaiting(match.state)
        match.play(seat, chooser.choice(match.game.legal_moves(match.state, seat)))
    return match
