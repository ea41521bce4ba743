"""Race to 20's moves as POST /moves accepts them, each exactly as legal_moves lists it."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.moves import StrictInteger

from .state import DECK


class MoveSchema(ma.Schema):
    """A Race to 20 move: roll, play a modifier card, or pass (bank the points)."""

    type = fields.String(required=True, validate=validate.OneOf(["roll", "play", "pass"]))
    card = StrictInteger(validate=validate.Range(min=0, max=len(DECK) - 1), metadata={"description": "a card id"})
