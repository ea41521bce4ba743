"""Korona's backups: what a referee's backup reshuffles (each event's role for a take-back is declared by its class
in events.py)."""
from __future__ import annotations


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: if the undone span revealed pile cards, reshuffle the pile with a fresh nonce."""
    revealed = any(e["type"] == "MarketRefilled" or (e["type"] == "CardsDrawn" and e["payload"]["source"] == "pile")
                   for e in span)
    if not revealed or len(state["pile"]) < 2:
        return state, [], []
    entry = rng.shuffle(state["pile"])
    state["pile"] = list(entry["result"])
    return state, [{"zone": "pile", "cards": len(state["pile"])}], [entry]
