"""Race to 20: a small dice game written only inside the tests, to show a game plugs in (docs/ADDING_A_GAME.md).

Its rulebook (sections cited by the tests):
  1. Setup. The nine modifier cards (three each of +1, +2, +3) are shuffled face down; a first seat is chosen at
     random; each seat is dealt three cards, face down and seen only by their holder. The rest is the stock.
  2. Turn. Roll one six-sided die. Then you may play one modifier card from your hand; pass to bank the die plus
     the modifier as points. Your turn ends.
  3. Drawing. If you played a modifier, draw one card from the stock at the end of your turn, if it holds any.
  4. Winning. The first seat whose score reaches 20 wins at once.

Moves (exactly as GET /legal-moves lists them):
  {"type": "roll"}                roll the die (the only move at the start of a turn)
  {"type": "play", "card": id}    play that modifier card from your hand (at most one a turn)
  {"type": "pass"}                bank the points and end the turn (the default move for a stalled seat)
"""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.adjudication import timed_outcome
from domain.errors import IllegalMove
from domain.events import GameEvent, MatchFinished, counted, platform_state, sealed
from domain.games import Game
from domain.moves import StrictInteger
from domain.table import Table

DECK = [1, 2, 3] * 3  # card id -> its modifier: three each of +1, +2, +3
HAND, GOAL, DIE = 3, 20, 6


def new_state(created: dict) -> dict:
    """The state right after MatchCreated: seats taken, nothing dealt yet; a plain JSON-ready dict."""
    players = [{"name": name, "hand": [], "score": 0} for name in created["players"]]
    return {**platform_state("race_to_20", created), "players": players, "stock": [], "turn": 0, "phase": "setup",
            "die": None, "played": None}


# ---------------------------------------------------------------- events: payload, take-back role, evolve, sentence

def _name(p: dict, state: dict) -> str:
    return state["players"][p["seat"]]["name"]


class ModifiersShuffled(GameEvent):
    """The nine modifier cards were shuffled face down (a herald-fair-v1 shuffle)."""

    fields, undo = ("random",), "random"
    redact = staticmethod(sealed)  # no order is given away during play
    evolve = staticmethod(lambda state, p: state.update(stock=list(p["random"][0]["result"])))
    describe = staticmethod(lambda p, state, viewer: f"The {len(DECK)} modifier cards were shuffled face down.")


class FirstSeatChosen(GameEvent):
    """The seat that starts was chosen at random (a herald-fair-v1 choice)."""

    fields, undo = ("seat", "random"), "random"
    evolve = staticmethod(lambda state, p: state.update(current=p["seat"]))
    describe = staticmethod(lambda p, state, viewer: f"{_name(p, state)} goes first (chosen at random).")


class HandDealt(GameEvent):
    """A seat was dealt its secret hand of modifier cards from the stock."""

    fields, undo, verb = ("seat", "cards"), "random", "was dealt"

    @staticmethod
    def evolve(state, p):
        state["players"][p["seat"]]["hand"] += p["cards"]
        state["stock"] = state["stock"][len(p["cards"]):]

    @classmethod
    def describe(cls, p, state, viewer):
        count = len(p["cards"]) if "cards" in p else p["count"]
        cards = f": {', '.join(f'+{DECK[c]}' for c in p['cards'])}" if "cards" in p else ""
        return f"{_name(p, state)} {cls.verb} {count} modifier card{'s' if count != 1 else ''}{cards}."

    @staticmethod
    def redact(payload, viewer):
        """A seat's cards are seen by that seat only; the others see how many."""
        return payload if payload["seat"] == viewer else counted(payload)


class ModifierDrawn(HandDealt):
    """The seat drew a secret replacement for the modifier it played, from the stock."""

    undo, verb = "reveals", "drew"


class TurnStarted(GameEvent):
    """A seat's turn began; it must roll first."""

    fields, undo = ("seat",), "turn"
    evolve = staticmethod(lambda state, p: state.update(current=p["seat"], turn=state["turn"] + 1, phase="roll",
                                                        die=None, played=None))
    describe = staticmethod(lambda p, state, viewer: f"{_name(p, state)}'s turn {state['turn'] + 1} began.")


class DieRolled(GameEvent):
    """The seat rolled its die (a herald-fair-v1 roll)."""

    fields, undo = ("seat", "die", "random"), "random"
    evolve = staticmethod(lambda state, p: state.update(die=p["die"], phase="modify"))
    describe = staticmethod(lambda p, state, viewer: f"{_name(p, state)} rolled a {p['die']}.")


class ModifierPlayed(GameEvent):
    """The seat played one modifier card from its hand, face up, onto this turn's roll."""

    fields, undo = ("seat", "card", "value"), "action-start"
    describe = staticmethod(lambda p, state, viewer: f"{_name(p, state)} played a +{p['value']} modifier.")

    @staticmethod
    def evolve(state, p):
        state["players"][p["seat"]]["hand"].remove(p["card"])
        state["played"] = p["card"]


class PointsScored(GameEvent):
    """The seat banked its roll plus its modifier; its turn ends."""

    fields, undo = ("seat", "die", "modifier", "points", "score"), "turn"

    @staticmethod
    def evolve(state, p):
        state["players"][p["seat"]]["score"] = p["score"]
        state["phase"] = "scored"

    @staticmethod
    def describe(p, state, viewer):
        return f"{_name(p, state)} scored {p['points']} ({p['die']} + {p['modifier']}) and has {p['score']} points."


# ---------------------------------------------------------------- moves and decisions

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


def start(state: dict, rng) -> list[tuple[str, dict]]:
    """1. Setup: shuffle the nine modifiers, choose the first seat, deal three face down to each seat."""
    table = Table(state)
    table.emit(ModifiersShuffled, random=[rng.shuffle(list(range(len(DECK))))])
    pick = rng.choice(len(state["players"]))
    table.emit(FirstSeatChosen, seat=pick["result"], random=[pick])
    for seat in range(len(state["players"])):
        table.emit(HandDealt, seat=seat, cards=table.state["stock"][:HAND])
    table.emit(TurnStarted, seat=pick["result"])
    return table.events


def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events a legal move records; IllegalMove says why any other move is refused."""
    if move not in legal_moves(state, seat):
        raise IllegalMove(explain(state, seat))
    table = Table(state)
    if move["type"] == "roll":
        entry = rng.dice(DIE, 1)
        table.emit(DieRolled, seat=seat, die=entry["result"][0], random=[entry])
    elif move["type"] == "play":
        table.emit(ModifierPlayed, seat=seat, card=move["card"], value=DECK[move["card"]])
    else:  # 2. Turn (pass), 3. Drawing and 4. Winning
        modifier = DECK[state["played"]] if state["played"] is not None else 0
        score = state["players"][seat]["score"] + state["die"] + modifier
        table.emit(PointsScored, seat=seat, die=state["die"], modifier=modifier, points=state["die"] + modifier,
                   score=score)
        if score >= GOAL:
            table.emit(MatchFinished, reason=f"reached {GOAL}", winner=seat, winners=[seat],
                       scores=[p["score"] for p in table.state["players"]])
        else:
            if state["played"] is not None and state["stock"]:
                table.emit(ModifierDrawn, seat=seat, cards=state["stock"][:1])
            table.emit(TurnStarted, seat=(seat + 1) % len(state["players"]))
    return table.events


class MoveSchema(ma.Schema):
    """A Race to 20 move as POST /moves accepts it: roll, play a modifier card, or pass (bank the points)."""

    type = fields.String(required=True, validate=validate.OneOf(["roll", "play", "pass"]))
    card = StrictInteger(validate=validate.Range(min=0, max=len(DECK) - 1), metadata={"description": "a card id"})


# ---------------------------------------------------------------- what each viewer sees, and a referee's backup

def card(card_id: int) -> dict:
    return {"id": card_id, "value": DECK[card_id]}


def view(state: dict, viewer) -> dict:
    """A seat sees its own hand only; the referee every hand and the stock in order; a spectator no card."""
    players = [{"seat": seat, "name": p["name"], "score": p["score"], "hand_count": len(p["hand"]),
                **({"hand": [card(c) for c in p["hand"]]} if viewer in ("referee", seat) else {})}
               for seat, p in enumerate(state["players"])]
    shown = {"game": state["game"], "status": state["status"], "current_seat": state["current"],
             "awaiting_seat": awaiting(state), "turn": state["turn"], "phase": state["phase"], "die": state["die"],
             "played": None if state["played"] is None else card(state["played"]), "stock_count": len(state["stock"]),
             "winner": state["winner"], "winners": state["winners"], "players": players}
    if viewer == "referee":
        shown["stock"] = [card(c) for c in state["stock"]]
    return shown


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """If the undone span let a seat see stock cards, reshuffle the stock with a fresh nonce."""
    if not any(e["type"] == "ModifierDrawn" for e in span) or len(state["stock"]) < 2:
        return state, [], []
    entry = rng.shuffle(state["stock"])
    state["stock"] = list(entry["result"])
    return state, [{"zone": "stock", "cards": len(state["stock"])}], [entry]


GAME = Game(
    name="race_to_20", min_players=2, max_players=2,
    events=(ModifiersShuffled, FirstSeatChosen, HandDealt, TurnStarted, DieRolled, ModifierPlayed, PointsScored,
            ModifierDrawn),
    new_state=new_state, start=start, legal_moves=legal_moves, awaiting=awaiting, decide=decide, view=view,
    move_schema=MoveSchema,
    outcome=lambda p: timed_outcome(p, "scores", "points") or f"{max(p['scores'])} points, the first to reach {GOAL}",
    backup=backup,
)
