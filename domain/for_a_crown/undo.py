"""For a Crown's backups: what a referee's backup reshuffles (each event's role for a take-back is declared by its
class in events.py)."""
from __future__ import annotations


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: reshuffle the shared deck if the undone span revealed its cards, the Event stack if it
    revealed an Event that a round's end had moved from the stack to the shared deck unseen (back on the stack's top
    at the state, RULINGS U3), and each level's deck whose cards it turned up or let a recruiter see."""
    reshuffled, random = [], []

    def shuffled(zone: str, cards: list) -> list:
        if len(cards) < 2:
            return cards
        entry = rng.shuffle(cards)
        reshuffled.append({"zone": zone, "cards": len(cards)})
        random.append(entry)
        return list(entry["result"])

    revealed = {e["payload"]["card"] for e in span if e["type"] == "CardRevealed"}
    if revealed:
        state["shared"] = shuffled("shared deck", state["shared"])
    if revealed & set(state["event_stack"]):
        state["event_stack"] = shuffled("Event stack", state["event_stack"])
    for level in sorted({e["payload"]["level"] for e in span if e["type"] == "MercenariesTurnedUp"
                         or (e["type"] == "MercenaryRecruited" and e["payload"]["source"] == "deck")}):
        state["decks"][str(level)] = shuffled(f"level {level} deck", state["decks"][str(level)])
    return state, reshuffled, random
