"""Ending a match whose position is scored now: time was called in a tournament round ("time"), or a seat's clock ran
out under on_timeout "lose" ("timeout"). Each game says how it scores a position (Game.adjudicate); what a forfeit and
a tie mean is the platform's (docs/RULINGS.md, P1 and P2)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from domain.timeline import _together

if TYPE_CHECKING:
    from domain.games import Game

REASONS = ("time", "timeout")


def adjudicated(game: Game, state: dict, reason: str, forfeited: int | None = None) -> dict:
    """The MatchFinished payload ending a match whose position is scored now: the game's numbers for each seat (its
    details, ranked_by among them), and as winners the seats best on them, compared detail by detail. A tie at the top
    shares the win, every seat tied is a draw (no winners). The `forfeited` seat, whose clock ran out, is not scored:
    its numbers are None, so that a tournament places it last (domain/tournaments/desk.py placements_of). A game
    without adjudicate, or a match still seating, has no numbers: every seat ties."""
    if reason not in REASONS or (reason == "timeout") != (forfeited is not None):
        raise ValueError(f"adjudicated: reason {reason!r} with forfeited {forfeited!r}")
    seats = range(len(state["players"]))
    scored = game.adjudicate(state) if game.adjudicate and state["status"] != "seating" else {}
    details = {detail: [None if seat == forfeited else numbers[seat] for seat in seats]
               for detail, numbers in scored.items()}
    standing = {seat: _standing(details, seat) for seat in seats if seat != forfeited}
    best = max(standing.values(), default=None)
    winners = [seat for seat, rank in standing.items() if rank == best]
    if len(winners) == len(seats):
        winners = []
    return {"reason": reason, "winner": winners[0] if len(winners) == 1 else None, "winners": winners, **details,
            **({} if forfeited is None else {"forfeited": forfeited})}


def _standing(details: dict, seat: int) -> tuple:
    """A seat's numbers in the game's order, comparable: a seat without a number (None) below any number."""
    return tuple((details[detail][seat] is not None, details[detail][seat] or 0) for detail in details)


def timed_outcome(p: dict, detail: str, unit: str) -> str | None:
    """How a match scored now ended, for a game's outcome (the timeline's "The match ended with ..."), its numbers
    under `detail` counted in `unit`, highest first; None for the game's own ends."""
    if p["reason"] not in REASONS:
        return None
    numbers = [str(n) for n in sorted((n for n in p.get(detail) or () if n is not None), reverse=True)]
    if p["reason"] == "timeout" and len(numbers) < 2:
        return "a clock running out"  # one seat left: nothing to compare
    if not numbers:
        return "time called, with nothing to count"
    counted = f"counted at {' to '.join(numbers) if len(numbers) == 2 else _together(numbers)} {unit}"
    return f"time called, {counted}" if p["reason"] == "time" else f"a clock running out, the others {counted}"
