"""What the games and the service share about moves: whole-number fields, and a move as the rules compare it."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ClassVar

from marshmallow import fields


class StrictInteger(fields.Integer):
    """A whole number: 1.5 (or 1.0) is refused, never truncated."""

    default_error_messages: ClassVar[dict] = {"invalid": "Not a whole number: write 3, not 3.5 or \"3\"."}

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)


def compact(move: dict) -> dict:
    """A move as the rules compare it: its keys without a value, and the platform's keys, left out (the move itself
    when it has none of them; the rules never change a move)."""
    if None in move.values() or "expected_version" in move or "resolve_for" in move:
        return {k: v for k, v in move.items() if v is not None and k not in ("expected_version", "resolve_for")}
    return move


_NOTHING = (None, None, None)
_last = _NOTHING  # (state, seat, moves) of the latest full listing, replaced whole so threads read it whole


def remembered(legal_moves: Callable) -> Callable:
    """A game's legal_moves(state, seat, like=None) whose latest full listing answers the check of a move (`like`)
    on that very state and seat until the state evolves (domain/events.evolve_event forgets it): deciding a move just
    listed checks it against the same list instead of listing again. A full listing is always made afresh, and each
    caller gets a list of its own. A state changed by hand (a test building a position) is to be listed again before
    it is decided on."""
    @wraps(legal_moves)
    def listing(state: dict, seat: int, like: dict | None = None) -> list[dict]:
        global _last
        if like is None:
            moves = legal_moves(state, seat)
            _last = (state, seat, moves)
            return list(moves)  # the caller's own list: what it does with it never changes the kept listing
        last = _last
        if last[0] is state and last[1] == seat:
            return last[2]
        return legal_moves(state, seat, like)
    return listing


def forget(state: dict) -> None:
    """The state is evolving in place: its kept listing no longer holds."""
    global _last
    if _last[0] is state:
        _last = _NOTHING
