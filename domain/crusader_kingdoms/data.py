"""The maps and decks of Crusader Kingdoms: JSON data files validated by marshmallow schemas on load.

The rulebook shows the maps and the card texts only in pictures; the files in data/ hold what the text
names and, where it does not, provisional data (marked "provisional": true; see docs/RULINGS.md).
A match may bring its own map and decks in its options ({"map": {...}, "decks": {...}}).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import marshmallow as ma
from marshmallow import fields, validate

from domain.copying import copy_sharing
from domain.errors import IllegalMove

DATA = Path(__file__).parent / "data"
MAP_FILES = {1: "crusades_1st_3rd.json", 2: "crusades_1st_3rd.json", 3: "saladin_2nd_crusade.json",
             4: "saladin_2nd_crusade.json"}
MAX_CARDS = 90
RELIGIONS = ("christian", "muslim")
# what each card does (see the package docstring); "P" cards stay face up for the whole turn
EFFECTS = ("troop", "leader", "defence_dice", "regroup", "raid", "bonus_up", "bonus_down", "walls", "steal",
           "attack_event", "attack_dice", "defence_bonus", "truce")
RESPONSES = ("leader", "defence_dice", "regroup")
PERSISTENT = ("attack_dice", "defence_bonus", "truce")


class AreaSchema(ma.Schema):
    id = fields.Integer(required=True, validate=validate.Range(min=1, max=89))
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    defence = fields.Integer(required=True, validate=validate.Range(min=0, max=10))
    vp = fields.Integer(load_default=0, validate=validate.Range(min=0, max=20))
    adjacent = fields.List(fields.Integer(), required=True)


class KingdomSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    religion = fields.String(required=True, validate=validate.OneOf(RELIGIONS))
    castles = fields.Integer(required=True, validate=validate.Range(min=1, max=89))
    cards = fields.Integer(required=True, validate=validate.Range(min=0, max=40))
    start = fields.List(fields.Integer(), required=True)
    automated = fields.Boolean(load_default=False)
    colour = fields.String(load_default=None, validate=validate.Length(min=1, max=20))


class MapSchema(ma.Schema):
    provisional = fields.Boolean(load_default=False)
    name = fields.String(required=True)
    known = fields.String()
    assumed = fields.String()
    areas = fields.List(fields.Nested(AreaSchema), required=True, validate=validate.Length(min=2, max=89))
    setups = fields.Dict(keys=fields.String(validate=validate.OneOf(["1", "2", "3", "4"])),
                         values=fields.List(fields.Nested(KingdomSchema)), required=True)

    @ma.validates_schema
    def consistent(self, data, **kwargs):
        ids = [a["id"] for a in data["areas"]]
        if len(set(ids)) != len(ids):
            raise ma.ValidationError("area ids must be unique", "areas")
        by_id = {a["id"]: a for a in data["areas"]}
        for area in data["areas"]:
            for other in area["adjacent"]:
                if other not in by_id:
                    raise ma.ValidationError(f"area {area['id']} borders unknown area {other}", "areas")
                if other == area["id"]:
                    raise ma.ValidationError(f"area {area['id']} cannot border itself", "areas")
                if area["id"] not in by_id[other]["adjacent"]:
                    raise ma.ValidationError(f"area {area['id']} borders {other} but not the other way round",
                                             "areas")
        for count, kingdoms in data["setups"].items():
            humans = [k for k in kingdoms if not k["automated"]]
            automated = [k for k in kingdoms if k["automated"]]
            if len(humans) != int(count):
                raise ma.ValidationError(f"the {count}-player setup needs {count} player kingdoms", "setups")
            if int(count) <= 2 and (len(automated) != 1 or automated[0]["religion"] != "muslim"
                                    or kingdoms[-1] is not automated[0]
                                    or any(k["religion"] != "christian" for k in humans)):
                raise ma.ValidationError(f"the {count}-player setup needs Christian kingdoms and one automated "
                                         "Muslim kingdom last", "setups")
            if int(count) >= 3 and automated:
                raise ma.ValidationError(f"the {count}-player setup has no automated kingdom", "setups")
            colours = [k["colour"] for k in kingdoms if k["colour"] is not None]
            if len(set(colours)) != len(colours):
                raise ma.ValidationError(f"the {count}-player setup gives two kingdoms one colour", "setups")
            taken = set()
            for kingdom in kingdoms:
                for area in kingdom["start"]:
                    if area not in by_id or area in taken:
                        raise ma.ValidationError(f"{kingdom['name']} starts in unknown or shared area {area}",
                                                 "setups")
                    taken.add(area)
                if len(kingdom["start"]) > kingdom["castles"]:
                    raise ma.ValidationError(f"{kingdom['name']} has fewer castles than starting areas", "setups")
                if not kingdom["automated"] and not kingdom["start"]:
                    raise ma.ValidationError(f"{kingdom['name']} needs at least one starting area", "setups")


class CardEntrySchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    effect = fields.String(required=True, validate=validate.OneOf(EFFECTS))
    value = fields.Integer(load_default=0, validate=validate.Range(min=0, max=10))
    count = fields.Integer(required=True, validate=validate.Range(min=1, max=90))
    removed_in_solo = fields.Integer(load_default=0, validate=validate.Range(min=0, max=90))
    allies = fields.Boolean(load_default=False)

    @ma.validates_schema
    def sensible(self, data, **kwargs):
        if data["effect"] == "troop" and data["value"] < 1:
            raise ma.ValidationError(f"troop card {data['name']!r} needs a value of at least 1", "value")
        if data["removed_in_solo"] > data["count"]:
            raise ma.ValidationError(f"{data['name']!r}: cannot remove more copies than there are",
                                     "removed_in_solo")


class DecksSchema(ma.Schema):
    provisional = fields.Boolean(load_default=False)
    known = fields.String()
    assumed = fields.String()
    christian = fields.List(fields.Nested(CardEntrySchema), required=True, validate=validate.Length(min=1))
    muslim = fields.List(fields.Nested(CardEntrySchema), required=True, validate=validate.Length(min=1))

    @ma.validates_schema
    def fits(self, data, **kwargs):
        total = sum(e["count"] for deck in RELIGIONS for e in data[deck])
        if total > MAX_CARDS:
            raise ma.ValidationError(f"the two decks hold {total} cards; card ids run 0-{MAX_CARDS - 1}")


def _messages(error: ma.ValidationError) -> str:
    return json.dumps(error.messages, sort_keys=True)


def load_map(document, players: int) -> dict:
    """A validated map for a player count; IllegalMove with the reason if it is not valid."""
    try:
        data = MapSchema().load(document)
    except ma.ValidationError as error:
        raise IllegalMove(f"invalid Crusader Kingdoms map: {_messages(error)}") from None
    if str(players) not in data["setups"]:
        raise IllegalMove(f"invalid Crusader Kingdoms map: it has no setup for {players} players")
    return data


def load_decks(document) -> dict:
    """Validated decks expanded to cards with ids: the Christian deck first, then the Muslim deck."""
    try:
        data = DecksSchema().load(document)
    except ma.ValidationError as error:
        raise IllegalMove(f"invalid Crusader Kingdoms decks: {_messages(error)}") from None
    cards = []
    for deck in RELIGIONS:
        for entry in data[deck]:
            for copy in range(entry["count"]):
                cards.append({"id": len(cards), "deck": deck, "name": entry["name"], "effect": entry["effect"],
                              "value": entry["value"], "allies": entry["allies"],
                              "persistent": entry["effect"] in PERSISTENT,
                              "solo_removed": copy < entry["removed_in_solo"]})
    return {"provisional": data["provisional"], "cards": cards}


@cache
def _file(name: str) -> str:
    return (DATA / name).read_text()


def default_map(players: int) -> dict:
    return json.loads(_file(MAP_FILES[players]))


def default_decks() -> dict:
    return json.loads(_file("decks.json"))


@cache
def _shipped(players: int) -> tuple[dict, dict]:
    return load_map(default_map(players), players), load_decks(default_decks())


def map_and_decks(options: dict, players: int) -> tuple[dict, dict]:
    """A match's map and decks: its `map` and `decks` options checked, or the shipped ones (checked once, copied)."""
    board, decks = _shipped(players)
    return (load_map(options["map"], players) if "map" in options else copy_sharing(board),
            load_decks(options["decks"]) if "decks" in options else copy_sharing(decks))
