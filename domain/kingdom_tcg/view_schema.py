"""Kingdom TCG's view as GET /view returns it (views.py builds it)."""
from __future__ import annotations

from marshmallow import fields

from domain.view_schema import View


class ViewSchema(View):
    """A Kingdom TCG table: the battlefield, the resolution stack, the battle in progress and each player's decks."""

    stage = fields.String(allow_none=True, metadata={"description": "summoning, movement or battle"})
    window = fields.String(allow_none=True, metadata={"description": "the open window, e.g. before:attack_roll"})
    provisional = fields.Dict(metadata={"description": "whether the cards' effects and the base game are Herald's "
                                                       "provisional data (RULINGS KT2) or a referee's"})
    stack = fields.List(fields.Dict(), metadata={"description": "the cards awaiting resolution, top first (those of a "
                                                                "window a Throw or a draw interrupted beneath), each "
                                                                "with its owner (seat)"})
    battlefield = fields.Dict(metadata={"description": "rows, columns, and its occupied spaces, each [row, column] "
                                                       "with its combatant (owner, name, level, coronado)"})
    combat = fields.Dict(allow_none=True, metadata={"description": "the battle or Throw in progress (kind): each "
                                                                   "side's raw roll, increases and reduction"})
    roll = fields.Integer(allow_none=True, metadata={"description": "this turn's summoning or movement roll"})
    players = fields.List(fields.Dict(), metadata={
        "description": "seat, name, coronado, deck_count, hand_count, used (face up), pit, names_used_this_turn; "
                       "hand and reserve for its own seat and the referee only; deck (in order) for the referee"})
