"""Herald's gunicorn worker: gevent's, so that a connection costs a greenlet and a buffer, not a thread, however slow
its client.

The app sees a request only once it is whole: its head must arrive within HEAD_SECONDS (also the keep-alive idle limit)
and each read of its body within BODY_IDLE_SECONDS, else a 408 and the connection closed. What gunicorn or the worker
refuses before Flask (a request line or header too large, a body over Herald's largest) is answered with a problem
document (application/problem+json) like every other Herald error, and `Connection: close`."""
from __future__ import annotations

import io
import threading

import gevent
from gevent import monkey
from gunicorn import util
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers.ggevent import GeventWorker

from service.import_routes import MAX_LOG
from service.problems import PROBLEM, problem

HEAD_SECONDS = 5  # for a request's line and headers, and for an idle connection between requests
BODY_IDLE_SECONDS = 10  # the longest a body may send nothing
CONNECTIONS = 4096  # held at once by each worker; more wait in the listen backlog

REFUSED = {
    LimitRequestHeaders: (431, "Request Header Fields Too Large",
                          "the request has too many headers or one too long; send only the token and the content type"),
    LimitRequestLine: (414, "URI Too Long", "the request line (method, path and query) is too long"),
}
TOO_LARGE = (413, "Content Too Large", f"the body is over {MAX_LOG} bytes, the most Herald takes (an imported log)")
STALLED = (408, "Request Timeout", f"the body stopped arriving for {BODY_IDLE_SECONDS} s; send the request again")


def refuse(client, status: int, title: str, detail: str) -> None:
    """Answer a problem document and ask the client to close: what it sent since is never read."""
    body = problem(status, title, detail).encode()
    head = (f"HTTP/1.1 {status} {title}\r\nConnection: close\r\nContent-Type: {PROBLEM}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    try:
        util.write_nonblock(client, head + body)
    except OSError:
        pass  # the client has gone: nothing to tell it


class HeraldWorker(GeventWorker):
    """gunicorn's gevent worker, reading each body whole before the app sees it and refusing as problem documents."""

    def patch(self):
        """gevent's monkey patching (done already by `herald serve`, service/cli.py), except that threading.local stays
        per thread: the SQLite store keeps a connection a thread (store/sqlite.py), which a greenlet's own
        would open anew for every connection. The worker's greenlets share its thread's, which is safe because a
        transaction makes no I/O between its BEGIN and COMMIT, where another greenlet could run."""
        super().patch()
        threading.local = monkey.get_original("threading", "local")

    def handle_exit(self, sig, frame):
        """A graceful stop (SIGTERM): the live streams end at once, their clients resuming on another worker with
        Last-Event-ID, rather than holding the stop until gunicorn's graceful timeout."""
        super().handle_exit(sig, frame)
        live = getattr(getattr(self, "wsgi", None), "extensions", {}).get("herald.live")  # none while booting
        if live is not None:
            gevent.spawn(live.hub.close)  # out of the signal handler

    def handle_request(self, listener_name, req, sock, addr):
        length = next((value for name, value in req.headers if name == "CONTENT-LENGTH"), "")
        if length.isdigit() and int(length) > MAX_LOG:
            refuse(sock, *TOO_LARGE)
            raise StopIteration  # gunicorn's signal to close the connection
        sock.settimeout(BODY_IDLE_SECONDS)
        try:
            body = req.body.read(MAX_LOG + 1)
        except TimeoutError:
            refuse(sock, *STALLED)
            raise StopIteration from None
        finally:
            sock.settimeout(None)
        if len(body) > MAX_LOG:  # a chunked body, which said no length
            refuse(sock, *TOO_LARGE)
            raise StopIteration
        req.body = io.BytesIO(body)
        return super().handle_request(listener_name, req, sock, addr)

    def handle_error(self, req, client, addr, exc):
        refused = REFUSED.get(type(exc))
        if refused is None:
            return super().handle_error(req, client, addr, exc)
        self.log.warning("refused a request from %s: %s", addr, exc)
        refuse(client, *refused)
        return None


def http_parser() -> str:
    """Which parser gunicorn reads requests with, for the startup line: gunicorn_h1c's, in C, where `make` could build
    it and it loads (gunicorn imports it when its http_parser setting is 'auto'), else gunicorn's own, in Python."""
    try:
        import gunicorn_h1c
    except ImportError:  # not installed, or its extension does not load here
        return "requests parsed by gunicorn's Python parser"
    return f"requests parsed in C by gunicorn_h1c {gunicorn_h1c.__version__}"
