"""Errors as RFC 9457 application/problem+json with a reason a player understands, and documented as such."""
from __future__ import annotations

import http
import json

import flask_smorest
import marshmallow as ma
from flask import Response
from flask_smorest import Api, abort
from flask_smorest.utils import prepare_response
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from domain.errors import IllegalMove
from domain.matches import UnknownMatch, VersionConflict
from domain.tournaments.desk import ResultsMissing, UnknownTournament
from replays.verify import too_deep

PROBLEM = "application/problem+json"
BEARER = [{"bearer": []}]


class ProblemSchema(ma.Schema):
    """An error: what went wrong and why, in words a player understands."""

    type = ma.fields.String(metadata={"example": "about:blank"})
    title = ma.fields.String(metadata={"example": "Unprocessable Entity"})
    status = ma.fields.Integer(metadata={"example": 422})
    detail = ma.fields.String(metadata={"example": "it is Bo's turn (seat 1)"})
    errors = ma.fields.Raw(metadata={"description": "400 only: what is wrong with each field of the body or query"})


class ProblemApi(Api):
    """flask-smorest's Api, answering and documenting every HTTP error as a problem document."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException):
        data = getattr(error, "data", None) or {}
        extra = {"errors": errors} if (errors := field_errors(error)) else {}
        headers = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
        headers.update(data.get("headers") or {})
        return problem_response(error.code, error.name, detail_of(error), headers, **extra)

    def _register_responses(self):
        """flask-smorest's error responses, one for each status and a default, as application/problem+json."""
        statuses = [(status.name, status.phrase) for status in http.HTTPStatus if status >= 400]
        for name, description in [*statuses, (self.DEFAULT_ERROR_RESPONSE_NAME, "An error, as a problem document")]:
            response = {"description": description, "schema": self.ERROR_SCHEMA}
            prepare_response(response, self.spec, PROBLEM)
            self.spec.components.response(name, response, lazy=True)


def field_errors(error: HTTPException):
    """What a schema refused in each field of the body or query (abort(400, errors=...)), or None."""
    data = getattr(error, "data", None) or {}
    errors = data.get("errors") or data.get("messages")
    return errors.get("json", errors) if isinstance(errors, dict) else errors


def detail_of(error: HTTPException) -> str:
    """An HTTP refusal's reason: fail()'s detail, else what a schema refused, else werkzeug's description."""
    data = getattr(error, "data", None) or {}
    errors = field_errors(error)
    return data.get("message") or (f"the request is not valid: {said(errors)[:500]}" if errors else error.description)


def said(errors) -> str:
    """marshmallow's error messages in one line: "field: message; other.0: message"."""
    if isinstance(errors, dict):
        return "; ".join(f"{key}: {said(value)}" for key, value in errors.items())
    if isinstance(errors, list):
        return " ".join(said(error) for error in errors)
    return str(errors)


class JsonBodyParser(FlaskParser):
    """webargs' parser, refusing a body sent as anything but JSON with 415 (not as if it were missing)."""

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req):
        if req.get_data(cache=True) and not is_json_request(req):
            fail(415, "send the body as JSON, with the header 'Content-Type: application/json'")
        return super()._raw_load_json(req)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with JSON bodies checked by JsonBodyParser; with security=BEARER every operation
    is documented as needing a token, unless it says @blp.doc(security=[])."""

    ARGUMENTS_PARSER = JsonBodyParser()

    def __init__(self, *args, security: list | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.security = security
        self._prepare_doc_cbks.append(self._prepare_security_doc)

    def _prepare_security_doc(self, doc, doc_info, **kwargs):
        if self.security:
            doc.setdefault("security", self.security)
        return doc


def refuse_deep(body: bytes) -> None:
    """400 for a body nested too deeply to parse safely, before anything parses it (replays.verify.too_deep)."""
    reason = too_deep(body.decode("latin-1"))  # one character a byte: every bracket and quote is where it was
    if reason:
        fail(400, f"the body is refused unread: {reason}")


def problem(status: int, title: str, detail: str, **extra) -> str:
    """The problem document (JSON text)."""
    return json.dumps({"type": "about:blank", "title": title, "status": status, "detail": detail, **extra})


def problem_response(status: int, title: str, detail: str, headers: dict | None = None, **extra) -> Response:
    return Response(problem(status, title, detail, **extra), status=status, headers=headers or {}, mimetype=PROBLEM)


REFUSALS = {  # a refusal of the domain -> its status and detail (the first class it is an instance of)
    ResultsMissing: (409, str),  # a round paired while tables of the last one are playing
    IllegalMove: (422, str),  # not legal now, with the reason
    VersionConflict: (409, str),  # a stale expected_version, or another change recorded at the same time
    UnknownMatch: (404, lambda error: f"no match has the id {error.args[0]}"),
    UnknownTournament: (404, lambda error: f"no tournament has the id {error.args[0]}"),
}

REFUSED = (HTTPException, *REFUSALS)  # every refusal of a request: a problem answered, nothing recorded


def status_and_reason(error: Exception) -> tuple[int, str]:
    """A refusal's status and reason (any of REFUSED): an HTTP refusal's own, a domain one's as REFUSALS says."""
    if isinstance(error, HTTPException):
        return error.code, detail_of(error)
    status, detail = next(answer for kind, answer in REFUSALS.items() if isinstance(error, kind))
    return status, detail(error)


def refused(error: Exception) -> Response:
    """A refusal of the domain as its problem document (REFUSALS); nothing was recorded."""
    status, reason = status_and_reason(error)
    return problem_response(status, HTTP_STATUS_CODES[status], reason)


def answer_refusals(app) -> None:
    """Every route answers the domain's refusals the same way, without catching them itself."""
    for kind in REFUSALS:
        app.register_error_handler(kind, refused)


def fail(status: int, detail: str):
    """Stop the request with a problem response."""
    abort(status, message=detail)
