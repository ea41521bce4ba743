"""The matches API: create and list matches, views, legal moves, moves and the event log. service/hot_path.py answers
the plainly well-formed POST /moves and GET /legal-moves in front of Flask, with the same functions (play_move,
move_answer, legal_answer)."""
from __future__ import annotations

from datetime import UTC, datetime

from flask import jsonify
from flask.views import MethodView
from redis.exceptions import RedisError

from domain.matches import REFEREE
from domain.tournaments import desk
from projections.projector import summary
from service import schemas
from service.access import herald, holding, load
from service.limits import creates
from service.moves import MoveBody, move_body, read_move, view_response
from service.problems import BEARER, Blueprint, fail

blp = Blueprint("matches", __name__, description="Refereed matches", security=BEARER)


def summary_of(match) -> dict:
    """A match's public summary computed from the event store."""
    return summary({"created": match.created, "state": match.state, "version": match.version,
                    "created_on": match.created_on.isoformat()})


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


def play_move(context, match, role, body: dict):
    """Check a posted move against the match's game and the holder's role, then referee and record it: the match after
    it and its new events. Every refusal (an HTTP error, or the domain's) comes before anything is recorded."""
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
        check_stalled(match, resolve_for, body, context.stall_seconds)
    seat = role if resolve_for is None else resolve_for
    return context.matches.play(match.id, seat, body, expected, by_referee=role == REFEREE, loaded=match,
                                reason=reason)


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


def move_answer(context, match, role, recorded: list[dict], include: str) -> dict:
    """POST /moves' answer to a recorded move, once its tournament (if any) and the views have been told of it."""
    desk.finished(context.matches, match)
    context.refresh(own=True)
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
        match = load(match_id)
        herald().refresh()
        try:
            found = herald().projector.summary(match_id)
        except RedisError:
            found = None
        if found is None or found["version"] != match.version:
            found = summary_of(match)
        return jsonify(found)


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
        match, recorded = play_move(herald(), match, role, body)
        return jsonify(move_answer(herald(), match, role, recorded, query.get("include", "")))


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
