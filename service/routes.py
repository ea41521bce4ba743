"""The matches API: create and list matches, views, legal moves, moves and the event log. A move is one command of the
application (service.app.Herald.play), its answer built by move_result; service/hot_path.py answers the plainly
well-formed POST /moves and GET /legal-moves in front of Flask with the same command and functions."""
from __future__ import annotations

from flask import jsonify
from flask.views import MethodView
from redis.exceptions import RedisError

from domain.matches import REFEREE
from projections.projector import summary
from service import schemas
from service.access import herald, holding, load
from service.limits import creates
from service.moves import MoveBody, move_body, view_response
from service.problems import BEARER, Blueprint, fail

blp = Blueprint("matches", __name__, description="Refereed matches", security=BEARER)


def summary_of(match) -> dict:
    """A match's public summary computed from the event store."""
    return summary({"created": match.created, "state": match.state, "version": match.version,
                    "created_on": match.created_on.isoformat()})


def current_summary(match) -> dict:
    """The match's public summary from Redis when it is up to date, else computed from the event store."""
    herald().refresh()
    try:
        found = herald().projector.summary(match.id)
    except RedisError:
        found = None
    return found if found is not None and found["version"] == match.version else summary_of(match)


def current_view(match, role) -> dict:
    """The holder's view from Redis when it is up to date, else computed from the event store: never stale."""
    herald().refresh()
    try:
        shown = herald().projector.view(match.id, role)
    except RedisError:
        shown = None
    if shown is None or shown["version"] != match.version:
        shown = fresh_view(match, role)
    return shown


def holders_moves(match, role) -> list[dict]:
    """Every move the holder may make now: none for the referee, who plays none."""
    return [] if role == REFEREE else match.game.legal_moves(match.state, role)


def fresh_view(match, role) -> dict:
    """The holder's view computed from the loaded match."""
    return match.game.view_at(match.state, role, match.version, match.chain)


def shown_log(match, role, events: list[dict]) -> list[dict]:
    """Events as the holder may see them: the referee and a finished match see all."""
    return [{**e, "payload": match.redact(e["type"], e["payload"], role)} for e in events]


def legal_answer(match, role) -> dict:
    """GET /legal-moves' answer."""
    return {"version": match.version, "moves": holders_moves(match, role)}


def move_result(match, role, recorded: list[dict], include: str) -> dict:
    """POST /moves' answer to a move the application has recorded (Herald.play): the new events as the holder may see
    them, and the view and legal moves where `include` asks for them."""
    answer = {"version": match.version, "chain_head": match.chain, "events": shown_log(match, role, recorded),
              "status": match.state["status"], "awaiting_seat": match.game.awaiting(match.state)}
    included = include.split(",")
    if "view" in included:
        answer["view"] = fresh_view(match, role)
    if "legal_moves" in included:
        answer["legal_moves"] = holders_moves(match, role)
    return answer


@blp.route("/matches")
class MatchList(MethodView):
    @blp.doc(security=[])
    @blp.arguments(schemas.MatchQuerySchema(), location="query")
    @blp.response(200, schemas.SummarySchema(many=True))
    def get(self, query):
        """List matches, optionally only those with a given status."""
        herald().refresh()
        return jsonify(herald().projector.list(query.get("status")))

    @creates("matches created")
    @blp.doc(security=[], requestBody=schemas.create_match_body())
    @blp.arguments(schemas.CreateMatchSchema())
    @blp.response(201, schemas.CreatedSchema)
    def post(self, body):
        """Create a match; each seat's token and the referee's are shown only in this response."""
        match, tokens = herald().matches.create(body["game"], body["players"], body["options"],
                                                body["await_client_seeds"])
        herald().refresh()
        seats = [{"seat": i, "name": p["name"], "token": t}
                 for i, (p, t) in enumerate(zip(body["players"], tokens["seats"]))]
        return {"match_id": str(match.id), "game": match.game_name, "version": match.version,
                "status": match.state["status"],
                "seed_commitment": match.created["seed_commitment"], "seats": seats,
                "referee_token": tokens[REFEREE]}


@blp.route("/matches/<uuid:match_id>")
class MatchSummary(MethodView):
    @blp.doc(security=[])
    @blp.response(200, schemas.SummarySchema)
    def get(self, match_id):
        """A match's public summary."""
        return jsonify(current_summary(load(match_id)))


@blp.route("/matches/<uuid:match_id>/view")
class MatchView(MethodView):
    @blp.doc(responses=view_response("the holder's view"))
    @holding
    def get(self, match, role):
        """The holder's view: its own hand, never another seat's, nor the pile order (referee: everything)."""
        return jsonify(current_view(match, role))


@blp.route("/matches/<uuid:match_id>/spectator-view")
class SpectatorView(MethodView):
    @blp.doc(security=[], responses=view_response("the spectator's view"))
    def get(self, match_id):
        """What anyone may watch, no token needed: the table as every seat sees it, with no hand and no pile order."""
        return jsonify(current_view(load(match_id), None))


@blp.route("/matches/<uuid:match_id>/legal-moves")
class LegalMoves(MethodView):
    @blp.response(200, schemas.LegalMovesSchema)
    @holding
    def get(self, match, role):
        """Every move the holder may make now, each exactly as POST /moves accepts it."""
        return jsonify(legal_answer(match, role))


@blp.route("/matches/<uuid:match_id>/moves")
class Moves(MethodView):
    @blp.doc(requestBody=move_body())
    @blp.arguments(MoveBody())
    @blp.arguments(schemas.MoveQuerySchema(), location="query")
    @blp.response(200, schemas.MoveResultSchema)
    @holding
    def post(self, body, query, match, role):
        """Play a move. 409 if expected_version is stale, 422 with the reason if it is not legal now."""
        match, recorded = herald().play(match, role, body)
        return jsonify(move_result(match, role, recorded, query.get("include", "")))


@blp.route("/matches/<uuid:match_id>/events")
class Events(MethodView):
    @blp.response(200, schemas.EventsSchema)
    @holding
    def get(self, match, role):
        """The match's log; a seat sees it redacted (no other seat's secret cards, no pile order)."""
        events = shown_log(match, role, herald().matches.history(match.id))
        return jsonify({"match_id": str(match.id), "version": match.version, "events": events})


health = Blueprint("health", __name__, description="Service health")


@health.route("/health")
class Health(MethodView):
    @health.response(200, schemas.HealthSchema)
    def get(self):
        """The event store and the Redis this server uses."""
        context = herald()
        try:
            context.redis.ping()
        except RedisError as error:
            fail(503, f"Redis does not answer: {error}")
        return {"status": "ok", "event_store": context.event_store, "redis": context.redis_description}
