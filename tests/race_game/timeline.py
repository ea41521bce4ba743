"""Plain English sentences for Race to 20's events, from the payload as the viewer sees it and the state before it."""
from __future__ import annotations

from domain.adjudication import timed_outcome
from domain.events import describes

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
from .state import DECK, GOAL


def _name(p: dict, state: dict) -> str:
    return state["players"][p["seat"]]["name"]


@describes(ModifiersShuffled)
def _shuffled(p, state, viewer):
    return f"The {len(DECK)} modifier cards were shuffled face down."


@describes(FirstSeatChosen)
def _first(p, state, viewer):
    return f"{_name(p, state)} goes first (chosen at random)."


def _cards(p: dict, state: dict, verb: str) -> str:
    count = len(p["cards"]) if "cards" in p else p["count"]
    cards = f": {', '.join(f'+{DECK[c]}' for c in p['cards'])}" if "cards" in p else ""
    return f"{_name(p, state)} {verb} {count} modifier card{'s' if count != 1 else ''}{cards}."


@describes(HandDealt)
def _dealt(p, state, viewer):
    return _cards(p, state, "was dealt")


@describes(ModifierDrawn)
def _drawn(p, state, viewer):
    return _cards(p, state, "drew")


@describes(TurnStarted)
def _turn_started(p, state, viewer):
    return f"{_name(p, state)}'s turn {state['turn'] + 1} began."


@describes(DieRolled)
def _rolled(p, state, viewer):
    return f"{_name(p, state)} rolled a {p['die']}."


@describes(ModifierPlayed)
def _played(p, state, viewer):
    return f"{_name(p, state)} played a +{p['value']} modifier."


@describes(PointsScored)
def _scored(p, state, viewer):
    return f"{_name(p, state)} scored {p['points']} ({p['die']} + {p['modifier']}) and has {p['score']} points."


def outcome(p: dict) -> str:
    """How a match ended, in words, from MatchFinished's payload."""
    return timed_outcome(p, "scores", "points") or f"{max(p['scores'])} points, the first to reach {GOAL}"
