"""Helpers for the Crusader Kingdoms tests: pure-rules tables, scripted dice and card placement."""
from __future__ import annotations

from domain import fair
from domain.crusader_kingdoms import GAME as CRUSADER_KINGDOMS
from domain.crusader_kingdoms import decide
from domain.crusader_kingdoms.moves import awaiting, legal_moves
from domain.crusader_kingdoms.state import new_state
from tests.helpers.korona import ids_in as marked_ids

SEED = b"crusader-kingdoms-test-seed-0001"
DAMASCUS, JERUSALEM, ANTIOCH, ALEPPO = 0, 1, 2, 3
# the "Saladin and the 2nd Crusade" map's ids
A_ANTIOCH, A_ALEPPO, A_LATAKIA, A_HOMS, A_TRIPOLI, A_DAMASCUS, A_SHAIZAR = 3, 4, 5, 9, 8, 12, 6
A_JERUSALEM, A_ACRE, A_EDESSA, A_TURBESSEL, A_BANIAS = 16, 13, 1, 2, 14
# the "1st and 3rd Crusades" map's ids (1 and 2 players)
C_LATAKIA, C_ANTIOCH, C_MARAT = 8, 10, 13


class Scripted(fair.Generator):
    """A herald-fair-v1 generator whose next dice (and choices) results are the ones a test prints."""

    def __init__(self, dice=(), choices=()):
        super().__init__(SEED, "scripted", ["c"])
        self.scripted_dice = [list(d) for d in dice]
        self.scripted_choices = list(choices)

    def dice(self, faces, count):
        entry = super().dice(faces, count)
        if self.scripted_dice:
            entry["result"] = self.scripted_dice.pop(0)
            assert len(entry["result"]) == count, (entry, count)
        return entry

    def choice(self, n):
        entry = super().choice(n)
        if self.scripted_choices:
            entry["result"] = self.scripted_choices.pop(0)
        return entry


def table(players: int, options: dict | None = None, rng=None) -> tuple[dict, fair.Generator]:
    """A started state of the pure rules, and the generator that started it."""
    created = {"players": [f"P{i}" for i in range(players)], "options": options or {}, "await_client_seeds": False}
    state = new_state(created)
    rng = rng or fair.Generator(SEED, "m", ["c"] * players)
    for kind, payload in decide.start(state, rng):
        CRUSADER_KINGDOMS.evolve(state, kind, payload)
    return state, rng


def play(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """Decide a move and evolve the state with its events; returns the events."""
    events = decide.decide(state, seat, move, rng)
    for kind, payload in events:
        CRUSADER_KINGDOMS.evolve(state, kind, payload)
    return events


def attack_with(state, seat, area, cards, rng, event=None):
    """Seat attacks an area (or plays an attack event naming it), puts these cards down and stops."""
    set_round(state, seat)
    first = {"type": "play", "card": event, "area": area} if event is not None else {"type": "attack", "area": area}
    events = play(state, seat, first, rng)
    for c in cards:
        events += play(state, seat, {"type": "commit", "card": c}, rng)
    return events + play(state, seat, {"type": "pass"}, rng)


def types(events) -> list[str]:
    return [kind for kind, _ in events]


def zones(state: dict) -> list[list[int]]:
    lists = [state["piles"][d] for d in ("christian", "muslim")] + [state["discards"][d] for d in
                                                                     ("christian", "muslim")]
    lists += [state["removed"][d] for d in ("christian", "muslim")]
    for kingdom in state["kingdoms"]:
        lists += [kingdom["hand"], kingdom["persistent"], kingdom["army"], kingdom["queue"]]
    return lists


def cards_of(state: dict, effect: str, deck: str, value: int | None = None) -> list[int]:
    return [c["id"] for c in state["cards"] if c["effect"] == effect and c["deck"] == deck
            and (value is None or c["value"] == value)]


def troops(state: dict, deck: str, *values: int) -> list[int]:
    """Distinct troop cards of the given values from a deck."""
    out = []
    for v in values:
        out.append(next(c for c in cards_of(state, "troop", deck, v) if c not in out))
    return out


def named(state: dict, name: str, deck: str | None = None) -> int:
    """The first card with this name (from this deck)."""
    return next(c["id"] for c in state["cards"] if c["name"] == name and deck in (None, c["deck"]))


def move_card(state: dict, card_id: int, target: list[int]) -> None:
    for zone in zones(state):
        if card_id in zone:
            zone.remove(card_id)
            break
    target.append(card_id)


def set_hand(state: dict, k: int, card_ids: list[int]) -> None:
    """Kingdom k holds exactly these cards; what it held goes to its deck's discard pile."""
    for c in list(state["kingdoms"][k]["hand"]):
        move_card(state, c, state["discards"][state["cards"][c]["deck"]])
    for c in card_ids:
        move_card(state, c, state["kingdoms"][k]["hand"])


def empty_hands(state: dict) -> None:
    for k in range(len(state["kingdoms"])):
        set_hand(state, k, [])


def set_round(state: dict, k: int) -> None:
    state.update(current=k, slot=k, phase="action", passes=0)


def set_area(state: dict, area: int, owner, plus: bool = False, castle: bool = True) -> None:
    """Put an area under an owner (castles come from and go back to the supplies)."""
    old = state["areas"][str(area)]
    if old["castle"] and old["owner"] is not None:
        state["kingdoms"][old["owner"]]["supply"] += 1
    state["areas"][str(area)] = {"owner": owner, "castle": castle and owner is not None, "plus": plus}
    if castle and owner is not None:
        state["kingdoms"][owner]["supply"] -= 1


def pass_all(state: dict, rng) -> list:
    """Everyone passes until the turn ends (answering any pending decision with its first option)."""
    events = []
    turn = state["turn"]
    while state["status"] == "active" and state["turn"] == turn:
        seat = awaiting(state)
        moves = legal_moves(state, seat)
        events += play(state, seat, {"type": "pass"} if {"type": "pass"} in moves else moves[0], rng)
    return events


def ids_in(document) -> set[int]:
    """Every Crusader Kingdoms card id a document shows (its card objects carry their deck)."""
    return marked_ids(document, "deck")
