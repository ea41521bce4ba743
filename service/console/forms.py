"""The console's forms, each read by a schema into the JSON body the API takes (which checks it again)."""
from __future__ import annotations

import json

import marshmallow as ma
from marshmallow import fields, validate

from domain import clock
from replays.verify import too_deep
from service.console.api import Refused


def Text() -> fields.String:
    """A required line of text, as a reason or a claim."""
    return fields.String(required=True, validate=validate.Length(min=1, max=500))


def Version() -> fields.Integer:
    """A required version number."""
    return fields.Integer(strict=False, required=True, validate=validate.Range(min=1))


class JsonObject(fields.Field):
    """A move as a legal-moves button carries it: a JSON object in a hidden field."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and (reason := too_deep(value)):  # as the API refuses such a body, unread
            raise ma.ValidationError(f"refused unread: {reason}")
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
    expected_version = Version()


class UndoRequest(Form):
    to_version = Version()
    reason = Text()


class UndoAnswer(Form):
    decision = fields.String(required=True, validate=validate.OneOf(["approve", "decline"]))
    reason = Text()


class DisputeOpen(Form):
    version = Version()
    claim = Text()


class Ruling(Form):
    ruling = fields.String(required=True, validate=validate.OneOf(["upheld", "rejected"]))
    explanation = Text()
    remedy = fields.String(load_default=None, validate=validate.Length(max=500))


class Backup(Form):
    to_version = Version()
    reason = Text()


class Settle(Form):
    seat = fields.Integer(strict=False, required=True, validate=validate.Range(min=0, max=7))
    reason = fields.String(load_default="", validate=validate.Length(max=500))  # needed before the decision stalls


class ClockTime(Form):
    """The referee adds time to a seat's clock."""

    seat = fields.Integer(strict=False, required=True, validate=validate.Range(min=0, max=7))
    add_s = fields.Float(required=True, validate=validate.Range(min=clock.SHORTEST, max=clock.LONGEST))
    reason = Text()


class ClockPause(Form):
    """The referee pauses the clocks (paused true) or restarts them (false)."""

    paused = fields.Boolean(required=True)
    reason = Text()


class Result(Form):
    round = fields.Integer(strict=False, required=True, validate=validate.Range(min=1))
    table = fields.Integer(strict=False, required=True, validate=validate.Range(min=1))
    placements = fields.String(required=True, validate=validate.Length(min=1, max=300), metadata={
        "description": "player ids, first place first, separated by commas; tied players joined by '='"})
    reason = Text()

    @ma.post_load
    def places(self, data, **kwargs):
        data["placements"] = [[p.strip() for p in group.split("=") if p.strip()]
                              for group in data["placements"].split(",") if group.strip()]
        return data


class ReportAnswer(Form):
    """The opponent's answer to a reported result; a dispute says why (the API refuses one that does not)."""

    decision = fields.String(required=True, validate=validate.OneOf(["confirm", "dispute"]))
    reason = fields.String(load_default="", validate=validate.Length(max=500))

    @ma.post_load
    def said(self, data, **kwargs):
        return data if data["reason"] else {"decision": data["decision"]}


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
