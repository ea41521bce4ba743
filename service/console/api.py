"""The console calls the API's own operations in process, the functions its routes call, with the signed-in token:
a page shows only what the API answers that token, and every action is read by the API's own schema and meets its
own checks and refusals. It does not call HTTP: a call to its own server would cost each page a round trip and a
worker (a synchronous worker calling itself can wait on itself)."""
from __future__ import annotations

import marshmallow as ma

from service.problems import REFUSED, said, status_and_reason


class Refused(Exception):
    """The API said no: its status and its reason, as a player reads it."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def call(operation, *args):
    """What an API operation answers; Refused, with the status and reason the API would answer, if it refuses."""
    try:
        return operation(*args)
    except REFUSED as error:
        raise Refused(*status_and_reason(error)) from None


def checked(schema: ma.Schema, body: dict) -> dict:
    """A body as the API's schema reads it; Refused (400) with each field's error, as the API answers it."""
    try:
        return schema.load(body)
    except ma.ValidationError as error:
        raise Refused(400, f"the request is not valid: {said(error.messages)[:500]}") from None
