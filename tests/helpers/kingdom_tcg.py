"""Helpers for the Kingdom TCG tests: pure-rules tables, arranged hands, battlefields and battles, scripted dice."""
from __future__ import annotations

from domain import fair
from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.kingdom_tcg import decide
from domain.kingdom_tcg.state import copy_state, new_state, turn_steps
from tests.helpers.pure_rules import PureRules, types  # noqa: F401 (types for the tests)

SEED = b"kingdom-tcg-test-seed-0000000001"
FULL = {"type": "control", "full": True}  # the setting offered last whenever a seat decides (RULINGS KT3)


RULES = PureRules(KINGDOM_TCG, decide, copy_state)
apply, play, run = RULES.apply, RULES.play, RULES.run


def table(options: dict | None = None, rng=None) -> tuple[dict, fair.Generator]:
    """A started state of the pure rules (turn 1), and the generator that started it."""
    state = new_state({"players": ["Ana", "Bo"], "options": options or {}, "await_client_seeds": False})
    rng = rng or fair.Generator(SEED, "m", ["a", "b"])
    apply(state, decide.start(state, rng))
    return state, rng


def card(state: dict, seat: int, name: str) -> int:
    """A strategy card of the seat by name (its first copy not yet in the hand)."""
    player = state["players"][seat]
    return next(c for c in player["deck"] + player["used"] if state["cards"][c]["name"] == name)


def hand(state: dict, seat: int, *cards: int) -> None:
    """Make these cards the seat's whole hand; the others go back to the bottom of its deck."""
    player = state["players"][seat]
    player["deck"] = [c for c in player["deck"] + player["hand"] + player["used"] if c not in cards]
    player["used"] = []
    player["hand"] = list(cards)


def rules(state: dict, card_id: int, **changes) -> int:
    """Give a card the rules a test needs (its turn, stages, windows, effect)."""
    state["cards"][card_id].update(changes)
    return card_id


def troop(state: dict, seat: int, level: int) -> int:
    """A troop of the seat's combatant deck of that level."""
    return next(c for c in state["players"][seat]["reserve"] if state["combatants"][c]["level"] == level)


def place(state: dict, combatant: int, space) -> int:
    """Put a combatant on the battlefield (out of its owner's combatant deck)."""
    owner = state["players"][state["combatants"][combatant]["owner"]]
    if combatant in owner["reserve"]:
        owner["reserve"].remove(combatant)
    state["combatants"][combatant]["at"] = list(space)
    return combatant


def at_stage(state: dict, seat: int, stage: str) -> None:
    """Jump to the start of a stage of the seat's turn (the steps before it taken as done)."""
    steps = turn_steps()
    first = next(i for i, s in enumerate(steps) if s.get("stage") == stage)
    state.update(current=seat, stage=stage, steps=steps[first + 1:], window=None, combat=None)


def throw_table(level: int = 2, distance: int = 2):
    """Seat 0's movement stage: its level-2 troop on [2, 2]; seat 1's troops at 2 along the row, 1 along the row,
    and off the cross; seat 0 holds a Throw card of minimum level `level` and the distance given."""
    state, rng = table()
    empty_hands(state)
    throw = next(c for c in state["players"][0]["deck"] if state["cards"][c]["category"] == "Throw")
    rules(state, throw, turn="own", stages=["summoning", "movement"], windows=["after:stage_start"],
          effect={"kind": "throw", "distance": distance, "die": "heavy"}, level=level)
    hand(state, 0, throw)
    thrower = place(state, troop(state, 0, 2), [2, 2])
    weak = place(state, troop(state, 0, 1), [5, 0])
    far = place(state, troop(state, 1, 1), [2, 4])
    near = place(state, troop(state, 1, 1), [2, 3])
    diagonal = place(state, troop(state, 1, 2), [3, 4])
    at_stage(state, 0, "movement")
    state["steps"].insert(0, {"trigger": "stage_start", "at": "before", "stage": "movement"})
    return state, rng, throw, {"thrower": thrower, "weak": weak, "far": far, "near": near, "diagonal": diagonal}


def strategy(state: dict, seat: int, n: int) -> list[int]:
    """n strategy cards of distinct names from the seat's deck (no Throw card: 3.4 keeps those out of battle)."""
    seen, picked = set(), []
    for c in state["players"][seat]["deck"]:
        if state["cards"][c]["name"] not in seen and state["cards"][c]["category"] != "Throw":
            seen.add(state["cards"][c]["name"])
            picked.append(c)
    return picked[:n]


def empty_hands(state: dict) -> None:
    for seat in (0, 1):
        hand(state, seat)


class Dice(fair.Generator):
    """A herald-fair-v1 generator whose choices (die faces, by index) are the ones a test prints, in order."""

    def __init__(self, *results: int):
        super().__init__(SEED, "scripted", ["a", "b"])
        self.results = list(results)

    def choice(self, n):
        entry = super().choice(n)
        if self.results:
            entry["result"] = self.results.pop(0)
        return entry


def onward(moves: list[dict]) -> dict:
    """The move that lets play go on at once: the last listed (pass, skip or a discard), leaving the setting aside."""
    return [move for move in moves if move["type"] != "control"][-1]
