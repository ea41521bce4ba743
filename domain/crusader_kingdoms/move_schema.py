"""Crusader Kingdoms' moves as POST /moves accepts them, each exactly as legal_moves lists it (the package
docstring says what each means)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from domain.moves import StrictInteger

from .data import MAX_CARDS
from .state import SIDES

TYPES = ("attack", "incursion", "play", "discard", "pass", "commit", "respond", "turn_castle", "leader_point",
         "reward_bonus", "reward_castle")
INDEX = validate.Range(min=0, max=MAX_CARDS - 1)


class MoveSchema(ma.Schema):
    """A Crusader Kingdoms move: its type, and the card, area, kingdom, side or die it names."""

    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    card = StrictInteger(validate=INDEX, metadata={"description": "a card id"})
    area = StrictInteger(validate=INDEX, metadata={"description": "an area of the map"})
    target = StrictInteger(validate=validate.Range(min=0, max=7), metadata={"description": "a kingdom"})
    side = fields.String(validate=validate.OneOf(SIDES), metadata={"description": "respond: the attack or the defence"})
    die = StrictInteger(validate=INDEX, metadata={"description": "leader_point: the index of a die of the Leader's side"})
