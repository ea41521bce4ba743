"""Who is asking: the match a route names and the role of the bearer token in it."""
from __future__ import annotations

import functools

from flask import current_app, request
from redis.exceptions import RedisError

from domain.matches import REFEREE, token_hash
from service.problems import fail


def herald():
    """The application context the routes use (service.app.Herald)."""
    return current_app.extensions["herald"]


def load(match_id):
    """The match for reading and authorising (UnknownMatch is a 404); commands reload their own copy."""
    return herald().matches.load(match_id, for_reading=True)


def token_in(header: str) -> str | None:
    """The token of an Authorization header 'Bearer <token>', or None."""
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def bearer() -> str:
    token = token_in(request.headers.get("Authorization", ""))
    if token is None:
        fail(401, "send your seat's or the referee's token as 'Authorization: Bearer <token>'")
    return token


def authorize(match):
    """The holder's role in this match: a seat number or REFEREE."""
    token = bearer()
    role = herald().matches.role_of(match, token)
    if role is not None:
        return role
    try:
        elsewhere = herald().projector.token_owner(token_hash(token))
    except RedisError:
        elsewhere = None
    if elsewhere:
        fail(403, "this token belongs to another match")
    fail(401, "this token is not known: use the token you were given when the match was created")


def holding(view):
    """A route's view called with the loaded match and the bearer's role in it, instead of match_id."""

    @functools.wraps(view)
    def held(self, *args, match_id, **kwargs):
        match = load(match_id)
        return view(self, *args, match=match, role=authorize(match), **kwargs)

    return held


def require_referee(role):
    if role != REFEREE:
        fail(403, "only the referee may do this")


def require_seat(role):
    if role == REFEREE:
        fail(403, "only a seat may do this, with its own token")
