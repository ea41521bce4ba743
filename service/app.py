"""The Flask application factory."""
from __future__ import annotations

import logging
from dataclasses import dataclass

import orjson
from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from redis.exceptions import RedisError
from werkzeug.exceptions import RequestEntityTooLarge

from domain.match import Match
from domain.matches import Matches
from domain.tournaments import desk
from projections.connection import PAUSE, TIMEOUT, connect, describe, embedded_url
from projections.projector import REQUEST_LIMIT, Projector
from service.clock_routes import blp as clocks
from service.config import Settings
from service.console import console, protect_forms
from service.decklist_routes import blp as decklists
from service.docs import BEARER_SCHEME, SWAGGER_UI, assets
from service.fairness_routes import blp as fairness
from service.history_routes import blp as history
from service.hot_path import HotPath
from service.import_routes import MAX_LOG
from service.import_routes import blp as importing
from service.limits import limit_creation
from service.moves import document_games, record_move
from service.problems import REFUSED, ProblemApi, answer_refusals, problem_response, refuse_deep
from service.routes import blp, health
from service.stream_routes import blp as streams
from service.tournament_routes import blp as tournaments
from service.whoami_routes import blp as whoami

log = logging.getLogger("herald")


@dataclass
class Herald:
    """What the routes use: the event-sourced matches, the projector and where they live; and the commands that do
    more than one of them (play: a move recorded, its tournament told, the views brought up to date)."""

    matches: Matches
    projector: Projector
    redis: object
    event_store: str
    redis_description: str
    project_inline: bool = True
    stall_seconds: int = 300  # how long a decision waits before the referee may decide it without a reason

    def play(self, match: Match, role, body: dict, refusal: type[Exception] | None = None) -> tuple[Match, list[dict]]:
        """The move command, the one path of a posted move (POST /moves' route and service/hot_path.py alike): the
        move checked against the holder's role and recorded (service.moves.record_move, every refusal before anything
        is recorded), then told to the match's tournament and the views (changed). The match after it and its new
        events. `refusal`, where given, is raised instead of a refusal (the hot path: the Flask app answers those); an
        error once the move is recorded is raised as it is."""
        try:
            match, recorded = record_move(self.matches, match, role, body, self.stall_seconds)
        except REFUSED:
            if refusal is None:
                raise
            raise refusal from None
        self.changed(match)
        return match, recorded

    def changed(self, match: Match) -> None:
        """After a command changed a match: a finished match's result taken into its tournament at once
        (desk.finished), then the views brought up to date with this process's own events."""
        desk.finished(self.matches, match)
        self.refresh(own=True)

    def refresh(self, own: bool = False) -> bool:
        """Bring the views up to date, unless `herald project` does (it is woken after this request's commands); True
        once they are. `own`: only up to the last event this process recorded, taken from memory where it follows the
        views' position (Projector.catch_up). Best effort: it never fails a request (the move is already committed),
        errors are logged, and it never holds one long (at most REQUEST_LIMIT notifications a request, even to refill
        an emptied Redis). Reads never depend on it: a view older than the log is recomputed from the event store."""
        if not self.project_inline:
            if own:
                try:
                    self.projector.nudge()
                except RedisError as error:
                    log.debug("projectors not woken, Redis unreachable: %s", error)
            return True
        try:
            return self.projector.catch_up(limit=REQUEST_LIMIT, own=own) < REQUEST_LIMIT
        except RedisError as error:
            log.debug("views not updated, Redis unreachable: %s", error)  # the breaker warns once per outage
        except Exception:  # a projection fault must not turn a recorded move into an error
            log.exception("views not updated: the projection failed; the next catch-up tries again")
        return False


def build(settings: Settings, pause: float = PAUSE, timeout: float = TIMEOUT) -> Herald:
    """The event store and the Redis at REDIS_URL, else the embedded one under DATA_DIR (see projections.connection)."""
    store_env = settings.event_store_env()
    matches = Matches.open(store_env)
    url = settings.redis_url or embedded_url(settings.data_dir)
    client = connect(url, pause, timeout)
    return Herald(matches, Projector(matches, client), client, settings.describe_event_store(store_env), describe(url),
                  settings.project_inline, settings.stall_seconds)


class OrjsonProvider(DefaultJSONProvider):
    """Answers (jsonify) written by orjson, several times faster; what orjson refuses (a lone surrogate, an integer
    over 64 bits) by Flask's own writer, as are templates' JSON and all reading."""

    def response(self, *args, **kwargs):
        return self._app.response_class(self.encode(self._prepare_response_obj(args, kwargs)), mimetype=self.mimetype)

    def encode(self, obj) -> bytes:
        """An answer's body."""
        try:
            return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:
            return self.dumps(obj).encode()


def create_app(settings: Settings | None = None, context: Herald | None = None) -> Flask:
    settings = settings or Settings()
    app = Flask("herald")
    app.json = OrjsonProvider(app)
    app.config.update(
        API_TITLE="Herald",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        **SWAGGER_UI,
        MAX_CONTENT_LENGTH=MAX_LOG,
        HERALD_ADMIN_KEY=settings.admin_key,
        HERALD_STALL_SECONDS=settings.stall_seconds,
        HERALD_STREAM_SEND_TIMEOUT=settings.stream_send_timeout,
    )

    @app.before_request
    def limit_body():
        """Moves and other requests are small, only an imported log may be large; none may nest deeply."""
        if request.content_length and request.content_length > settings.max_body and \
                not request.path.endswith("/import"):
            raise RequestEntityTooLarge(f"the body is over {settings.max_body} bytes")
        refuse_deep(request.get_data(cache=True))

    app.extensions["herald"] = context or build(settings)
    @app.errorhandler(RedisError)
    def redis_unreachable(error):
        return problem_response(503, "Service Unavailable", "the view store (Redis) is unreachable; moves are still "
                                "accepted and views are served from the event store", {"Retry-After": "5"})

    answer_refusals(app)
    api = ProblemApi(app)
    api.spec.components.security_scheme("bearer", BEARER_SCHEME)
    document_games(api.spec)
    app.register_blueprint(assets)
    api.register_blueprint(blp)
    api.register_blueprint(fairness)
    api.register_blueprint(clocks)
    api.register_blueprint(streams)
    api.register_blueprint(history)
    api.register_blueprint(importing)
    api.register_blueprint(health)
    api.register_blueprint(decklists)
    api.register_blueprint(tournaments)
    api.register_blueprint(whoami)
    limit_creation(app, settings)  # matches, tournaments and registrations per client address (service/limits.py)
    app.register_blueprint(console)
    protect_forms(app, settings.data_dir)  # CSRF tokens and Origin checks on the console's forms
    app.wsgi_app = HotPath(app.wsgi_app, app, settings.max_body)
    return app
