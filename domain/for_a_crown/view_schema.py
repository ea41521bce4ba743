"""For a Crown's view as GET /view returns it (views.py builds it)."""
from __future__ import annotations

from marshmallow import fields

from domain.view_schema import View


class ViewSchema(View):
    """A For a Crown table: the Gallery, the reserve, the Royal Square, the shared deck and the families."""

    round = fields.Integer(metadata={"description": "1 to 4"})
    provisional = fields.Dict(metadata={"description": "whether the cards and the board are Herald's provisional "
                                                       "data (RULINGS F1) or a referee's printed ones"})
    gallery = fields.Dict(metadata={"description": "spaces: seat or null, left to right (rightmost most influential); "
                                                   "sections: [first, last] space of the left, middle, right"})
    reserve = fields.Dict(metadata={"description": "rubies, coins, bandits"})
    royal_square = fields.List(fields.Dict(), metadata={"description": "per level: cost or null, face_up, deck_count"})
    shared_deck_count = fields.Integer()
    revealed = fields.List(fields.Dict(), metadata={"description": "this round's revealed cards in order"})
    event_stack_count = fields.Integer()
    players = fields.List(fields.Dict(), metadata={
        "description": "seat, name, family, bandits, heirloom (held or sold), out; chest {rubies, coins} for its own "
                       "seat and the referee (every seat once the match is over) and unrevealed_recruits for its own "
                       "seat and the referee only"})
    pending = fields.Dict(allow_none=True, metadata={"description": "the pending decision; options for its seat"})
    shared_deck = fields.List(fields.Dict(), metadata={"description": "referee only, top first"})
    event_stack = fields.List(fields.Dict(), metadata={"description": "referee only, top first"})
    decks = fields.Dict(metadata={"description": "referee only: each level's deck, top first"})
