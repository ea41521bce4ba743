"""For a Crown's backups: what a referee's backup reshuffles (each event's role for a take-back is declared by its
class in events.py)."""
from __future__ import annotations


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: reshuffle the shared deck if the undone span revealed its cards, and each level's deck
    whose cards it turned up or let a recruiter see."""
    reshuffled, random = [], []
    if any(e["type"] == "CardRevealed" for e in span) and len(state["shared"]) >= 2:
        entry = rng.shuffle(state["shared"])
        state["shared"] = list(entry["result"])
        reshuffled.append({"zone": "shared deck", "cards": len(state["shared"])})
        random.append(entry)
    levels = sorted({e["payload"]["level"] for e in span if e["type"] == "MercenariesTurnedUp"
                     or (e["type"] == "MercenaryRecruited" and e["payload"]["source"] == "deck")})
    for level in levels:
        deck = state["decks"][str(level)]
        if len(deck) >= 2:
            entry = rng.shuffle(deck)
            state["decks"][str(level)] = list(entry["result"])
            reshuffled.append({"zone": f"level {level} deck", "cards": len(deck)})
            random.append(entry)
    return state, reshuffled, random
