"""What each viewer sees of a Race to 20 match, its events as a viewer may see them, and its summary."""
from __future__ import annotations

from domain.events import counted, redacts, sealed

from .events import HandDealt, ModifierDrawn, ModifiersShuffled
from .moves import awaiting
from .state import card


def view(state: dict, viewer) -> dict:
    """A seat sees its own hand only; the referee every hand and the stock in order; a spectator no card."""
    players = []
    for seat, p in enumerate(state["players"]):
        shown = {"seat": seat, "name": p["name"], "score": p["score"], "hand_count": len(p["hand"])}
        if viewer in ("referee", seat):
            shown["hand"] = [card(c) for c in p["hand"]]
        players.append(shown)
    shown = {"game": state["game"], "status": state["status"], "current_seat": state["current"],
             "awaiting_seat": awaiting(state), "turn": state["turn"], "phase": state["phase"], "die": state["die"],
             "played": None if state["played"] is None else card(state["played"]), "stock_count": len(state["stock"]),
             "winner": state["winner"], "winners": state["winners"], "players": players}
    if viewer == "referee":
        shown["stock"] = [card(c) for c in state["stock"]]
    return shown


redacts(ModifiersShuffled)(sealed)


@redacts(HandDealt, ModifierDrawn)
def _drawn(payload: dict, viewer) -> dict:
    """A seat's cards are seen by that seat only; the others see how many."""
    return payload if payload["seat"] == viewer else counted(payload)


def summary(state: dict) -> dict:
    return {"players": [p["name"] for p in state["players"]], "status": state["status"],
            "current_seat": state["current"], "turn": state["turn"], "winner": state["winner"]}
