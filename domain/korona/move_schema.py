"""Korona's moves as POST /moves accepts them, each exactly as legal_moves lists it (the package docstring lists them)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.moves import StrictInteger

from .cards import DECK_SIZE, JOKER_ROLES

TYPES = ("draw", "place", "discard", "play", "end_turn", "shield", "pass", "give", "take", "hand_over", "pass_on",
         "reposition")
CARD = validate.Range(min=0, max=DECK_SIZE - 1)  # a card id; a stack index too (a play area holds no more stacks)
ROW = validate.OneOf(["pile", "market"])


class MoveSchema(ma.Schema):
    """A Korona move: its type and the cards, stacks, roles and seats it names."""

    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    card = StrictInteger(validate=CARD)
    source = fields.String(validate=ROW)
    stack = StrictInteger(allow_none=True, validate=CARD)
    role = fields.String(validate=validate.OneOf(JOKER_ROLES))
    draw = fields.String(validate=ROW)
    take = StrictInteger(validate=CARD)
    moved_card = StrictInteger(validate=CARD)
    from_stack = StrictInteger(validate=CARD)
    target = StrictInteger(validate=validate.Range(min=0, max=7), metadata={"description": "a seat"})
    zone = fields.String(validate=validate.OneOf(["hand", "area"]))
    thief = StrictInteger(validate=CARD)
    to = fields.String(validate=validate.OneOf(["hand"]))
