"""Race to 20's backup: what a referee's backup reshuffles."""
from __future__ import annotations


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """If the undone span let a seat see stock cards, reshuffle the stock with a fresh nonce."""
    if not any(e["type"] == "ModifierDrawn" for e in span) or len(state["stock"]) < 2:
        return state, [], []
    entry = rng.shuffle(state["stock"])
    state["stock"] = list(entry["result"])
    return state, [{"zone": "stock", "cards": len(state["stock"])}], [entry]
