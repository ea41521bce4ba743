"""What each viewer may see (4.1, 4.5, 8.3): the table, events with others' secrets hidden, and a summary."""
from __future__ import annotations

from domain.events import counted, redacts, sealed, without

from .data import RELIGIONS
from .events import (
    CardCommitted,
    CardDiscarded,
    CardsDrawn,
    CardTaken,
    DeckReshuffled,
    DeckShuffled,
    RandomCardDiscarded,
    ResponsePlaced,
)
from .moves import awaiting, legal_moves
from .state import SIDES, card, castles_on_map, humans, owned


def _hidden_card(state: dict, owner, card_id: int, visible: bool) -> dict:
    return {"owner": owner, **card(state, card_id)} if visible else {"owner": owner, "hidden": True}


def view(state: dict, viewer) -> dict:
    """What a viewer sees: a seat its own hand, the referee everything, a spectator only the public table."""
    referee = viewer == "referee"
    kingdoms = []
    for k, kingdom in enumerate(state["kingdoms"]):
        entry = {"kingdom": k, "seat": kingdom["seat"], "name": kingdom["name"], "religion": kingdom["religion"],
                 "colour": kingdom.get("colour"),  # absent from states folded before colours were read
                 "automated": kingdom["automated"], "hand_count": len(kingdom["hand"]), "bonus": kingdom["bonus"],
                 "castles": kingdom["castles"], "castles_in_supply": kingdom["supply"],
                 "castles_on_map": castles_on_map(state, k), "areas": owned(state, k),
                 "persistent": [card(state, c) for c in kingdom["persistent"]], "passed": kingdom["passed"]}
        if kingdom["seat"] is not None:
            entry["player"] = state["players"][k]
        if referee or (viewer == k and not kingdom["automated"]):
            entry["hand"] = [card(state, c) for c in kingdom["hand"]]
        if kingdom["automated"]:
            entry["army"] = [card(state, c) for c in kingdom["army"]]
            entry["responses"] = [card(state, c) for c in kingdom["queue"]]
        kingdoms.append(entry)
    areas = [{**state["map"]["areas"][a], **state["areas"][a]} for a in sorted(state["areas"], key=int)]
    shown = {
        "game": "crusader_kingdoms",
        "mode": state["mode"],
        "status": state["status"],
        "current_seat": state["current"],
        "awaiting_seat": awaiting(state),
        "turn": state["turn"],
        "phase": state["phase"],
        "winner": state["winner"],
        "winners": state["winners"],
        "result": state["result"],
        "players": [{"seat": k, "name": state["players"][k], "kingdom": state["kingdoms"][k]["name"],
                     "hand_count": len(state["kingdoms"][k]["hand"])} for k in humans(state)],
        "kingdoms": kingdoms,
        "map": {"name": state["map"]["name"], "provisional": state["map"]["provisional"], "areas": areas},
        "decks": {deck: {"draw_pile_count": len(state["piles"][deck]), "discard_count": len(state["discards"][deck]),
                         "removed": [card(state, c) for c in state["removed"][deck]]} for deck in RELIGIONS},
        "truces": state["truces"],
        "attack": None,
    }
    attack = state["attack"]
    if attack:
        shown["attack"] = {
            "attacker": attack["attacker"], "area": attack["area"], "defender": attack["defender"],
            "stage": attack["stage"], "extra_dice": attack["extra"], "flipped": attack["flipped"],
            "responders": attack["responders"], "dice": attack["dice"],
            "leaders": [{"seat": o, "side": side, "points": n} for o, side, _, n in attack["leaders"]],
            **{side: [_hidden_card(state, o, c, attack["revealed"] or referee or viewer == o
                                   or state["kingdoms"][o]["automated"])
                      for o, c in attack[side]] for side in SIDES},
        }
    waiting = awaiting(state)
    if waiting is not None:
        pending = {"seat": waiting, "stage": attack["stage"] if attack else "action"}
        if viewer in ("referee", waiting):
            pending["options"] = legal_moves(state, waiting)
        shown["pending"] = pending
    if referee:
        shown["draw_piles"] = {deck: [card(state, c) for c in state["piles"][deck]] for deck in RELIGIONS}
        shown["discard_piles"] = {deck: [card(state, c) for c in state["discards"][deck]] for deck in RELIGIONS}
    return shown


redacts(DeckShuffled, DeckReshuffled)(sealed)


@redacts(CardsDrawn)
def _drawn(payload: dict, viewer) -> dict:
    """A kingdom's draw is seen by its seat only; the others see how many (4.1)."""
    return payload if payload["seat"] == viewer else counted(payload)


@redacts(CardCommitted, ResponsePlaced, CardDiscarded, RandomCardDiscarded)
def _face_down(payload: dict, viewer) -> dict:
    """A card put or discarded face down is seen by its seat only."""
    return payload if payload["seat"] == viewer else without(payload, "card")


@redacts(CardTaken)
def _taken(payload: dict, viewer) -> dict:
    """A card taken from a hand is seen by the taker and the kingdom it was taken from."""
    return payload if viewer in (payload["seat"], payload["from"]) else without(payload, "card")


def summary(state: dict) -> dict:
    return {"players": list(state["players"]), "status": state["status"], "current_seat": state["current"],
            "turn": state["turn"], "winner": state["winner"]}
