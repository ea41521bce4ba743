"""A request gunicorn refuses before Flask sees it (a header or request line too large) is a problem document too."""
from __future__ import annotations

import importlib.util
import json
import signal
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from gunicorn.config import Config
from gunicorn.http.message import _check_fast_parser

from service.gunicorn_problems import ProblemThreads, close_if_drained, http_parser
from tests.helpers.server import Server, redis_url


@pytest.fixture(params=[1, 4], ids=["sync", "threads"])
def gunicorn(request, redis_client, tmp_path):
    """`herald serve` with one thread a worker (gunicorn's sync worker) or four (its thread worker)."""
    server = Server(tmp_path, {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                               "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}, redis_url(redis_client), workers=1)
    server.env["HERALD_THREADS"] = str(request.param)
    try:
        yield server.start().port
    finally:
        server.stop()


def raw(port: int, request: bytes) -> tuple[str, dict, dict]:
    """Send raw bytes; the status line, headers and JSON body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
    return status, headers, json.loads(body)


def test_oversized_headers_and_request_lines_are_problem_documents(gunicorn):
    """A 431 was gunicorn's HTML page."""
    status, headers, problem = raw(gunicorn, b"GET /health HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n")
    assert status == "HTTP/1.1 431 Request Header Fields Too Large"
    assert headers["content-type"] == "application/problem+json"
    assert problem["status"] == 431 and "too many headers or one too long" in problem["detail"]
    many = b"".join(b"X-%d: 1\r\n" % n for n in range(200))
    assert raw(gunicorn, b"GET /health HTTP/1.1\r\nHost: h\r\n" + many + b"\r\n")[2]["status"] == 431
    status, headers, problem = raw(gunicorn, b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: h\r\n\r\n")
    assert status == "HTTP/1.1 414 URI Too Long" and problem["status"] == 414
    assert headers["content-type"] == "application/problem+json"


def test_an_answered_connection_is_closed_at_once_only_when_nothing_sent_is_left_unread():
    """The sync worker's close: with nothing pending it closes the socket itself (the peer reads the end of the stream
    at once); with a byte the client sent still unread it leaves the socket open, for gunicorn's graceful close."""
    for pending, closed in ((b"", True), (b"GET", False)):
        server, client = socket.socketpair()
        with server, client:
            client.sendall(pending)
            close_if_drained(server)
            assert (server.fileno() == -1) is closed
            if closed:
                assert client.recv(1) == b"", "the client sees the end of the stream"


def test_a_quit_signal_during_the_thread_pools_submit_exits_the_worker():
    """SIGQUIT (or SIGINT) can land while the worker's main thread is inside its thread pool's submit, which holds the
    pool's lock. gunicorn's gthread handler then waits for that lock in shutdown for ever, until the arbiter kills the
    worker after 30 s (this test hangs with it); Herald's exits at once. The handler runs here in a thread of its own
    holding the lock, as the signal would run it inside submit."""
    worker = object.__new__(ProblemThreads)
    worker.tpool, worker.cfg, worker.alive = ThreadPoolExecutor(2), Config(), True
    outcome = []

    def signalled_inside_submit():
        with worker.tpool._shutdown_lock:
            try:
                worker.handle_quit(signal.SIGQUIT, None)
            except SystemExit as exit_:
                outcome.append(exit_.code)

    handler = threading.Thread(target=signalled_inside_submit, daemon=True)
    handler.start()
    handler.join(timeout=5)
    assert not handler.is_alive() and outcome == [0] and worker.alive is False


def test_the_startup_line_names_the_parser_gunicorn_reads_requests_with():
    """gunicorn parses requests with gunicorn_h1c where `make` could install it and in Python elsewhere; the line
    `herald serve` starts with says which, as gunicorn decides it."""
    fast = _check_fast_parser(Config())
    assert fast == (importlib.util.find_spec("gunicorn_h1c") is not None)
    assert ("in C by gunicorn_h1c" in http_parser()) == fast
