"""What every game's view holds for the platform, as a marshmallow schema each game's view schema extends (a view is
only dumped, never loaded: it documents GET /view, /spectator-view and /replay in /openapi.json)."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields


class Clock(ma.Schema):
    """A seat's clock at the view's version."""

    seat = fields.Integer(required=True)
    remaining_s = fields.Float(required=True, metadata={"description": "seconds left at the view's version"})
    running = fields.Boolean(required=True)
    deadline = fields.String(metadata={"description": "the running clock's: when it runs out, ISO 8601 UTC"})


class View(ma.Schema):
    """The platform's keys of a view; the service adds version and chain_head (and retracted to a replay)."""

    class Meta:
        unknown = ma.INCLUDE

    game = fields.String(required=True, metadata={"description": "the game's name: which view this is"})
    version = fields.Integer(metadata={"description": "the match version this view shows"})
    chain_head = fields.String(metadata={"description": "the chain value of that version's event"})
    retracted = fields.Boolean(metadata={"description": "replay only: this version was undone"})
    status = fields.String(metadata={"description": "seating, active or finished"})
    current_seat = fields.Integer(allow_none=True, metadata={"description": "whose turn it is"})
    awaiting_seat = fields.Integer(allow_none=True, metadata={"description": "the one seat whose decision is pending"})
    turn = fields.Integer()
    phase = fields.String()
    winner = fields.Integer(allow_none=True)
    winners = fields.List(fields.Integer())
    clocks = fields.List(fields.Nested(Clock), metadata={"description": "where the match has a clock: each seat's"})
