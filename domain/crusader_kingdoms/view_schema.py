"""Crusader Kingdoms' view as GET /view returns it (views.py builds it)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from domain.view_schema import View


class CrusaderCard(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    id = fields.Integer()
    name = fields.String()
    deck = fields.String()
    effect = fields.String()
    value = fields.Integer()


class Kingdom(ma.Schema):
    kingdom = fields.Integer()
    seat = fields.Integer(allow_none=True, metadata={"description": "none for the automated Muslims"})
    name = fields.String()
    religion = fields.String()
    colour = fields.String(allow_none=True)
    automated = fields.Boolean()
    player = fields.String()
    hand_count = fields.Integer()
    hand = fields.List(fields.Nested(CrusaderCard), metadata={"description": "own seat or referee only"})
    bonus = fields.Integer(metadata={"description": "the card bonus marker, -2 to +2"})
    castles = fields.Integer()
    castles_in_supply = fields.Integer()
    castles_on_map = fields.Integer()
    areas = fields.List(fields.Integer())
    persistent = fields.List(fields.Nested(CrusaderCard), metadata={"description": "face-up cards that stay in play"})
    passed = fields.Boolean()
    army = fields.List(fields.Nested(CrusaderCard), metadata={"description": "the automated Muslims' army"})
    responses = fields.List(fields.Nested(CrusaderCard), metadata={"description": "the automated Muslims' response cards"})


class ViewSchema(View):
    """A Crusader Kingdoms table: the map, the kingdoms, the decks, truces and the attack under way."""

    mode = fields.String(metadata={"description": "solo, coop, three or four"})
    result = fields.Dict(allow_none=True, metadata={"description": "once finished: the reason and the result"})
    players = fields.List(fields.Dict(), metadata={"description": "seat, name, kingdom, hand_count"})
    kingdoms = fields.List(fields.Nested(Kingdom))
    map = fields.Dict(metadata={"description": "name, provisional (the map is made up where the rulebook's picture "
                                               "is lost), areas with owner, castle and plus"})
    decks = fields.Dict(metadata={"description": "per deck: draw_pile_count, discard_count, removed"})
    truces = fields.List(fields.List(fields.Integer()))
    attack = fields.Dict(allow_none=True, metadata={"description": "the attack under way: attacker, area, defender, "
                                                                   "stage, dice, cards (face down unless yours)"})
    pending = fields.Dict(metadata={"description": "the awaited seat and stage; its options for that seat and the "
                                                   "referee"})
    draw_piles = fields.Dict(metadata={"description": "referee only: each deck's draw pile, top first"})
    discard_piles = fields.Dict(metadata={"description": "referee only: each deck's discards"})
