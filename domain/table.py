"""The working table a game's rules emit events on: a copy of the state that records each event it applies."""
from __future__ import annotations

from collections.abc import Callable

from domain.events import GameEvent, evolve_event


class Table:
    """A working copy of the state, evolved by each event it records; `rng` is the match's generator, if the step
    draws."""

    def __init__(self, state: dict, copy: Callable, rng=None):
        self.state = copy(state)
        self.rng = rng
        self.events: list[tuple[str, dict]] = []

    def emit(self, event_class: type[GameEvent], /, **payload) -> None:
        """Record one event, as (its type, its payload), and evolve the table by it."""
        if not event_class.fits(payload):
            raise ValueError(f"{event_class.__name__} has the keys {event_class.fields} (optional "
                             f"{event_class.optional}), not {sorted(payload)}")
        self.state = evolve_event(self.state, event_class, payload)
        self.events.append((event_class.name, payload))
