"""A posted move: the platform's keys around the move schema the match's game declares (Game.move_schema), and its
checks against the holder's role before it is recorded (record_move)."""
from __future__ import annotations

from datetime import UTC, datetime
from functools import cache, lru_cache

import marshmallow as ma
from flask_smorest import abort
from marshmallow import fields, validate

from domain.matches import REFEREE
from domain.moves import StrictInteger
from domain.registry import GAMES
from service.problems import fail, said
from service.schemas import Reason

DEFAULT = "default"  # the referee's default move, in any game; keyed like a game's moves, so no game is named so


class PlatformKeys(ma.Schema):
    """What any move may carry besides the game's own keys."""

    expected_version = StrictInteger(validate=validate.Range(min=1))
    resolve_for = StrictInteger(validate=validate.Range(min=0, max=7), metadata={
        "description": "referee only: decide for this seat; type 'default' applies the rule's default"})
    # with resolve_for: why the referee decides before the seat's decision has stalled (HERALD_STALL_SECONDS);
    # recorded in the event and shown to the seat
    reason = Reason(500)


PLATFORM_KEYS = PlatformKeys()


class DefaultMoveSchema(PlatformKeys):
    """The referee applies the rule's default for a stalled seat (with resolve_for)."""

    type = fields.String(required=True, validate=validate.OneOf([DEFAULT]))


class MoveBody(ma.Schema):
    """Any JSON object: the move is checked once the match, and so its game, is known (read_move)."""

    class Meta:
        unknown = ma.INCLUDE


def component(name: str, kind: str = "Move") -> str:
    """The OpenAPI component of a game's moves or views, e.g. SomeGameMove or SomeGameView for some_game."""
    return "".join(part.title() for part in name.split("_")) + kind


@cache
def move_schema(name: str) -> ma.Schema:
    """A game's move schema with the platform's keys; move_schema(DEFAULT) is the referee's default move."""
    if name == DEFAULT:
        return DefaultMoveSchema()
    game_moves = GAMES[name].move_schema
    return type(component(name), (game_moves, PlatformKeys), {"__doc__": game_moves.__doc__})()


def read_move(game_name: str, body: dict) -> dict:
    """The body checked by the game's schema: 400 with each field's error if no game's schema takes it, 422 if only
    another game's does (it is a move, not one of this game)."""
    name = DEFAULT if body.get("type") == DEFAULT else game_name
    try:
        return _load(name, body)
    except ma.ValidationError as error:
        if any(not move_schema(other).validate(body) for other in GAMES if other != game_name):
            fail(422, f"this is not a move of {game_name}: {said(error.messages)}")
        abort(400, errors=error.messages)


def _load(name: str, body: dict) -> dict:
    """The move schema's load of a body. The move's own keys are read once and kept (keyed by each value's class too:
    1, 1.0 and True are three keys), the platform's (expected_version changes every move) each time; a body holding a
    list or an object, or one refused, is read whole by the schema, which says all that it refuses."""
    typed = tuple((key, value.__class__, value) for key, value in body.items() if key not in PLATFORM_KEYS.fields)
    try:
        move = _taken(name, typed)
    except (TypeError, ma.ValidationError):  # TypeError: no hash, a value is a list or an object
        return move_schema(name).load(body)
    platform = {key: body[key] for key in PLATFORM_KEYS.fields if key in body}
    return {**PLATFORM_KEYS.load(platform), **move} if platform else dict(move)  # in the schema's order


@lru_cache(maxsize=8192)  # moves repeat from match to match, so most are read by the schema once
def _taken(name: str, typed: tuple) -> dict:
    """What the game's move schema makes of a move's own flat keys, kept: the schema is a pure function of the body
    (no hooks, no context, no defaults: docs/ADDING_A_GAME.md), and its load is costly, most of it spent on the
    fields a move does not have."""
    return move_schema(name).load({key: value for key, _, value in typed})


def record_move(matches, match, role, body: dict, stall: int):
    """Check a posted move against the match's game and the holder's role, then referee and record it in `matches`
    (domain.matches.Matches.play): the match after it and its new events. Every refusal (an HTTP error, or the
    domain's) comes before anything is recorded. The first step of the move command, service.app.Herald.play."""
    body = read_move(match.game_name, body)  # which keys a move may have depends on the match's game
    expected = body.pop("expected_version", None)
    resolve_for = body.pop("resolve_for", None)
    reason = body.pop("reason", None)
    if role == REFEREE and resolve_for is None:
        fail(403, "the referee plays no moves; it settles a stalled decision with \"resolve_for\": seat")
    if role != REFEREE and resolve_for is not None:
        fail(403, "only the referee may decide for another seat")
    if role != REFEREE and body["type"] == "default":
        fail(422, "only the referee may apply a rule's default")
    if role != REFEREE and reason is not None:
        fail(422, "a reason goes with the referee's resolve_for only")
    if role == REFEREE and reason is None:
        check_stalled(match, resolve_for, body, stall)
    seat = role if resolve_for is None else resolve_for
    return matches.play(match.id, seat, body, expected, by_referee=role == REFEREE, loaded=match, reason=reason)


def check_stalled(match, seat: int, move: dict, stall: int) -> None:
    """422 unless the seat's decision has waited HERALD_STALL_SECONDS since the match's last event: before that, the
    referee decides for it only with a reason, so that an organiser cannot quietly play a player's match. What the
    game lets a referee record at any time (a card seen by mistake at a table) needs none."""
    game = match.game
    if not 0 <= seat < len(match.created["players"]) or not game.legal_moves(match.state, seat):
        return  # no such seat, or no decision of its pending: the match refuses it, saying so
    if game.referee_moves and move in game.referee_moves(match.state, seat):
        return
    waited = (datetime.now(UTC) - match.modified_on).total_seconds()
    if waited < stall:
        fail(422, f"this decision has waited {int(waited)} s, less than the {stall} s after which it has stalled "
                  "(HERALD_STALL_SECONDS): give a \"reason\" to decide for the seat now; it is recorded and shown "
                  "to the seat")


def document_games(spec) -> None:
    """Each game's moves and views, and the default move, as components of /openapi.json."""
    for name in [*GAMES, DEFAULT]:
        spec.components.schema(component(name), schema=move_schema(name))
    for name in GAMES:
        spec.components.schema(component(name, "View"), schema=view_schema(name))


def view_schema(name: str) -> ma.Schema:
    """A game's view schema whose `game` can only be that game's name, so one view fits one of the games' views."""
    game_view = GAMES[name].view_schema
    game = fields.String(required=True, validate=validate.OneOf([name]), metadata={"description": "the game's name"})
    return type(component(name, "View"), (game_view,), {"game": game, "__doc__": game_view.__doc__})()


def view_response(description: str) -> dict:
    """A view route's 200 response as OpenAPI documents it: the view of the match's game, told by its `game`."""
    views = {name: f"#/components/schemas/{component(name, 'View')}" for name in GAMES}
    schema = {"oneOf": [{"$ref": ref} for ref in views.values()],
              "discriminator": {"propertyName": "game", "mapping": views}}
    return {200: {"description": description, "content": {"application/json": {"schema": schema}}}}


def move_body() -> dict:
    """POST /moves' body as OpenAPI documents it: a move of any game, or the referee's default move."""
    schema = {"anyOf": [{"$ref": f"#/components/schemas/{component(name)}"} for name in [*GAMES, DEFAULT]]}
    return {"required": True, "content": {"application/json": {"schema": schema}}}
