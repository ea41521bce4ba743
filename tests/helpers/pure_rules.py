"""Driving one game's pure rules in tests, without the aggregate: fold events, decide a move, let the rules run."""
from __future__ import annotations

from domain.table import Table


class PureRules:
    """A game's decide module and copy function, with the fold every rules test uses."""

    def __init__(self, game, decide, copy_state):
        self.game, self.decide, self.copy_state = game, decide, copy_state

    def apply(self, state: dict, events) -> list[tuple[str, dict]]:
        """Evolve the state with these events, in place; returns them."""
        for kind, payload in events:
            self.game.evolve(state, kind, payload)
        return events

    def play(self, state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
        """Decide a move and evolve the state with its events; returns the events."""
        return self.apply(state, self.decide.decide(state, seat, move, rng))

    def run(self, state: dict, rng) -> list[tuple[str, dict]]:
        """Let the rules act alone from an arranged position until a seat must decide."""
        working = Table(state, self.copy_state, rng)
        self.decide.run(working)
        return self.apply(state, working.events)


def types(events) -> list[str]:
    return [kind for kind, _ in events]
