"""Live streams of a match (server-sent events): GET /matches/{id}/stream (service/live.py)."""
from __future__ import annotations

import socket

from flask import Response, current_app, request
from flask.views import MethodView

from service import schemas
from service.access import authorize, herald, load
from service.live import Live
from service.problems import Blueprint, fail

STREAM_BUFFER = 32 * 1024  # bytes a stream's socket holds for a client that does not read
blp = Blueprint("streams", __name__, description="Live streams: each change as it happens (server-sent events)")
STREAM = {200: {"description": "text/event-stream: one message a version, its id the version; its data a JSON "
                               "object: version, entry (the holder's /timeline entry), awaiting_seat, clocks where "
                               "the match has them, and on the newest message the holder's view. Heartbeat comments "
                               "keep it open; it ends with the match.",
                "content": {"text/event-stream": {"schema": {"type": "string"}}}}}


def live() -> Live:
    """This app's live streams, made on the first stream."""
    extensions = current_app.extensions
    if "herald.live" not in extensions:
        extensions.setdefault("herald.live", Live(herald()))
    return extensions["herald.live"]


def resumed_from(query: dict, version: int) -> int:
    """The version a stream resumes after: Last-Event-ID (a reconnecting browser's), else ?from=, else 0."""
    given = request.headers.get("Last-Event-ID")
    if given is not None and not given.strip().isdigit():
        fail(400, "Last-Event-ID is a version: a whole number")
    return min(int(given) if given is not None else query.get("from_", 0), version)


def sse_response(text) -> Response:
    """A stream's text (an iterator) as text/event-stream. The socket's send buffer is bounded (STREAM_BUFFER): a
    client that leaves it full for HERALD_STREAM_SEND_TIMEOUT seconds is dropped, its worker's other streams
    unaffected."""
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_BUFFER)
        sock.settimeout(current_app.config["HERALD_STREAM_SEND_TIMEOUT"])
    return Response(text, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def event_stream(match, viewer, query: dict) -> Response:
    """A holder's stream of a match from the version asked for."""
    return sse_response(live().match_stream(match.id, viewer, resumed_from(query, match.version)))


@blp.route("/matches/<uuid:match_id>/stream")
class MatchStream(MethodView):
    @blp.arguments(schemas.StreamQuerySchema(), location="query")
    @blp.doc(responses=STREAM, security=[{}, {"bearer": []}])
    def get(self, query, match_id):
        """Every change of a match as it happens: a seat's or the referee's stream with its token, else a
        spectator's. Resume with Last-Event-ID or ?from=VERSION: nothing lost, nothing repeated."""
        match = load(match_id)
        return event_stream(match, authorize(match) if "Authorization" in request.headers else None, query)
