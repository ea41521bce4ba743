"""Race to 20's decisions: the setup, and the events each legal move records."""
from __future__ import annotations

import copy

from domain.errors import IllegalMove
from domain.events import MatchFinished
from domain.table import Table

from .events import (
    DieRolled,
    FirstSeatChosen,
    HandDealt,
    ModifierDrawn,
    ModifierPlayed,
    ModifiersShuffled,
    PointsScored,
    TurnStarted,
)
from .moves import explain, legal_moves
from .state import DECK, DIE, GOAL, HAND


def start(state: dict, rng) -> list[tuple[str, dict]]:
    """1. Setup: shuffle the nine modifiers, choose the first seat, deal three face down to each seat."""
    table = Table(state, copy.deepcopy)
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
    table = Table(state, copy.deepcopy)
    if move["type"] == "roll":
        entry = rng.dice(DIE, 1)
        table.emit(DieRolled, seat=seat, die=entry["result"][0], random=[entry])
    elif move["type"] == "play":
        table.emit(ModifierPlayed, seat=seat, card=move["card"], value=DECK[move["card"]])
    else:
        _bank(table, seat)
    return table.events


def _bank(table: Table, seat: int) -> None:
    """2. Turn (pass) and 3. Drawing and 4. Winning."""
    state = table.state
    modifier = DECK[state["played"]] if state["played"] is not None else 0
    score = state["players"][seat]["score"] + state["die"] + modifier
    table.emit(PointsScored, seat=seat, die=state["die"], modifier=modifier, points=state["die"] + modifier,
               score=score)
    if score >= GOAL:
        table.emit(MatchFinished, reason=f"reached {GOAL}", winner=seat, winners=[seat],
                   scores=[p["score"] for p in state["players"]])
        return
    if state["played"] is not None and state["stock"]:
        table.emit(ModifierDrawn, seat=seat, cards=state["stock"][:1])
    table.emit(TurnStarted, seat=(seat + 1) % len(state["players"]))
