"""The working table every step of play (3-8) emits its events on: a state copy that records what it applies."""
from __future__ import annotations

from .evolve import evolve
from .state import copy_state


class Table:
    """A working copy of the state that records each event it applies, with the match's generator."""

    def __init__(self, state: dict, rng):
        self.state = copy_state(state)
        self.rng = rng
        self.events: list[tuple[str, dict]] = []

    def emit(self, type_: str, **payload) -> None:
        evolve(self.state, type_, payload)
        self.events.append((type_, payload))
