"""Limits on creation: how many matches, tournaments and registrations one client address may create (each counted
apart, HERALD_CREATE_LIMIT in a moving window), counted by flask-limiter in the app's Redis so that the limit holds
across worker processes. Only what was created counts: a refused request uses up nothing.

While Redis is down each worker counts in its own memory (flask-limiter's in-memory fallback) rather than answering
503: creations are recorded in the event store, which is up, and a limit held by each worker still bounds a flood."""
from __future__ import annotations

import math
import time

from flask import request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many

from service.config import Settings
from service.problems import Blueprint, problem_response

CREATES = "herald_creates"  # the attribute naming what a route's method creates
TOO_MANY = {429: "TOO_MANY_REQUESTS"}  # the problem document service.problems.ProblemApi declares for 429


def creates(what: str):
    """A route's method that creates `what` (as a refusal names it: "matches created"), limited by limit_creation;
    its 429 answer documented."""

    def mark(method):
        method = Blueprint.doc(responses=TOO_MANY)(method)
        setattr(method, CREATES, what)
        return method

    return mark


def limit_creation(app, settings: Settings) -> None:
    """Limit the methods of the app's views marked by `creates` per client address, in the Redis the app's views use;
    a limit refused answers 429 with Retry-After. ValueError at start-up if HERALD_CREATE_LIMIT is no limit."""
    parse_many(settings.create_limit)
    pool = app.extensions["herald"].redis.connection_pool
    limiter = Limiter(get_remote_address, app=app, strategy="moving-window", storage_uri="redis://",
                      storage_options={"connection_pool": pool, "key_prefix": "herald-limits"},
                      in_memory_fallback_enabled=True, swallow_errors=True)
    limited = set()
    for endpoint, view in list(app.view_functions.items()):
        kind = getattr(view, "view_class", None)
        for method in getattr(kind, "methods", None) or ():
            what = getattr(getattr(kind, method.lower(), None), CREATES, None)
            if what:
                limited.add(endpoint)
                app.view_functions[endpoint] = limiter.limit(
                    settings.create_limit, methods=[method], deduct_when=lambda response: response.status_code == 201,
                    error_message=f"too many {what} from your address")(view)
    limiter.request_filter(lambda: request.endpoint not in limited)  # other requests skip its look-ups

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded):
        wait = max(1, math.ceil(limiter.current_limit.reset_at - time.time()))
        return problem_response(429, "Too Many Requests", f"{error.description} (at most {error.limit.limit}): try "
                                f"again in {wait} s", {"Retry-After": str(wait)})
