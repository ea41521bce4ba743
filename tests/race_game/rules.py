"""Race to 20's rules over a JSON-ready state: setup, moves, events, views, undo roles and the timeline."""
from __future__ import annotations

import copy

from domain import fair
from domain.errors import IllegalMove
from domain.table import Table

DECK = [1, 2, 3] * 3  # card id -> its modifier: three each of +1, +2, +3
HAND = 3
GOAL = 20
DIE = 6
SETUP = ("ModifiersShuffled", "FirstSeatChosen", "HandDealt")
NOTES = ("RefereeResolved", "DisputeOpened", "DisputeRuled", "UndoRequested", "UndoDeclined", "ClientSeedSet")


def card(card_id: int) -> dict:
    return {"id": card_id, "value": DECK[card_id]}


def new_state(created: dict) -> dict:
    """The state right after MatchCreated: seats taken, nothing dealt yet."""
    return {"game": created["game"], "players": [{"name": n, "hand": [], "score": 0} for n in created["players"]],
            "stock": [], "status": "seating" if created.get("await_client_seeds") else "active", "current": None,
            "turn": 0, "phase": "setup", "die": None, "played": None, "winner": None, "winners": []}


# ---------------------------------------------------------------- evolve

def _shuffled(state, p):
    state.update(stock=list(p["random"][0]["result"]), status="active")


def _dealt(state, p):
    state["players"][p["seat"]]["hand"] += p["cards"]
    state["stock"] = state["stock"][len(p["cards"]):]


def _turn_started(state, p):
    state.update(current=p["seat"], turn=state["turn"] + 1, phase="roll", die=None, played=None)


def _played(state, p):
    state["players"][p["seat"]]["hand"].remove(p["card"])
    state["played"] = p["card"]


def _finished(state, p):
    state.update(status="finished", phase="over", current=None, winner=p["winner"], winners=list(p["winners"]))


EVOLVE = {
    "ModifiersShuffled": _shuffled,
    "FirstSeatChosen": lambda state, p: state.update(current=p["seat"]),
    "HandDealt": _dealt,
    "TurnStarted": _turn_started,
    "DieRolled": lambda state, p: state.update(die=p["die"], phase="modify"),
    "ModifierPlayed": _played,
    "PointsScored": lambda state, p: (state["players"][p["seat"]].update(score=p["score"]),
                                      state.update(phase="scored")),
    "ModifierDrawn": _dealt,
    "MatchFinished": _finished,
}


def evolve(state: dict, type_: str, payload: dict) -> None:
    """Apply one event to the state, in place."""
    EVOLVE[type_](state, payload)


def _table(state: dict) -> Table:
    return Table(state, evolve, copy.deepcopy)


# ---------------------------------------------------------------- setup, moves, decide

def start(state: dict, rng) -> list[tuple[str, dict]]:
    """1. Setup: shuffle the nine modifiers, choose the first seat, deal three face down to each seat."""
    table = _table(state)
    table.emit("ModifiersShuffled", random=[rng.shuffle(list(range(len(DECK))))])
    pick = rng.choice(len(state["players"]))
    table.emit("FirstSeatChosen", seat=pick["result"], random=[pick])
    for seat in range(len(state["players"])):
        table.emit("HandDealt", seat=seat, cards=table.state["stock"][:HAND])
    table.emit("TurnStarted", seat=pick["result"])
    return table.events


def awaiting(state: dict) -> int | None:
    """The seat whose decision is pending: the current seat while the match is active."""
    return state["current"] if state["status"] == "active" and state["phase"] in ("roll", "modify") else None


def legal_moves(state: dict, seat: int) -> list[dict]:
    """2. Turn: roll; then play at most one modifier from your hand, and pass to bank the points."""
    if awaiting(state) != seat:
        return []
    if state["phase"] == "roll":
        return [{"type": "roll"}]
    plays = [] if state["played"] is not None else [{"type": "play", "card": c}
                                                    for c in sorted(state["players"][seat]["hand"])]
    return [*plays, {"type": "pass"}]


def explain(state: dict, seat: int) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is not under way"
    if state["current"] != seat:
        return f"it is {state['players'][state['current']]['name']}'s turn (seat {state['current']})"
    if state["phase"] == "roll":
        return "roll the die first"
    if state["played"] is not None:
        return "you have played a modifier this turn; pass to bank your points"
    return "play a modifier card from your hand or pass"


def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events a legal move records; IllegalMove says why any other move is refused."""
    if move not in legal_moves(state, seat):
        raise IllegalMove(explain(state, seat))
    table = _table(state)
    if move["type"] == "roll":
        entry = rng.dice(DIE, 1)
        table.emit("DieRolled", seat=seat, die=entry["result"][0], random=[entry])
    elif move["type"] == "play":
        table.emit("ModifierPlayed", seat=seat, card=move["card"], value=DECK[move["card"]])
    else:
        _bank(table, seat)
    return table.events


def _bank(table: Table, seat: int) -> None:
    """2. Turn (pass) and 3. Drawing and 4. Winning."""
    state = table.state
    modifier = DECK[state["played"]] if state["played"] is not None else 0
    score = state["players"][seat]["score"] + state["die"] + modifier
    table.emit("PointsScored", seat=seat, die=state["die"], modifier=modifier, points=state["die"] + modifier,
               score=score)
    if score >= GOAL:
        table.emit("MatchFinished", reason=f"reached {GOAL}", winner=seat, winners=[seat],
                   scores=[p["score"] for p in state["players"]])
        return
    if state["played"] is not None and state["stock"]:
        table.emit("ModifierDrawn", seat=seat, cards=state["stock"][:1])
    table.emit("TurnStarted", seat=(seat + 1) % len(state["players"]))


# ---------------------------------------------------------------- views and redaction

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


def redact(type_: str, payload: dict, viewer) -> dict:
    """An event as a viewer may see it during play: no other seat's cards, no stock order."""
    if viewer == "referee":
        return payload
    if type_ == "ModifiersShuffled":
        return {**payload, "random": [fair.sealed(entry) for entry in payload["random"]]}
    if type_ in ("HandDealt", "ModifierDrawn") and payload["seat"] != viewer:
        return {**{k: v for k, v in payload.items() if k != "cards"}, "count": len(payload["cards"])}
    return payload


def summary(state: dict) -> dict:
    return {"players": [p["name"] for p in state["players"]], "status": state["status"],
            "current_seat": state["current"], "turn": state["turn"], "winner": state["winner"]}


# ---------------------------------------------------------------- undo

def undo_class(type_: str, payload: dict) -> str:
    """What an event means for a take-back (domain/undo.py)."""
    if type_ == "ModifierPlayed":
        return "action-start"
    if type_ in SETUP or type_ == "DieRolled":
        return "random"
    if type_ == "ModifierDrawn":
        return "reveals"
    if type_ in NOTES:
        return "note"
    return "turn"


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """If the undone span let a seat see stock cards, reshuffle the stock with a fresh nonce."""
    if not any(e["type"] == "ModifierDrawn" for e in span) or len(state["stock"]) < 2:
        return state, [], []
    entry = rng.shuffle(state["stock"])
    state["stock"] = list(entry["result"])
    return state, [{"zone": "stock", "cards": len(state["stock"])}], [entry]


# ---------------------------------------------------------------- timeline

def describe(type_: str, p: dict, state: dict, viewer) -> str:
    """One plain English sentence for an event, from the payload as the viewer sees it and the state before it."""
    name = state["players"][p["seat"]]["name"] if "seat" in p else None
    if type_ == "ModifiersShuffled":
        return f"The {len(DECK)} modifier cards were shuffled face down."
    if type_ == "FirstSeatChosen":
        return f"{name} goes first (chosen at random)."
    if type_ in ("HandDealt", "ModifierDrawn"):
        verb = "was dealt" if type_ == "HandDealt" else "drew"
        count = len(p["cards"]) if "cards" in p else p["count"]
        cards = f": {', '.join(f'+{DECK[c]}' for c in p['cards'])}" if "cards" in p else ""
        return f"{name} {verb} {count} modifier card{'s' if count != 1 else ''}{cards}."
    if type_ == "TurnStarted":
        return f"{name}'s turn {state['turn'] + 1} began."
    if type_ == "DieRolled":
        return f"{name} rolled a {p['die']}."
    if type_ == "ModifierPlayed":
        return f"{name} played a +{p['value']} modifier."
    if type_ == "PointsScored":
        return f"{name} scored {p['points']} ({p['die']} + {p['modifier']}) and has {p['score']} points."
    if type_ == "MatchFinished":
        return f"{state['players'][p['winner']]['name']} reached {GOAL} points and won."
    raise KeyError(type_)
