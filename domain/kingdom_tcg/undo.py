"""Kingdom TCG's backups: what a referee's backup reshuffles (each event's role for a take-back is declared by its
class in events.py)."""
from __future__ import annotations


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: each strategy deck a card was drawn from in the undone span, or whose top card the referee
    recorded as seen by mistake (face up to all, and back on top at the state), is shuffled again, so that the cards
    seen go back unknown (3.1 forbids reshuffling in play; a referee's correction is not play, RULINGS KT7)."""
    reshuffled, random = [], []
    for seat in sorted({e["payload"]["seat"] for e in span if _seen_from_deck(state, e)}):
        deck = state["players"][seat]["deck"]
        if len(deck) >= 2:
            entry = rng.shuffle(deck)
            state["players"][seat]["deck"] = list(entry["result"])
            reshuffled.append({"zone": f"{state['players'][seat]['name']}'s strategy deck", "cards": len(deck)})
            random.append(entry)
    return state, reshuffled, random


def _seen_from_deck(state: dict, event: dict) -> bool:
    payload = event["payload"]
    if event["type"] == "CardsDrawn":
        return bool(payload["count"])
    return event["type"] == "CardsDiscarded" and any(card in state["players"][payload["seat"]]["deck"]
                                                     for card in payload["cards"])
