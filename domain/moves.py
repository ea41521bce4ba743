"""What the games and the service share about moves: whole-number fields, and a move as the rules compare it."""
from __future__ import annotations

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
