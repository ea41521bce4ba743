"""Crusader Kingdoms' take-backs and backups: what each event means for an undo, and what a backup reshuffles."""
from __future__ import annotations

from .data import RELIGIONS
from .state import muslims

SETUP = ("CardsRemoved", "DeckShuffled", "CastlesDeployed")
ACTION_STARTS = ("Passed", "CardDiscarded", "IncursionMade", "EventPlayed")


def undo_class(type_: str, payload: dict) -> str:
    """What an event means for a take-back (domain/undo.py)."""
    if type_ in ACTION_STARTS or (type_ == "AttackDeclared" and "army" not in payload and "event" not in payload):
        return "action-start"
    if type_ == "AttackDeclared" and "event" in payload:
        return "action"  # the attack an event card began: taken back with its EventPlayed
    if type_ in ("CardCommitted", "CommitClosed"):
        return "action"
    if type_ in ("DiceRolled", "RandomCardDiscarded", "CardTaken", "ArmyRolled", "DeckReshuffled", "IncursionMade",
                 *SETUP):
        return "random"
    if type_ in ("CardsDrawn", "MuslimCardRevealed", "CardsRevealed"):
        return "reveals"
    if type_ in ("ResponsePlaced", "ResponsesDone", "FlipsDone", "LeaderPointAdded", "LeaderDone", "MuslimResponded",
                 "ResponsesOpened"):
        return "response"
    if type_ in ("RefereeResolved", "DisputeOpened", "DisputeRuled", "UndoRequested", "UndoDeclined", "ClientSeedSet"):
        return "note"
    return "turn"


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
