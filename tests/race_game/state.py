"""Race to 20's state: a plain JSON-ready dict, evolved in place by events."""
from __future__ import annotations

from domain.events import platform_state

DECK = [1, 2, 3] * 3  # card id -> its modifier: three each of +1, +2, +3
HAND = 3
GOAL = 20
DIE = 6


def card(card_id: int) -> dict:
    return {"id": card_id, "value": DECK[card_id]}


def new_state(created: dict) -> dict:
    """The state right after MatchCreated: seats taken, nothing dealt yet."""
    return {**platform_state("race_to_20", created), "players": [{"name": n, "hand": [], "score": 0} for n in created["players"]],
            "stock": [], "turn": 0, "phase": "setup", "die": None, "played": None}
