"""The base of every match event, and the events every game shares."""
from __future__ import annotations

import copy

from eventsourcing.domain import Aggregate


class GameEvent(Aggregate.Event):
    """An immutable record of one thing that happened: its public payload and its chain link."""

    payload: dict
    chain: str

    def apply(self, match) -> None:
        match.apply_event(type(self).__name__, self.payload, self.chain)


class SeedRevealed(GameEvent):
    """The match ended; its server seed is published so anyone can check every draw."""


class MatchFinished(GameEvent):
    """The match is over: its result, winners and final scores."""


class RefereeResolved(GameEvent):
    """The referee settled a stalled decision for a seat: the move it picked, or the rule's default."""


class ClientSeedSet(GameEvent):
    """A seat's client seed is fixed (posted by the seat, or generated when the referee starts the match)."""


class DisputeOpened(GameEvent):
    """A seat disputes the event at a version (a roll, a shuffle, a ruling)."""


class DisputeRuled(GameEvent):
    """The referee ruled on a dispute: upheld or rejected, why, and the remedy."""


class ActionsRetracted(GameEvent):
    """A seat took back its own latest action; the state returns to the version before it."""


class UndoRequested(GameEvent):
    """A seat asked the referee to back the match up to a version."""


class UndoDeclined(GameEvent):
    """The referee declined an undo request."""


class BackupPerformed(GameEvent):
    """The referee backed the match up to a version; hidden zones the span revealed were reshuffled."""


PLATFORM_EVENTS = {cls.__name__: cls for cls in (SeedRevealed, MatchFinished, RefereeResolved, ClientSeedSet,
                                                  DisputeOpened, DisputeRuled, ActionsRetracted, UndoRequested,
                                                  UndoDeclined, BackupPerformed)}
# platform events that leave the game state as it is
BOOKKEEPING = ("SeedRevealed", "RefereeResolved", "ClientSeedSet", "DisputeOpened", "DisputeRuled", "UndoRequested",
               "UndoDeclined")
# platform events that put the game state back as their payload records it
RESTORING = ("ActionsRetracted", "BackupPerformed")


def evolve_state(game, state: dict, type_: str, payload: dict) -> dict:
    """The game state after one event, for every event type; the state is evolved in place where it can be."""
    if type_ in RESTORING:
        return copy.deepcopy(payload["state"])
    if type_ not in BOOKKEEPING:
        game.evolve(state, type_, payload)
    return state
