"""Kingdom TCG's backups: what a referee's backup reshuffles (each event's role for a take-back is declared by its
class in events.py)."""
from __future__ import annotations


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: each strategy deck a card was drawn from in the undone span is shuffled again, so that the
    cards seen go back unknown (3.1 forbids reshuffling in play; a referee's correction is not play, RULINGS K7)."""
    reshuffled, random = [], []
    for seat in sorted({e["payload"]["seat"] for e in span if e["type"] == "CardsDrawn" and e["payload"]["count"]}):
        deck = state["players"][seat]["deck"]
        if len(deck) >= 2:
            entry = rng.shuffle(deck)
            state["players"][seat]["deck"] = list(entry["result"])
            reshuffled.append({"zone": f"{state['players'][seat]['name']}'s strategy deck", "cards": len(deck)})
            random.append(entry)
    return state, reshuffled, random
