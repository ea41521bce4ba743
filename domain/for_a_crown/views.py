"""What each viewer sees of a For a Crown match: chests only one's own (the referee all; everyone's once the
match is over, when they are opened), a top-of-deck recruit only
its recruiter's until revealed, no deck's order; events as a viewer may see them; the summary for match lists."""
from __future__ import annotations

from domain.events import redacts, sealed, without

from .events import EventsShuffled, LevelShuffled, MercenaryRecruited, RoundEnded, SharedDeckShuffled
from .moves import awaiting, legal_moves
from .state import cost


def _card(state: dict, card_id: int) -> dict:
    return state["cards"][card_id]


def view(state: dict, viewer) -> dict:
    """The table as a viewer sees it (the For a Crown view of the issue's HTTP section)."""
    referee = viewer == "referee"
    players = []
    for seat, p in enumerate(state["players"]):
        entry = {"seat": seat, "name": p["name"], "family": p["family"], "bandits": p["bandits"],
                 "heirloom": p["heirloom"], "out": p["out"]}
        if referee or viewer == seat or state["status"] == "finished":  # at the end the chests are opened
            entry["chest"] = {"rubies": p["rubies"], "coins": p["coins"]}
        if referee or viewer == seat:
            entry["unrevealed_recruits"] = [_card(state, int(c)) for c, s in state["seen"].items() if s == seat]
        players.append(entry)
    waiting = awaiting(state)
    sections = state["board"]["gallery"]["sections"]
    shown = {
        "game": "for_a_crown",
        "status": state["status"],
        "round": state["round"],
        "phase": state["phase"],
        "current_seat": state["current"],
        "awaiting_seat": waiting,
        "turn": state["round"],
        "winner": state["winner"],
        "winners": state["winners"],
        "provisional": state["provisional"],
        "gallery": {"spaces": list(state["gallery"]), "sections": [list(s) for s in sections]},
        "reserve": dict(state["reserve"]),
        "royal_square": [{"level": 1, "cost": cost(state, 1), "face_up": [_card(state, s[0]) for s in state["stacks"]
                                                                          if s],
                          "stack_counts": [len(s) for s in state["stacks"]], "deck_count": 0}]
        + [{"level": level, "cost": cost(state, level),
            "face_up": [_card(state, c) for c in state["face_up"][str(level)]],
            "deck_count": len(state["decks"][str(level)])} for level in range(2, 6)],
        "shared_deck_count": len(state["shared"]),
        "revealed": [{**_card(state, c), "seat": state["sleeves"].get(str(c))} for c in state["revealed"]],
        "event_stack_count": len(state["event_stack"]),
        "players": players,
        "pending": None,
    }
    if state["steps"] and waiting is not None:
        pending = dict(state["steps"][0])
        if viewer in ("referee", waiting):
            pending["options"] = legal_moves(state, waiting)
        elif pending["kind"] == "pay":
            del pending["card"]  # perhaps a top-of-deck recruit, seen by its recruiter alone
        shown["pending"] = pending
    if referee:
        shown["shared_deck"] = [_card(state, c) for c in state["shared"]]
        shown["event_stack"] = [_card(state, c) for c in state["event_stack"]]
        shown["decks"] = {level: [_card(state, c) for c in deck] for level, deck in state["decks"].items()}
    return shown


redacts(LevelShuffled, EventsShuffled, SharedDeckShuffled)(sealed)


@redacts(MercenaryRecruited)
def _recruited(payload: dict, viewer) -> dict:
    """A card taken from the top of a deck is seen by its recruiter alone until it is revealed."""
    return without(payload, "card") if payload["source"] == "deck" and viewer != payload["seat"] else payload


@redacts(RoundEnded)
def _round_ended(payload: dict, viewer) -> dict:
    """The new Event goes on the shared deck unseen."""
    return without(payload, "event")


def summary(state: dict) -> dict:
    return {"players": [p["name"] for p in state["players"]], "status": state["status"],
            "current_seat": awaiting(state), "turn": state["round"], "winner": state["winner"]}
