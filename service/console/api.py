"""The console is a client of Herald's own API, called in process: a page shows only what the API answers to the
same token, and every action goes through the API's own schemas, checks and refusals.

It calls the application, not HTTP (issue 44): a call to its own server would cost each page a round trip and a worker
(a synchronous worker calling itself can wait on itself). Until every page's reads and commands are application methods
shared with the routes, as a move's is (service.app.Herald.play), it calls the API through the Flask test client,
which runs the whole request as a client's would."""
from __future__ import annotations

from flask import current_app


class Refused(Exception):
    """The API said no: its status and its reason, as a player reads it."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def reason_of(document) -> str:
    """A problem document's reason: its detail, and each field's error where a schema refused the input."""
    if not isinstance(document, dict):
        return str(document)
    errors = document.get("errors") or {}
    said = "; ".join(f"{field}: {' '.join(map(str, e)) if isinstance(e, list) else e}"
                     for where in errors.values() for field, e in (where.items() if isinstance(where, dict) else []))
    return document.get("detail") or said or document.get("title", "refused")


def call(method: str, path: str, token: str | None = None, body: dict | None = None, query: dict | None = None):
    """The API's answer (JSON, or text for an export) to one request made with the holder's token; Refused if 4xx."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = current_app.test_client().open(path, method=method, json=body, query_string=query, headers=headers)
    document = response.get_json(silent=True) if response.is_json else response.get_data(as_text=True)
    if response.status_code >= 400:
        raise Refused(response.status_code, reason_of(document))
    return document


def get(path: str, token: str | None = None, **query):
    return call("GET", path, token, query=query or None)


def post(path: str, token: str | None, body: dict | None = None):
    return call("POST", path, token, body=body if body is not None else {})
