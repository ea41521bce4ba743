"""Crusader Kingdoms' backups: what a referee's backup reshuffles (each event's role for a take-back is declared by its
class in events.py)."""
from __future__ import annotations

from .data import RELIGIONS
from .state import muslims


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: reshuffle each draw pile (and the Muslims' face-down cards) the undone span revealed."""
    reshuffled, random = [], []
    drawn = {state["kingdoms"][e["payload"]["seat"]]["religion"] for e in span if e["type"] == "CardsDrawn"}
    for deck in RELIGIONS:
        if deck in drawn and len(state["piles"][deck]) >= 2:
            entry = rng.shuffle(state["piles"][deck])
            state["piles"][deck] = list(entry["result"])
            reshuffled.append({"zone": f"{deck} draw pile", "cards": len(entry["result"])})
            random.append(entry)
    m = muslims(state)
    if m is not None and any(e["type"] == "MuslimCardRevealed" for e in span):
        hand = state["kingdoms"][m]["hand"]
        if len(hand) >= 2:
            entry = rng.shuffle(hand)
            state["kingdoms"][m]["hand"] = list(entry["result"])
            reshuffled.append({"zone": "Muslim cards", "cards": len(hand)})
            random.append(entry)
    return state, reshuffled, random
