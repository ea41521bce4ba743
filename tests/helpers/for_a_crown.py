"""Helpers for the For a Crown tests: pure-rules tables, a scripted magic die and arranged positions."""
from __future__ import annotations

from domain import fair
from domain.for_a_crown import GAME as FOR_A_CROWN
from domain.for_a_crown import decide
from domain.for_a_crown.state import copy_state, new_state
from tests.helpers.pure_rules import PureRules, types  # noqa: F401 (types for the tests)

SEED = b"for-a-crown-test-seed-0000000001"
RABBIT, PENGUIN, MONKEY, FLAMINGO, CROC = 0, 1, 2, 3, 4  # seats, in the board's family order


RULES = PureRules(FOR_A_CROWN, decide, copy_state)
apply, play, run = RULES.apply, RULES.play, RULES.run


def table(players: int, rng=None) -> tuple[dict, fair.Generator]:
    """A started state of the pure rules (round 1, the first recruitment), and the generator that started it."""
    created = {"players": [f"P{i}" for i in range(players)], "options": {}, "await_client_seeds": False}
    state = new_state(created)
    rng = rng or fair.Generator(SEED, "m", ["c"] * players)
    for kind, payload in decide.start(state, rng):
        FOR_A_CROWN.evolve(state, kind, payload)
    return state, rng


def card_named(state: dict, name: str) -> int:
    return next(c["id"] for c in state["cards"] if c["name"] == name)


def place_portraits(state: dict, spaces: dict[int, int]) -> None:
    """Put each seat's Portrait on the given Gallery space (the others emptied)."""
    state["gallery"] = [None] * len(state["gallery"])
    for seat, space in spaces.items():
        state["gallery"][space] = seat


def reveal_next(state: dict, *cards: int, sleeves: dict | None = None) -> None:
    """Arrange the reveal phase with these cards on top of the shared deck (recruited by `sleeves`)."""
    state.update(phase="reveal", current=None, steps=[{"kind": "reveal"}])
    state["shared"] = [*cards, *[c for c in state["shared"] if c not in cards]]
    for card, seat in (sleeves or {}).items():
        state["sleeves"][str(card)] = seat


class Die(fair.Generator):
    """A herald-fair-v1 generator whose magic die shows the faces a test prints, in order."""

    def __init__(self, *faces: str):
        super().__init__(SEED, "scripted", ["c"])
        self.faces = list(faces)

    def choice(self, n):
        entry = super().choice(n)
        if self.faces:
            entry["result"] = ["ruby", "bandit", "steal_ruby", "die", "coin", "portrait"].index(self.faces.pop(0))
        return entry
