"""For a Crown's match state: a plain JSON-ready dict, evolved in place by events.

Cards are ids: the Mercenaries first, then the Events, in the order of the cards file. Seats are players; a
family's Portrait is named by its seat. The Gallery is a list of spaces, left to right, each a seat or None:
the rightmost Portrait is the most influential.
"""
from __future__ import annotations

from domain.events import platform_state

from .data import load_board, load_cards

ROUNDS = 4


def catalogue(cards: dict) -> list[dict]:
    """Every card of the match, by id: Mercenaries (level, name, effects) then Events (name, kind, starting)."""
    out = []
    for m in cards["mercenaries"]:
        out += [{"kind": "mercenary", "level": m["level"], "name": m["name"], "effects": m["effects"]}] * m["count"]
    for e in cards["events"]:
        out += [{"kind": "event", "event": e["kind"], "name": e["name"], "starting": e["starting"]}] * e["count"]
    return [{"id": i, **c} for i, c in enumerate(out)]


def new_state(created: dict) -> dict:
    """The state right after MatchCreated: chests filled with Heirloom and Rubies, the starting Events as the shared
    deck, nothing shuffled yet."""
    options = created.get("options") or {}
    cards, board = load_cards(options.get("cards")), load_board(options.get("board"))
    players = list(created["players"])
    deck = catalogue(cards)
    mercenaries = [c for c in deck if c["kind"] == "mercenary"]
    reserve = dict(board["reserve"])
    reserve["rubies"] -= board["chest_rubies"] * len(players)
    return {
        **platform_state("for_a_crown", created),
        "players": [{"name": name, "family": board["families"][seat], "rubies": board["chest_rubies"], "coins": 0,
                     "heirloom": "held", "bandits": 0, "out": False} for seat, name in enumerate(players)],
        "cards": deck,
        "board": {k: board[k] for k in ("gallery", "die", "starting_coins", "heirloom_rubies")},
        "provisional": {"cards": cards["provisional"], "board": board["provisional"]},
        "reserve": reserve,
        "gallery": [None] * board["gallery"]["spaces"],
        "stacks": [[c["id"] for c in mercenaries if c["level"] == 1 and c["effects"] == effects]
                   for effects in _distinct(c["effects"] for c in mercenaries if c["level"] == 1)],
        "decks": {str(level): [c["id"] for c in mercenaries if c["level"] == level] for level in range(2, 6)},
        "face_up": {str(level): [] for level in range(2, 6)},
        "costs": (list(board["costs"]) + [None] * 5)[:5],
        "zero_tiles": board["zero_tiles"],
        "shared": [c["id"] for c in deck if c["kind"] == "event" and c["starting"]],
        "revealed": [],
        "event_stack": [c["id"] for c in deck if c["kind"] == "event" and not c["starting"]],
        "sleeves": {},  # card id -> the seat that recruited it
        "seen": {},  # a top-of-deck recruit not yet revealed: card id -> the one seat that saw it
        "round": 0,
        "phase": "setup",
        "order": [],  # this recruitment's seats, most influential first
        "recruits": 0,  # how many of them have recruited
        "passes": 0,  # recruitment phases left this round (2 in round 1)
        "steps": [],  # what is still to be resolved, first first; some wait for a seat's decision
        "out_this_round": False,
    }


def _distinct(items) -> list:
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def copy_state(state: dict) -> dict:
    """A working copy deep enough for the rules to evolve without touching the original; the card list, the board
    and the provisional facts, which never change, are shared."""
    copy = dict(state)
    copy["players"] = [dict(p) for p in state["players"]]
    copy["steps"] = [dict(s) for s in state["steps"]]
    for key in ("reserve", "sleeves", "seen"):
        copy[key] = dict(state[key])
    for key in ("decks", "face_up"):
        copy[key] = {level: list(cards) for level, cards in state[key].items()}
    copy["stacks"] = [list(s) for s in state["stacks"]]
    for key in ("winners", "gallery", "costs", "shared", "revealed", "event_stack", "order"):
        copy[key] = list(state[key])
    return copy


def influence(state: dict) -> list[int]:
    """The seats whose Portraits are in the Gallery, most influential (rightmost) first."""
    return [seat for seat in reversed(state["gallery"]) if seat is not None]


def in_play(state: dict) -> list[int]:
    return [seat for seat, p in enumerate(state["players"]) if not p["out"]]


def section(state: dict, seat: int) -> int:
    """The Gallery section (0 left, 1 middle, 2 right) of a seat's Portrait."""
    space = state["gallery"].index(seat)
    return next(i for i, (first, last) in enumerate(state["board"]["gallery"]["sections"]) if first <= space <= last)


def next_free(state: dict, seat: int, step: int) -> int | None:
    """The next free Gallery space from a Portrait, leftwards (step -1) or rightwards (+1), or None."""
    gallery = state["gallery"]
    space = gallery.index(seat) + step
    while 0 <= space < len(gallery):
        if gallery[space] is None:
            return space
        space += step
    return None


def cost(state: dict, level: int) -> int | None:
    """The recruitment cost under a level's column, or None where no tile lies."""
    return state["costs"][level - 1]
