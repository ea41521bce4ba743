"""Korona's view as GET /view returns it (views.py builds it)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from domain.view_schema import View


class KoronaCard(ma.Schema):
    id = fields.Integer()
    name = fields.String()
    role = fields.String(metadata={"description": "a Joker's role, once placed"})


class KoronaPlayer(ma.Schema):
    seat = fields.Integer()
    name = fields.String()
    hand_count = fields.Integer()
    hand = fields.List(fields.Nested(KoronaCard), metadata={"description": "own seat or referee only"})
    play_area = fields.List(fields.List(fields.Nested(KoronaCard)), metadata={"description": "stacks, bottom first"})
    score = fields.Integer()


class ViewSchema(View):
    """A Korona table: the market, the piles, each seat's play area, and the pending decision."""

    actions_taken = fields.Integer()
    draw_pile_count = fields.Integer()
    market = fields.List(fields.Nested(KoronaCard))
    discard_pile = fields.List(fields.Nested(KoronaCard))
    draw_pile = fields.List(fields.Nested(KoronaCard), metadata={"description": "referee only, top first"})
    players = fields.List(fields.Nested(KoronaPlayer))
    in_transit = fields.List(fields.List(fields.Nested(KoronaCard)), metadata={"description": "cards waiting to be placed, "
                                                                                       "per receiving seat"})
    pending = fields.Dict(allow_none=True, metadata={
        "description": "the pending decision inside an Action card: kind, seat; options for that seat and the referee"})
