"""Race to 20's view as GET /view returns it (views.py builds it)."""
from __future__ import annotations

from marshmallow import fields

from domain.view_schema import View


class ViewSchema(View):
    """A Race to 20 table: the roll, the played modifier, the stock, each seat's score and (own) hand."""

    die = fields.Integer(allow_none=True)
    played = fields.Dict(allow_none=True)
    stock_count = fields.Integer()
    stock = fields.List(fields.Dict(), metadata={"description": "referee only, top first"})
    players = fields.List(fields.Dict(), metadata={"description": "seat, name, score, hand_count; hand for its seat"})
