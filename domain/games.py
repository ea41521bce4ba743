"""The games Herald referees, each a package under domain/ exposing the same functions."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """What the platform needs from a game: pure rules over a JSON-ready state."""

    name: str
    min_players: int
    max_players: int
    events: dict  # event name -> GameEvent subclass
    new_state: Callable  # (created payload) -> state
    start: Callable  # (state, rng) -> [(type, payload)]
    legal_moves: Callable  # (state, seat) -> [move]
    awaiting: Callable  # (state) -> the one seat whose decision is pending, or None
    decide: Callable  # (state, seat, move, rng) -> [(type, payload)]; raises IllegalMove
    evolve: Callable  # (state, type, payload) -> None, in place
    view: Callable  # (state, viewer) -> dict; viewer is a seat, "referee" or None
    redact: Callable  # (type, payload, viewer) -> payload as that viewer may see it
    summary: Callable  # (state) -> short public dict for match lists
    undo_class: Callable  # (type, payload) -> what an event means for a take-back (see domain/undo.py)
    backup: Callable  # (state, span events, rng) -> (state, reshuffled zones, random entries)
    describe: Callable  # (type, shown payload, state before, viewer) -> a plain English sentence for the timeline
    # its moves as POST /moves accepts them, each as legal_moves lists it: a marshmallow Schema class whose "type"
    # names the move; the service adds the platform's keys (expected_version, resolve_for, {"type": "default"})
    move_schema: type
    options: frozenset = frozenset()  # the options a match of this game may bring, each a JSON object
    # raised whenever a rules change can refuse a move the rules once allowed; recorded in MatchCreated as name/N
    rules_version: int = 1
    all_views: Callable | None = None  # (state, viewers) -> {viewer: view}, where rendering them together is cheaper

    @property
    def rules(self) -> str:
        """The rules version a match records in MatchCreated, e.g. korona/2."""
        return f"{self.name}/{self.rules_version}"

    def views(self, state: dict, viewers) -> dict:
        """Each viewer's view of one state."""
        if self.all_views:
            return self.all_views(state, viewers)
        return {viewer: self.view(state, viewer) for viewer in viewers}


def registry() -> dict[str, Game]:
    from domain.crusader_kingdoms import GAME as CRUSADER_KINGDOMS
    from domain.korona import GAME as KORONA

    return {KORONA.name: KORONA, CRUSADER_KINGDOMS.name: CRUSADER_KINGDOMS}


def __getattr__(name: str):
    """GAMES is built on first use, so that a game package may import this module first."""
    if name == "GAMES":
        globals()["GAMES"] = registry()
        return globals()["GAMES"]
    raise AttributeError(name)
