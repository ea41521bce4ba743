"""A fast path for the two requests of nearly every move, POST /matches/<id>/moves and GET /matches/<id>/legal-moves:
answered before Flask's request machinery when plainly well formed (a JSON body within the size and depth limits, a
query the route's schema takes, a bearer token of the match, a move its game's schema takes and its rules allow).

Anything else, and every refusal, goes on to the Flask app, which meets it afresh (nothing is recorded before a
refusal). A move still takes the one command path, Herald.play (service/app.py), and service/routes.py builds the
answer; the routes stay documented by flask-smorest. Figures: bench/README.md."""
from __future__ import annotations

import functools
import io
import json
import logging
import re
from urllib.parse import parse_qs

from werkzeug.exceptions import HTTPException, InternalServerError

from service.access import token_in
from service.problems import REFUSALS, REFUSED, problem_response, refuse_deep, refused
from service.routes import legal_answer, move_result
from service.schemas import MoveQuerySchema

log = logging.getLogger("herald")

ROUTE = re.compile(r"/matches/([A-Fa-f0-9]{8}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{4}-[A-Fa-f0-9]{12})"
                   r"/(moves|legal-moves)")
REFUSALS_AFTER = tuple(REFUSALS)
MOVE_QUERY = MoveQuerySchema()


class Declined(Exception):
    """The request is not plain: the Flask app answers it."""


class HotPath:
    """WSGI middleware in front of the Flask app's wsgi_app (so the test client goes through it too)."""

    def __init__(self, app, flask_app, max_body: int):
        self.app, self.flask_app, self.max_body = app, flask_app, max_body

    def __call__(self, environ, start_response):
        found = ROUTE.fullmatch(environ.get("PATH_INFO", ""))
        route = found and {("POST", "moves"): self.moves, ("GET", "legal-moves"): self.legal_moves}.get(
            (environ.get("REQUEST_METHOD"), found[2]))
        if not route:
            return self.app(environ, start_response)
        try:
            answer = route(environ, found[1])
        except Declined:
            return self.app(environ, start_response)
        except REFUSALS_AFTER as error:  # after the move was recorded (by its tournament's desk): as the routes answer
            return refused(error)(environ, start_response)
        except Exception:  # after the move was recorded: as the Flask app answers an error it did not expect
            log.exception("%s %s failed", environ["REQUEST_METHOD"], environ["PATH_INFO"])
            error = InternalServerError()
            return problem_response(error.code, error.name, error.description)(environ, start_response)
        body = self.flask_app.json.encode(answer)
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]

    @property
    def context(self):
        return self.flask_app.extensions["herald"]

    def held(self, environ, match_id: str, command: bool = False):
        """The match and the bearer's role in it; Declined for an unknown match or token. For a command, the match as
        this worker holds it (Matches.held: the command checks it against the store)."""
        token = token_in(environ.get("HTTP_AUTHORIZATION", ""))
        if token is None:
            raise Declined
        try:
            matches = self.context.matches
            match = matches.held(match_id) if command else matches.load(match_id, for_reading=True)
        except REFUSED:
            raise Declined from None
        role = self.context.matches.role_of(match, token)
        if role is None:
            raise Declined
        return match, role

    def legal_moves(self, environ, match_id: str) -> dict:
        if environ.get("QUERY_STRING") or environ.get("CONTENT_LENGTH", "0") not in ("", "0") or \
                environ.get("HTTP_TRANSFER_ENCODING"):  # a body, which the app's depth check reads
            raise Declined
        return legal_answer(*self.held(environ, match_id))

    def moves(self, environ, match_id: str) -> dict:
        include = self.include(environ.get("QUERY_STRING", ""))
        body = self.body(environ)
        match, role = self.held(environ, match_id, command=True)
        match, recorded = self.context.play(match, role, body, refusal=Declined)  # a refusal: the Flask app answers it
        return move_result(match, role, recorded, include)

    @staticmethod
    @functools.lru_cache(maxsize=64)  # a client asks the same few queries again and again
    def include(query: str) -> str:
        """The query's include, as the route's schema takes it; Declined for anything else."""
        if not query:
            return ""
        fields = parse_qs(query, keep_blank_values=True)
        if list(fields) != ["include"] or len(fields["include"]) != 1 or MOVE_QUERY.validate(
                {"include": fields["include"][0]}):
            raise Declined
        return fields["include"][0]

    def body(self, environ) -> dict:
        """The JSON object posted, read as the Flask app reads it; Declined (the body kept for the app to read) unless
        it is one within the limits."""
        if environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() != "application/json":
            raise Declined
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise Declined from None
        if not 0 < length <= self.max_body:
            raise Declined
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(raw)
        try:
            refuse_deep(raw)  # the app's own depth check, before anything parses the body
            body = json.loads(raw.decode("utf-8"))
        except (HTTPException, ValueError):  # too deep; not UTF-8 or not JSON (both ValueErrors)
            raise Declined from None
        if not isinstance(body, dict):
            raise Declined
        return body
