"""Errors as RFC 9457 application/problem+json with a reason a player understands."""
from __future__ import annotations

import json

from flask import Response
from flask_smorest import Api, abort
from werkzeug.exceptions import HTTPException

PROBLEM = "application/problem+json"


class ProblemApi(Api):
    """flask-smorest's Api, answering every HTTP error as a problem document."""

    def handle_http_exception(self, error: HTTPException):
        data = getattr(error, "data", None) or {}
        problem = {"type": "about:blank", "title": error.name, "status": error.code,
                   "detail": data.get("message") or error.description}
        errors = data.get("errors") or data.get("messages")
        if errors:
            problem["errors"] = errors.get("json", errors) if isinstance(errors, dict) else errors
            problem["detail"] = data.get("message") or "the request body is not valid: see errors"
        headers = dict(data.get("headers") or {})
        return Response(json.dumps(problem), status=error.code, headers=headers, mimetype=PROBLEM)


def problem_response(status: int, title: str, detail: str, headers: dict | None = None) -> Response:
    problem = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    return Response(json.dumps(problem), status=status, headers=headers or {}, mimetype=PROBLEM)


def fail(status: int, detail: str):
    """Stop the request with a problem response."""
    abort(status, message=detail)
