"""What each viewer sees of a Korona match, its events as a viewer may see them, and its summary for match lists."""
from __future__ import annotations

from domain.events import counted, redacts, sealed, without

from . import interactive
from .actions import final_scores
from .cards import card
from .events import CardGiven, CardsDealt, CardsDrawn, DeckShuffled
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


redacts(DeckShuffled)(sealed)


@redacts(CardsDealt, CardsDrawn)
def _drawn(payload: dict, viewer) -> dict:
    """Cards drawn from the pile are seen by their seat only; the others see how many."""
    secret = payload.get("source", "pile") == "pile" and payload["seat"] != viewer
    return counted(payload) if secret else payload


@redacts(CardGiven)
def _given(payload: dict, viewer) -> dict:
    """A card given from a hand is seen by the giver and the receiver only."""
    secret = payload["zone"] == "hand" and viewer not in (payload["seat"], payload["to"])
    return without(payload, "card") if secret else payload


def summary(state: dict) -> dict:
    return {"players": [p["name"] for p in state["players"]], "status": state["status"],
            "current_seat": state["current"], "turn": state["turn"], "winner": state["winner"]}
