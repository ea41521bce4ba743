"""How each Race to 20 event changes the state, in place."""
from __future__ import annotations

from domain.events import evolves

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


@evolves(ModifiersShuffled)
def _shuffled(state, p):
    state["stock"] = list(p["random"][0]["result"])


@evolves(FirstSeatChosen)
def _first(state, p):
    state["current"] = p["seat"]


@evolves(HandDealt, ModifierDrawn)
def _dealt(state, p):
    state["players"][p["seat"]]["hand"] += p["cards"]
    state["stock"] = state["stock"][len(p["cards"]):]


@evolves(TurnStarted)
def _turn_started(state, p):
    state.update(current=p["seat"], turn=state["turn"] + 1, phase="roll", die=None, played=None)


@evolves(DieRolled)
def _rolled(state, p):
    state.update(die=p["die"], phase="modify")


@evolves(ModifierPlayed)
def _played(state, p):
    state["players"][p["seat"]]["hand"].remove(p["card"])
    state["played"] = p["card"]


@evolves(PointsScored)
def _scored(state, p):
    state["players"][p["seat"]]["score"] = p["score"]
    state["phase"] = "scored"
