"""The base of every match event, and the events every game shares."""
from __future__ import annotations

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


PLATFORM_EVENTS = {cls.__name__: cls for cls in (SeedRevealed, MatchFinished, RefereeResolved, ClientSeedSet,
                                                  DisputeOpened, DisputeRuled)}
# platform events that leave the game state as it is
BOOKKEEPING = ("SeedRevealed", "RefereeResolved", "ClientSeedSet", "DisputeOpened", "DisputeRuled")
