"""Replay, timeline and undo: look at any moment of a match and correct misplays on the record."""
from __future__ import annotations

from flask import jsonify
from flask.views import MethodView

from domain.matches import REFEREE
from domain.timeline import entries
from domain.tournaments import desk
from domain.undo import retracted_flags
from service import schemas
from service.access import herald, holding, load, require_referee, require_seat
from service.fairness_routes import act, backup
from service.moves import view_response
from service.problems import BEARER, Blueprint, fail
from service.routes import shown_log

blp = Blueprint("history", __name__, description="Replay, timeline and undo", security=BEARER)


@blp.route("/matches/<uuid:match_id>/replay")
class Replay(MethodView):
    @blp.arguments(schemas.ReplayQuerySchema(), location="query")
    @blp.doc(responses=view_response("the holder's view at that version"))
    @holding
    def get(self, query, match, role):
        """The holder's view as it was at a version; everything once the match is over and its seed revealed (a
        match of a tournament whose seats brought decklists: once the tournament is over too)."""
        return jsonify(replay_view(match, role, query["version"]))


def replay_view(match, role, version: int) -> dict:
    """GET /replay's answer: the holder's view at a version, and whether an undo retracted it."""
    if version > match.version:
        fail(404, f"the match has no version {version}; it is at version {match.version}")
    past = herald().matches.load(match.id, version=version)
    revealed = match.revealed_seed is not None and not desk.sealed(herald().matches, match)
    viewer = REFEREE if revealed else role  # a running tournament's decklists stay their seats' (RULINGS T12)
    retracted = retracted_flags(version, match.retracted)[version - 1]
    return {**past.game.view_at(past.state, viewer, version, past.chain), "retracted": retracted}


def timeline(match, role) -> list[dict]:
    """The holder's timeline (role None: a spectator's)."""
    return entries(match, herald().matches.history(match.id), role)


@blp.route("/matches/<uuid:match_id>/timeline")
class Timeline(MethodView):
    @blp.response(200, schemas.TimelineEntrySchema(many=True))
    @holding
    def get(self, match, role):
        """One plain English entry per event, redacted for the holder; undone events are marked retracted."""
        return jsonify(timeline(match, role))


@blp.route("/matches/<uuid:match_id>/spectator-timeline")
class SpectatorTimeline(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.TimelineEntrySchema(many=True))
    def get(self, match_id):
        """The timeline as anyone watching reads it, no token needed: no hand, no pile order, no hidden card."""
        return jsonify(timeline(load(match_id), None))


@blp.route("/matches/<uuid:match_id>/undo")
class Undo(MethodView):
    @blp.arguments(schemas.UndoSchema())
    @blp.response(200, schemas.MoveResultSchema)
    @holding
    def post(self, body, match, role):
        """A seat takes back its latest action of this turn; the referee backs the match up to a version."""
        return jsonify(undo(match, role, body))


def undo(match, role, body: dict) -> dict:
    """POST /undo: a seat's take-back or the referee's backup, and the event recording it."""
    match_id = match.id
    if role == REFEREE:
        if "to_version" not in body:
            fail(403, "the referee backs a match up to a version: send to_version; only a seat takes back its own "
                      "latest action")
        match = backup(match_id, body["to_version"], body.get("reason", ""))
    else:
        if "to_version" in body:
            fail(403, "only the referee backs a match up to a version; ask with POST /undo-requests")
        match, _ = act(herald().matches.take_back, match_id, role)
    last = herald().matches.history(match_id, after=match.version - 1, upto=match.version)
    return {"version": match.version, "chain_head": match.chain, "events": shown_log(match, role, last)}


def request_view(request: dict) -> dict:
    return {k: request.get(k) for k in ("request_id", "seat", "to_version", "reason", "status", "answer")}


def undo_requests(match, role) -> list[dict]:
    """Undo requests and their outcome: a seat's own, the referee's all."""
    return [request_view(r) for r in match.undo_requests.values() if role in (REFEREE, r["seat"])]


def ask_undo(match, role, body: dict) -> dict:
    """POST /undo-requests: a seat asks the referee to back the match up to a version."""
    require_seat(role)
    match, request_id = act(herald().matches.request_undo, match.id, role, body["to_version"], body["reason"])
    return request_view(match.undo_requests[request_id])


def answer_undo(match, role, request_id: str, body: dict) -> dict:
    """POST /undo-requests/{id}: the referee approves (a backup) or declines an undo request."""
    require_referee(role)
    request = match.undo_requests.get(request_id)
    if request is None:
        fail(404, f"no undo request {request_id} in this match")
    if body["decision"] == "approve":
        match = backup(match.id, request["to_version"], body.get("reason", ""), request_id)
    else:
        match = act(herald().matches.decline_undo, match.id, request_id, body.get("reason", ""))
    return request_view(match.undo_requests[request_id])


@blp.route("/matches/<uuid:match_id>/undo-requests")
class UndoRequests(MethodView):
    @blp.response(200, schemas.UndoRequestViewSchema(many=True))
    @holding
    def get(self, match, role):
        """Undo requests and their outcome: a seat sees its own, the referee all."""
        return jsonify(undo_requests(match, role))

    @blp.arguments(schemas.UndoRequestSchema())
    @blp.response(201, schemas.UndoRequestViewSchema)
    @holding
    def post(self, body, match, role):
        """A seat asks the referee to back the match up to a version."""
        return jsonify(ask_undo(match, role, body)), 201


@blp.route("/matches/<uuid:match_id>/undo-requests/<request_id>")
class UndoAnswer(MethodView):
    @blp.arguments(schemas.UndoAnswerSchema())
    @blp.response(200, schemas.UndoRequestViewSchema)
    @holding
    def post(self, body, match, role, request_id):
        """The referee approves (a backup) or declines an undo request."""
        return jsonify(answer_undo(match, role, request_id, body))
