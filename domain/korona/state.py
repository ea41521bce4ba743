"""Korona's match state: a plain JSON-ready dict, evolved in place by events."""
from __future__ import annotations

from domain.events import platform_state

HAND_LIMIT = 7
MAX_ACTIONS = 3
STARTING_HAND = 5
MARKET_SIZE = 3
PILE_DRAW = 2
EMPTY_HAND_PILE_DRAW = 5
EMPTY_HAND_MARKET_DRAWS = 2
EXTRA_DRAW_PILE = 2


def new_state(created: dict) -> dict:
    """The state right after MatchCreated: seats taken, nothing dealt yet."""
    return {
        **platform_state("korona", created),
        "players": [{"name": name, "hand": [], "area": []} for name in created["players"]],
        "roles": {},
        "pile": [],
        "market": [],
        "discard": [],
        "turn": 0,
        "phase": "setup",
        "empty_start": False,
        "market_draws": 0,
        "actions": 0,
        "steps": [],
        "transit": [[] for _ in created["players"]],
        "received": [[] for _ in created["players"]],
        "resolving": None,
    }


def copy_state(state: dict) -> dict:
    """A working copy deep enough for the rules to evolve without touching the original: what they never change in
    place (each player, the stacks, pile, market, discard pile, roles, the cards in transit; see evolve.py) is shared."""
    copy = dict(state)
    for key in ("players", "steps", "transit", "received"):
        copy[key] = list(state[key])
    return copy
