"""Korona's take-backs and backups: what each event means for an undo, and what a backup reshuffles."""
from __future__ import annotations

RESPONSES = ("ShieldPlayed", "ShieldCountered", "ResponsePassed", "ActionCancelled", "ActionTookEffect", "CardGiven",
             "CardTaken", "CardHandedOver", "ReceivedCardPlaced", "StackStolen", "StackPassed", "CardPassed",
             "JokerRepositioned", "JokerKept")
SETUP = ("DeckShuffled", "FirstSeatChosen", "CardsDealt", "MarketRevealed")


def undo_class(type_: str, payload: dict) -> str:
    """What an event means for a take-back (domain/undo.py)."""
    if type_ in ("CardPlaced", "ActionCardPlayed") or (type_ == "CardDiscarded" and payload["reason"] == "action"):
        return "action-start"
    if type_ == "CardMoved":
        return "action"
    if type_ == "TurnStarted" or (type_ == "CardsDrawn" and payload["step"] == "draw"):
        return "draw"
    if type_ in ("CardsDrawn", "MarketRefilled"):
        return "reveals"
    if type_ in RESPONSES:
        return "response"
    if type_ in SETUP:
        return "random"
    if type_ in ("RefereeResolved", "DisputeOpened", "DisputeRuled", "UndoRequested", "UndoDeclined", "ClientSeedSet"):
        return "note"
    return "turn"


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: if the undone span revealed pile cards, reshuffle the pile with a fresh nonce."""
    revealed = any(e["type"] == "MarketRefilled" or (e["type"] == "CardsDrawn" and e["payload"]["source"] == "pile")
                   for e in span)
    if not revealed or len(state["pile"]) < 2:
        return state, [], []
    entry = rng.shuffle(state["pile"])
    state["pile"] = list(entry["result"])
    return state, [{"zone": "pile", "cards": len(state["pile"])}], [entry]
