"""The working table a game's rules emit events on: a copy of the state that records each event it applies."""
from __future__ import annotations

from collections.abc import Callable


class Table:
    """A working copy of the state, evolved by each event it records; `rng` is the match's generator, if the step
    draws."""

    def __init__(self, state: dict, evolve: Callable, copy: Callable, rng=None):
        self.state = copy(state)
        self.evolve = evolve
        self.rng = rng
        self.events: list[tuple[str, dict]] = []

    def emit(self, type_: str, **payload) -> None:
        self.evolve(self.state, type_, payload)
        self.events.append((type_, payload))
