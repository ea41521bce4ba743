"""Kingdom TCG's moves as POST /moves accepts them, each exactly as legal_moves lists it (the package docstring lists
them)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.moves import StrictInteger

TYPES = ("activate", "pass", "discard", "skip", "summon", "move", "attack", "mistake", "control")
ID = validate.Range(min=0, max=999)


class MoveSchema(ma.Schema):
    """A Kingdom TCG move: its type, and the card, combatants and spaces it names."""

    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    card = StrictInteger(validate=ID, metadata={"description": "activate or discard: a card of your hand"})
    thrower = StrictInteger(validate=ID, metadata={"description": "a Throw card: your troop that throws"})
    target = StrictInteger(validate=ID, metadata={"description": "a Throw card's or an attack's enemy combatant"})
    combatant = StrictInteger(validate=ID, metadata={"description": "summon or move: the combatant"})
    attacker = StrictInteger(validate=ID, metadata={"description": "attack: the main attacker"})
    space = fields.List(StrictInteger(validate=validate.Range(min=0, max=99)), validate=validate.Length(equal=2),
                        metadata={"description": "summon: [row, column] of your home row"})
    full = fields.Boolean(truthy={True}, falsy={False}, metadata={
        "description": "control: true to be asked at every window while holding a card, false to be asked only "
                       "when holding a usable one"})
    source = fields.String(validate=validate.OneOf(["deck"]),
                           metadata={"description": "mistake (the referee): the top card of the seat's deck"})
    to = fields.List(StrictInteger(validate=validate.Range(min=0, max=99)), validate=validate.Length(equal=2),
                     metadata={"description": "move: [row, column]"})
