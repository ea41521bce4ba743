"""Kingdom TCG's data: the card catalogue, the strategy cards' provisional effects, the provisional base game and the
default decklists, JSON files validated by marshmallow schemas on load.

Only chapter 3 of the rules (the strategy deck) survives, and no card text: data/catalogue.json is the community
catalogue as given (names, types, levels, a Royalty card's Coronado); data/cards.json and data/board.json hold
Herald's provisional readings (RULINGS KT2-KT6), each replaceable through a match's options ("catalogue", "cards",
"board", "decklists").
"""
from __future__ import annotations

import json
from pathlib import Path

import marshmallow as ma
from marshmallow import fields, validate

from domain.data_files import load_option, shipped
from domain.errors import IllegalMove

DATA = Path(__file__).parent / "data"
TYPES = ("tropa", "coronado", "realeza", "estrategia", "estrategia_primigenia", "arroje")
STAGES = ("summoning", "movement", "battle")
TRIGGERS = ("stage_start", "draw", "summoning_roll", "summon", "movement_roll", "move", "designation", "attack_roll",
            "defence_roll", "defeat")
WINDOWS = tuple(f"{timing}:{trigger}" for trigger in TRIGGERS for timing in ("before", "after"))
EFFECTS = ("increase", "reduction", "draw", "cancel", "throw")
NAME = fields.String(required=True, validate=validate.Length(min=1, max=60))


class CatalogueCard(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    code = fields.String()
    name = NAME
    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    level = fields.Integer(validate=validate.Range(min=1, max=4))
    crowned = fields.String(validate=validate.Length(min=1, max=60))

    @ma.validates_schema
    def levelled(self, data, **kwargs):
        if data["type"] == "tropa" and "level" not in data:
            raise ma.ValidationError(f"the troop {data['name']} needs a level (1 to 4)")


class CatalogueSchema(ma.Schema):
    source = fields.String()
    cards = fields.List(fields.Nested(CatalogueCard), required=True, validate=validate.Length(min=1, max=2000))

    @ma.validates_schema
    def named_once(self, data, **kwargs):
        seen = [card["name"] for card in data["cards"]]
        doubled = sorted({name for name in seen if seen.count(name) > 1})
        if doubled:
            raise ma.ValidationError(f"a name stands for one card: {', '.join(doubled)} appear more than once")


class EffectSchema(ma.Schema):
    kind = fields.String(required=True, validate=validate.OneOf(EFFECTS))
    roll = fields.String(validate=validate.OneOf(["attack", "defence"]))
    amount = fields.Integer(validate=validate.Range(min=1, max=9))
    count = fields.Integer(validate=validate.Range(min=1, max=5))
    distance = fields.Integer(validate=validate.Range(min=1, max=20))
    die = fields.String(validate=validate.Length(min=1, max=40))

    @ma.validates_schema
    def whole(self, data, **kwargs):
        needs = {"increase": ("roll", "amount"), "reduction": ("roll",), "draw": ("count",), "cancel": (),
                 "throw": ("distance", "die")}[data["kind"]]
        missing = [key for key in needs if key not in data]
        if missing:
            raise ma.ValidationError(f"a {data['kind']} effect needs {', '.join(missing)}")


class CardRules(ma.Schema):
    turn = fields.String(required=True, validate=validate.OneOf(["own", "enemy", "both"]))
    stages = fields.List(fields.String(validate=validate.OneOf(STAGES)), required=True,
                         validate=validate.Length(min=1, max=3))
    windows = fields.List(fields.String(validate=validate.OneOf(WINDOWS)), required=True,
                          validate=validate.Length(min=1, max=len(WINDOWS)))
    effect = fields.Nested(EffectSchema, required=True)


class CardsSchema(ma.Schema):
    provisional = fields.Boolean(load_default=False)
    known = fields.String()
    assumed = fields.String()
    cards = fields.Dict(keys=NAME, values=fields.Nested(CardRules), required=True)


FACE = fields.Raw()


class BoardSchema(ma.Schema):
    provisional = fields.Boolean(load_default=False)
    known = fields.String()
    assumed = fields.String()
    rows = fields.Integer(required=True, validate=validate.Range(min=3, max=20))
    columns = fields.Integer(required=True, validate=validate.Range(min=1, max=20))
    home_rows = fields.List(fields.Integer(), required=True, validate=validate.Length(equal=2))
    coronado_column = fields.Integer(required=True)
    opening_hand = fields.Integer(required=True, validate=validate.Range(min=0, max=30))
    draws_per_turn = fields.Integer(required=True, validate=validate.Range(min=0, max=5))
    turn_limit = fields.Integer(required=True, validate=validate.Range(min=2, max=500))
    dice = fields.Dict(keys=fields.String(), values=fields.List(FACE, validate=validate.Length(min=1, max=20)),
                       required=True)
    summoning_levels = fields.List(fields.Integer(validate=validate.Range(min=0, max=4)), required=True)
    movement_spaces = fields.List(fields.Integer(validate=validate.Range(min=0, max=20)), required=True)

    @ma.validates_schema
    def fits(self, data, **kwargs):
        if not all(0 <= row < data["rows"] for row in data["home_rows"]) or not 0 <= data["coronado_column"] < data[
                "columns"]:
            raise ma.ValidationError("the home rows and the Coronados' column must lie on the battlefield")
        for name, faces in data["dice"].items():
            if not all(face == "audacia" or (isinstance(face, int) and 0 <= face <= 20) for face in faces):
                raise ma.ValidationError(f"die {name}: each face is a number from 0 to 20 or \"audacia\"")
        dice = data["dice"]
        wanted = ["d6", "coronado_attack", "coronado_defence"] + [f"level{n}_{roll}" for n in range(1, 5)
                                                                   for roll in ("attack", "defence")]
        missing = [name for name in wanted if name not in dice]
        if missing:
            raise ma.ValidationError(f"the dice {', '.join(missing)} are missing")
        if len(data["summoning_levels"]) != len(dice["d6"]) or len(data["movement_spaces"]) != len(dice["d6"]):
            raise ma.ValidationError("the summoning and movement tables give one value per face of d6")


class DecklistSchema(ma.Schema):
    """A decklist by card name: the Coronado, the combatant deck, and the strategy deck (Royalty, Strategy and Throw
    cards together)."""

    coronado = NAME
    combatants = fields.List(NAME, required=True, validate=validate.Length(max=200))
    strategy = fields.List(NAME, required=True, validate=validate.Length(max=200))


def load_catalogue(document=None) -> dict:
    return load_option(CatalogueSchema(), DATA / "catalogue.json", document, "catalogue")


def load_cards(document=None) -> dict:
    return load_option(CardsSchema(), DATA / "cards.json", document, "cards")


def load_board(document=None) -> dict:
    return load_option(BoardSchema(), DATA / "board.json", document, "board")


def check_cards(rules: dict, board: dict, catalogue: dict) -> None:
    """What the cards option's effects name elsewhere, checked once all three are loaded: a throw effect's die among
    the board's dice, and its card's level (3.4: a Throw card's minimum level) in the catalogue."""
    levelled = {card["name"].casefold() for card in catalogue["cards"] if "level" in card}
    known = {card["name"].casefold() for card in catalogue["cards"]}
    problems = {}
    for name, card in rules["cards"].items():
        effect = card["effect"]
        if effect["kind"] != "throw":
            continue
        wrong = {}
        if effect["die"] not in board["dice"]:
            wrong["die"] = [f"the board has no die named {effect['die']}"]
        if name.casefold() in known and name.casefold() not in levelled:
            wrong["level"] = [f"a throw effect needs its card's level, and the catalogue gives {name} none"]
        if wrong:
            problems[name] = {"effect": wrong}
    if problems:
        raise IllegalMove(f"the cards option is not valid: {json.dumps({'cards': problems}, sort_keys=True)}")


def load_decklist(document) -> dict:
    return load_option(DecklistSchema(), None, document, "decklist")


def default_decklists() -> list[dict]:
    return shipped(DATA / "decklists.json")["decklists"]
