"""For a Crown's cards and board: JSON data files validated by marshmallow schemas on load.

The rulebook (Polish) lost its pictures: the files in data/ hold what the text and for-a-crown-notes.md fix and,
where neither does, provisional values (marked "provisional": true; see docs/RULINGS.md F1). A match may bring the
printed cards and board in its options ({"cards": {...}, "board": {...}}).
"""
from __future__ import annotations

from pathlib import Path

import marshmallow as ma
from marshmallow import fields, validate

from domain.data_files import load_option

DATA = Path(__file__).parent / "data"
EFFECTS = ("ruby", "bandit", "steal_ruby", "die", "coin", "portrait")
EVENT_KINDS = ("burglary", "bribery", "helping_hand", "mercenary_mages", "scandal")
LEVELS = 5
MERCENARIES = 55
EVENTS = 7
EFFECT = fields.String(validate=validate.OneOf(EFFECTS))


class MercenarySchema(ma.Schema):
    level = fields.Integer(required=True, validate=validate.Range(min=1, max=LEVELS))
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    # one list of effects, or (level 1) two lists its recruiter chooses between each time it is revealed
    effects = fields.List(fields.List(EFFECT, validate=validate.Length(min=1, max=6)), required=True,
                          validate=validate.Length(min=1, max=2))
    count = fields.Integer(required=True, validate=validate.Range(min=1, max=MERCENARIES))


class EventSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    kind = fields.String(required=True, validate=validate.OneOf(EVENT_KINDS))
    starting = fields.Boolean(required=True)
    count = fields.Integer(required=True, validate=validate.Range(min=1, max=EVENTS))


class CardsSchema(ma.Schema):
    provisional = fields.Boolean(load_default=False)
    known = fields.String()
    assumed = fields.String()
    mercenaries = fields.List(fields.Nested(MercenarySchema), required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)

    @ma.validates_schema
    def counts(self, data, **kwargs):
        if sum(m["count"] for m in data["mercenaries"]) != MERCENARIES:
            raise ma.ValidationError(f"the Mercenaries must number {MERCENARIES}")
        for m in data["mercenaries"]:
            if (m["level"] == 1) != (len(m["effects"]) == 2) or (m["level"] == 1 and len(m["effects"][0] + m["effects"][1]) != 2):
                raise ma.ValidationError(f"{m['name']}: level-1 cards, and only they, show two effects to choose from")
        if sum(e["count"] for e in data["events"]) != EVENTS or sum(
                e["count"] for e in data["events"] if e["starting"]) != 2:
            raise ma.ValidationError(f"the Events must number {EVENTS}, 2 of them Starting Events")


class GallerySchema(ma.Schema):
    spaces = fields.Integer(required=True, validate=validate.Range(min=5, max=30))
    start = fields.Integer(required=True, validate=validate.Range(min=4, max=29))
    sections = fields.List(fields.List(fields.Integer(), validate=validate.Length(equal=2)), required=True,
                           validate=validate.Length(equal=3))
    scandal = fields.List(fields.Integer(validate=validate.Range(min=0, max=10)), required=True,
                          validate=validate.Length(equal=3))

    @ma.validates_schema
    def fits(self, data, **kwargs):
        if data["start"] >= data["spaces"]:
            raise ma.ValidationError("the starred space lies outside the Gallery")
        covered = [s for first, last in data["sections"] for s in range(first, last + 1)]
        if covered != list(range(data["spaces"])):
            raise ma.ValidationError("the three sections must cover the Gallery left to right, each space once")


class BoardSchema(ma.Schema):
    provisional = fields.Boolean(load_default=False)
    known = fields.String()
    assumed = fields.String()
    families = fields.List(fields.String(validate=validate.Length(min=1, max=40)), required=True,
                           validate=validate.Length(equal=5))
    reserve = fields.Dict(keys=fields.String(validate=validate.OneOf(["rubies", "coins", "bandits"])),
                          values=fields.Integer(validate=validate.Range(min=0, max=999)), required=True)
    chest_rubies = fields.Integer(required=True, validate=validate.Range(min=0, max=99))
    heirloom_rubies = fields.Integer(required=True, validate=validate.Range(min=0, max=99))
    starting_coins = fields.Dict(keys=fields.String(validate=validate.OneOf(["most", "least", "others"])),
                                 values=fields.Integer(validate=validate.Range(min=0, max=99)), required=True)
    costs = fields.List(fields.Integer(validate=validate.Range(min=0, max=99)), required=True,
                        validate=validate.Length(min=1, max=LEVELS))
    zero_tiles = fields.Integer(required=True, validate=validate.Range(min=0, max=LEVELS))
    gallery = fields.Nested(GallerySchema, required=True)
    die = fields.List(EFFECT, required=True, validate=validate.Length(equal=6))

    @ma.validates_schema
    def whole(self, data, **kwargs):
        if set(data["reserve"]) != {"rubies", "coins", "bandits"}:
            raise ma.ValidationError("the reserve holds rubies, coins and bandits")
        if set(data["starting_coins"]) != {"most", "least", "others"}:
            raise ma.ValidationError("starting coins are given for the most, the least influential and the others")


def load_cards(document=None) -> dict:
    return load_option(CardsSchema(), DATA / "cards.json", document, "cards")


def load_board(document=None) -> dict:
    return load_option(BoardSchema(), DATA / "board.json", document, "board")
