"""What each viewer sees of a Korona match, its events as a viewer may see them, and its summary for match lists."""
from __future__ import annotations

from domain import fair

from . import interactive
from .actions import final_scores
from .cards import card
from .moves import awaiting, legal_moves


def views(state: dict, viewers) -> dict:
    """Several viewers' views of one state, the parts everyone sees (and the scores) worked out once."""
    public = _public_view(state)
    pending = public["pending"]
    options = legal_moves(state, pending["seat"]) if pending else None
    return {viewer: _own_view(public, state, viewer, options) for viewer in viewers}


def view(state: dict, viewer) -> dict:
    """What a viewer sees: a seat its own hand, the referee everything, a spectator no hand."""
    return views(state, [viewer])[viewer]


def _public_view(state: dict) -> dict:
    roles = state["roles"]
    scores = final_scores(state)
    return {
        "game": "korona",
        "status": state["status"],
        "current_seat": state["current"],
        "awaiting_seat": awaiting(state),
        "turn": state["turn"],
        "phase": state["phase"],
        "actions_taken": state["actions"],
        "winner": state["winner"],
        "winners": state["winners"],
        "draw_pile_count": len(state["pile"]),
        "market": [card(c) for c in state["market"]],
        "discard_pile": [card(c) for c in state["discard"]],
        "players": [{"seat": seat, "name": p["name"], "hand_count": len(p["hand"]),
                     "play_area": [[card(c, roles) for c in stack] for stack in p["area"]], "score": scores[seat]}
                    for seat, p in enumerate(state["players"])],
        "in_transit": [[card(t["card"]) for t in waiting] for waiting in state["transit"]],
        "pending": interactive.pending(state),
    }


def _own_view(public: dict, state: dict, viewer, options: list | None) -> dict:
    """The public view plus what this viewer alone may see: its hand, its pending options; the referee all."""
    referee = viewer == "referee"
    shown = {**public, "players": [
        {**entry, "hand": [card(c) for c in state["players"][seat]["hand"]]} if referee or viewer == seat else entry
        for seat, entry in enumerate(public["players"])]}
    pending = public["pending"]
    if pending and viewer in ("referee", pending["seat"]):
        shown["pending"] = {**pending, "options": options}
    if referee:
        shown["draw_pile"] = [card(c) for c in state["pile"]]
    return shown


SECRET_DRAWS = ("CardsDealt", "CardsDrawn")


def redact(type_: str, payload: dict, viewer) -> dict:
    """An event as a viewer may see it during play: no other seat's secret cards, no pile order."""
    if viewer == "referee":
        return payload
    if type_ == "DeckShuffled":
        return {**payload, "random": [fair.sealed(entry) for entry in payload["random"]]}
    if type_ == "CardGiven" and payload["zone"] == "hand" and viewer not in (payload["seat"], payload["to"]):
        return {k: v for k, v in payload.items() if k != "card"}
    if type_ in SECRET_DRAWS and payload.get("source", "pile") == "pile" and payload["seat"] != viewer:
        hidden = {k: v for k, v in payload.items() if k != "cards"}
        hidden["count"] = len(payload["cards"])
        return hidden
    return payload


def summary(state: dict) -> dict:
    return {"players": [p["name"] for p in state["players"]], "status": state["status"],
            "current_seat": state["current"], "turn": state["turn"], "winner": state["winner"]}
