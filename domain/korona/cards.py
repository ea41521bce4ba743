"""Korona's 90 cards: ids 0-89 in the order of cards.json, the same in every match."""
from __future__ import annotations

import json
from pathlib import Path

_DATA = json.loads((Path(__file__).parent / "data" / "cards.json").read_text())

BUILD = frozenset(entry["name"] for entry in _DATA["build"])
ACTION = tuple(entry["name"] for entry in _DATA["action"])
NAMES: tuple[str, ...] = tuple(
    entry["name"] for entry in _DATA["build"] + _DATA["action"] for _ in range(entry["count"])
)
DECK_SIZE = len(NAMES)

STACK_MAX = {"ruler": 2, "healer": 2, "stable": 3, "tower": 4, "field": 4}
ROLE_BASE = {"farmer": "field", "archer": "tower", "knight": "stable", "healer": "healer", "ruler": "ruler"}
JOKER_ROLES = tuple(ROLE_BASE)


FACES = tuple({"id": card_id, "name": name} for card_id, name in enumerate(NAMES))


def card(card_id: int, roles: dict | None = None) -> dict:
    """The public face of a card: id, name, and the role of a stacked Joker (shared: never mutate it)."""
    role = roles.get(str(card_id)) if roles else None
    return {**FACES[card_id], "role": role} if role else FACES[card_id]
