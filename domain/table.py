"""The working table a game's rules emit events on: a copy of the state that records each event it applies."""
from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy

from domain.events import GameEvent, evolve_event


class Emitted(list):
    """The (type, payload) of each event a table emitted, with the state the table began from (`origin`), the one
    they led it to (`state`) and each event's class (`classes`): a match recording them over that very origin adopts
    that state rather than evolve its own by the same events again."""

    __slots__ = ("classes", "origin", "state")


class Table:
    """A working copy of the state, evolved by each event it records; `copy` is the game's copy_state (a deep copy
    unless the game gives a faster one); `rng` is the match's generator, if the step draws."""

    def __init__(self, state: dict, copy: Callable = deepcopy, rng=None):
        self.state = copy(state)
        self.rng = rng
        self.events = Emitted()
        self.events.origin, self.events.state, self.events.classes = state, self.state, []

    def emit(self, event_class: type[GameEvent], /, **payload) -> None:
        """Record one event, as (its type, its payload), and evolve the table by it."""
        if not event_class.fits(payload):
            raise ValueError(f"{event_class.__name__} has the keys {event_class.fields} (optional "
                             f"{event_class.optional}), not {sorted(payload)}")
        self.state = self.events.state = evolve_event(self.state, event_class, payload)
        self.events.append((event_class.name, payload))
        self.events.classes.append(event_class)
