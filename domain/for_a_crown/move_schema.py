"""For a Crown's moves as POST /moves accepts them, each exactly as legal_moves lists it (the package docstring
lists them)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.moves import StrictInteger

from .data import EFFECTS

TYPES = ("recruit", "pass", "pay", "choose_effect", "choose_player", "move_portrait", "bribe", "pay_mages", "decline")
AMOUNT = validate.Range(min=0, max=99)
SEAT = validate.Range(min=0, max=4)


class MoveSchema(ma.Schema):
    """A For a Crown move: its type, and the level, card, stack, payment, effect, player or Portrait it names."""

    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    level = StrictInteger(validate=validate.Range(min=1, max=5), metadata={"description": "recruit: the column"})
    card = StrictInteger(validate=validate.Range(min=0, max=99), metadata={"description": "a face-up Mercenary"})
    stack = StrictInteger(validate=validate.Range(min=0, max=2), metadata={"description": "a level-1 stack"})
    source = fields.String(validate=validate.OneOf(["deck"]),
                           metadata={"description": "recruit the top card of the level's deck, unseen"})
    coins = StrictInteger(validate=AMOUNT)
    rubies = StrictInteger(validate=AMOUNT)
    effect = fields.String(validate=validate.OneOf(EFFECTS))
    target = StrictInteger(validate=SEAT, metadata={"description": "the player who takes a Bandit or loses a Ruby"})
    portrait = StrictInteger(validate=SEAT, metadata={"description": "the seat whose Portrait moves"})
    direction = fields.String(validate=validate.OneOf(["left", "right"]))
