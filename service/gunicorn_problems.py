"""Herald's gunicorn workers: they refuse an oversized request line or header, which gunicorn refuses before Flask sees
the request, with a problem document (application/problem+json) like every other Herald error, not an HTML page; the
sync worker closes an answered connection at once when the client sent nothing more."""
from __future__ import annotations

import socket

from gunicorn import util
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers.base import Worker
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

from service.problems import PROBLEM, problem

REFUSED = {
    LimitRequestHeaders: (431, "Request Header Fields Too Large",
                          "the request has too many headers or one too long; send only the token and the content type"),
    LimitRequestLine: (414, "URI Too Long", "the request line (method, path and query) is too long"),
}


class ProblemErrors:
    """A gunicorn worker's handle_error, answering REFUSED requests as problem documents."""

    def handle_error(self, req, client, addr, exc):
        refused = REFUSED.get(type(exc))
        if refused is None:
            return super().handle_error(req, client, addr, exc)
        status, title, detail = refused
        self.log.warning("refused a request from %s: %s", addr, exc)
        body = problem(status, title, detail).encode()
        head = (f"HTTP/1.1 {status} {title}\r\nConnection: close\r\nContent-Type: {PROBLEM}\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
        try:
            util.write_nonblock(client, head + body)
        except OSError:
            self.log.debug("could not send the refusal")
        return None


def close_if_drained(client: socket.socket) -> None:
    """Close an answered connection now if nothing the client sent is left unread. gunicorn's graceful close (RFC 9112
    9.6) then finds it closed and returns at once instead of waiting, after its FIN, for the client's (9% of a sync
    worker's samples under load, its moves/s held back about a fifth). With bytes unread a close would send a reset that
    can cut the answer short, so the connection is left to the graceful close."""
    try:
        client.setblocking(False)
        pending = client.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        pending = b""
    except OSError:  # already closed or reset: the graceful close deals with it
        return
    if not pending:
        client.close()


class ProblemSync(ProblemErrors, SyncWorker):
    """gunicorn's sync worker (one request at a time, one connection a request)."""

    def handle_request(self, listener, req, client, addr):
        super().handle_request(listener, req, client, addr)
        if not self.cfg.is_ssl:
            close_if_drained(client)


class ProblemThreads(ProblemErrors, ThreadWorker):
    """gunicorn's gthread worker (HERALD_THREADS > 1)."""

    def handle_quit(self, sig, frame):
        """SIGQUIT or SIGINT: exit now, as every gunicorn worker does. gthread's own handler first shuts its thread pool
        down, but the signal can land while the worker's main thread is inside the pool's submit, which holds the lock
        that shutdown takes: the worker then hangs until the arbiter kills it after graceful_timeout (30 s), as a stop
        of `herald run` under load once did. The pool's threads are joined at exit all the same (concurrent.futures'
        exit hook), once the exit has unwound submit and its lock."""
        Worker.handle_quit(self, sig, frame)


def worker_class(threads: int) -> str:
    """The gunicorn worker_class setting for a number of threads per worker."""
    chosen = ProblemThreads if threads > 1 else ProblemSync
    return f"{__name__}.{chosen.__name__}"


def http_parser() -> str:
    """Which parser gunicorn reads requests with, for the startup line: gunicorn_h1c's, in C, where `make` could build
    it and it loads (gunicorn imports it when its http_parser setting is 'auto'), else gunicorn's own, in Python."""
    try:
        import gunicorn_h1c
    except ImportError:  # not installed, or its extension does not load here
        return "requests parsed by gunicorn's Python parser"
    return f"requests parsed in C by gunicorn_h1c {gunicorn_h1c.__version__}"
