"""Crusader Kingdoms' moves as POST /moves accepts them, each exactly as legal_moves lists it (see the package
docstring for what each means)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.moves import StrictInteger

from .data import MAX_CARDS

TYPES = ("take", "play", "discard", "pass", "place", "shield", "reposition", "draw")
INDEX = validate.Range(min=0, max=MAX_CARDS - 1)


class MoveSchema(ma.Schema):
    """A Crusader Kingdoms move: its type, a card id, an area, side or die index (stack), a kingdom (target)."""

    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    card = StrictInteger(validate=INDEX)
    stack = StrictInteger(validate=INDEX, metadata={"description": "an area, a side (0 attack, 1 defence) or a die"})
    target = StrictInteger(validate=validate.Range(min=0, max=7), metadata={"description": "a kingdom"})
