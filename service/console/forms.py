"""The console's forms, each read by a schema into the JSON body the API takes (which checks it again)."""
from __future__ import annotations

import json

import marshmallow as ma
from marshmallow import fields, validate

from service.console.api import Refused

Text = lambda **kw: fields.String(validate=validate.Length(min=1, max=500), **kw)
Version = lambda **kw: fields.Integer(strict=False, validate=validate.Range(min=1), **kw)


class JsonObject(fields.Field):
    """A move as a legal-moves button carries it: a JSON object in a hidden field."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            move = json.loads(value)
        except (TypeError, ValueError) as error:
            raise ma.ValidationError("not a JSON object") from error
        if not isinstance(move, dict):
            raise ma.ValidationError("not a JSON object")
        return move


class Form(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE


class SignIn(Form):
    token = fields.String(required=True, validate=validate.Length(min=8, max=200))


class Move(Form):
    move = JsonObject(required=True)
    expected_version = Version(required=True)


class UndoRequest(Form):
    to_version = Version(required=True)
    reason = Text(required=True)


class UndoAnswer(Form):
    decision = fields.String(required=True, validate=validate.OneOf(["approve", "decline"]))
    reason = Text(required=True)


class DisputeOpen(Form):
    version = Version(required=True)
    claim = Text(required=True)


class Ruling(Form):
    ruling = fields.String(required=True, validate=validate.OneOf(["upheld", "rejected"]))
    explanation = Text(required=True)
    remedy = fields.String(load_default=None, validate=validate.Length(max=500))


class Backup(Form):
    to_version = Version(required=True)
    reason = Text(required=True)


class Settle(Form):
    seat = fields.Integer(strict=False, required=True, validate=validate.Range(min=0, max=7))


class Result(Form):
    round = fields.Integer(strict=False, required=True, validate=validate.Range(min=1))
    table = fields.Integer(strict=False, required=True, validate=validate.Range(min=1))
    placements = fields.String(required=True, validate=validate.Length(min=1, max=300), metadata={
        "description": "player ids, first place first, separated by commas; tied players joined by '='"})
    reason = Text(required=True)

    @ma.post_load
    def places(self, data, **kwargs):
        data["placements"] = [[p.strip() for p in group.split("=") if p.strip()]
                              for group in data["placements"].split(",") if group.strip()]
        return data


class Drop(Form):
    player_id = fields.String(required=True, validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,20}$"))


def read(schema: type[Form], form) -> dict:
    """The form's values, or Refused(400) naming each field that is wrong."""
    try:
        return schema().load(form)
    except ma.ValidationError as error:
        said = "; ".join(f"{field.replace('_', ' ')}: {' '.join(map(str, problems))}"
                         for field, problems in error.messages.items())
        raise Refused(400, f"the form is not filled in right ({said})") from None
