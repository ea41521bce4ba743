"""The Flask application factory."""
from __future__ import annotations

import logging
from dataclasses import dataclass

from flask import Flask, request
from redis.exceptions import RedisError
from werkzeug.exceptions import RequestEntityTooLarge

from domain.matches import Matches
from projections.connection import connect
from projections.projector import Projector
from service.config import Settings
from service.fairness_routes import blp as fairness
from service.history_routes import blp as history
from service.import_routes import MAX_LOG
from service.import_routes import blp as importing
from service.problems import ProblemApi, problem_response

log = logging.getLogger("herald")
from service.routes import blp, health


@dataclass
class Herald:
    """What the routes use: the event-sourced matches, the projector and where they live."""

    matches: Matches
    projector: Projector
    redis: object
    event_store: str
    redis_description: str
    project_inline: bool = True

    def refresh(self) -> bool:
        """Bring the views up to date, unless `herald project` does; with Redis unreachable the move still
        stands and views catch up later. Reads never depend on it: a view older than the log is recomputed."""
        if not self.project_inline:
            return True
        try:
            self.projector.catch_up()
            return True
        except RedisError as error:
            log.warning("views not updated, Redis unreachable: %s", error)
            return False


def build(settings: Settings) -> Herald:
    store_env = settings.event_store_env()
    matches = Matches(env=store_env)
    client, described = connect(settings.data_dir, settings.redis_url)
    return Herald(matches, Projector(matches, client), client, settings.describe_event_store(store_env), described,
                  settings.project_inline)


def create_app(settings: Settings | None = None, context: Herald | None = None) -> Flask:
    settings = settings or Settings()
    app = Flask("herald")
    app.config.update(
        API_TITLE="Herald",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        MAX_CONTENT_LENGTH=MAX_LOG,
        HERALD_ADMIN_KEY=settings.admin_key,
    )

    @app.before_request
    def limit_body():
        """Moves and other requests are small; only an imported log may be large."""
        if request.content_length and request.content_length > settings.max_body and \
                not request.path.endswith("/import"):
            raise RequestEntityTooLarge(f"the body is over {settings.max_body} bytes")

    app.extensions["herald"] = context or build(settings)
    @app.errorhandler(RedisError)
    def redis_unreachable(error):
        return problem_response(503, "Service Unavailable", "the view store (Redis) is unreachable; moves are still "
                                "accepted and views are served from the event store", {"Retry-After": "5"})

    api = ProblemApi(app)
    api.register_blueprint(blp)
    api.register_blueprint(fairness)
    api.register_blueprint(history)
    api.register_blueprint(importing)
    api.register_blueprint(health)
    return app
