"""Herald's gunicorn worker (service/gunicorn_problems.py): a request refused before Flask sees it (a header or request
line too large, a body over the most Herald takes, a body that stalls) is a problem document and closes the connection;
one Flask refuses after the worker read its body whole leaves the connection usable."""
from __future__ import annotations

import importlib.util
import json
import socket

import pytest
from gunicorn.config import Config
from gunicorn.http.message import _check_fast_parser

from service.gunicorn_problems import BODY_IDLE_SECONDS, http_parser
from service.import_routes import MAX_LOG
from tests.helpers.server import shared_server


@pytest.fixture
def gunicorn(request):
    """`herald serve`'s port, a server on SQLite shared with other tests (each of these on connections of its own)."""
    return shared_server(request, "sqlite").port


def answer(sock: socket.socket) -> tuple[str, dict, object]:
    """One answer read off the socket: its status line, headers and JSON body (by its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection after {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}
    while len(body) < int(headers["content-length"]):
        body += sock.recv(65536)
    return status, headers, json.loads(body)


def raw(port: int, request: bytes) -> tuple[str, dict, object]:
    """Send raw bytes on a connection of their own; the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        return answer(sock)


def test_oversized_headers_and_request_lines_are_problem_documents(gunicorn):
    """A 431 was gunicorn's HTML page."""
    status, headers, problem = raw(gunicorn, b"GET /health HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n")
    assert status == "HTTP/1.1 431 Request Header Fields Too Large" and headers["connection"] == "close"
    assert headers["content-type"] == "application/problem+json"
    assert problem["status"] == 431 and "too many headers or one too long" in problem["detail"]
    many = b"".join(b"X-%d: 1\r\n" % n for n in range(200))
    assert raw(gunicorn, b"GET /health HTTP/1.1\r\nHost: h\r\n" + many + b"\r\n")[2]["status"] == 431
    status, headers, problem = raw(gunicorn, b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: h\r\n\r\n")
    assert status == "HTTP/1.1 414 URI Too Long" and problem["status"] == 414
    assert headers["content-type"] == "application/problem+json"


def test_a_body_refused_by_the_app_leaves_the_connection_usable(gunicorn):
    """A move's body over 64 KB is refused by Flask with 413, unread by the app but read whole by the worker first: the
    answer keeps the connection alive, and the next request on it is answered (it was dropped)."""
    body = json.dumps({"game": "korona", "players": ["Ana", "Bo"], "pad": "x" * 70_000}).encode()
    with socket.create_connection(("127.0.0.1", gunicorn), timeout=10) as sock:
        sock.sendall(b"POST /matches HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
        status, headers, problem = answer(sock)
        assert status.startswith("HTTP/1.1 413") and problem["status"] == 413
        assert headers["content-type"] == "application/problem+json" and headers["connection"] == "keep-alive"
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: h\r\n\r\n")
        status, _, health = answer(sock)
        assert status == "HTTP/1.1 200 OK", health


def test_a_body_over_the_largest_is_refused_unread_and_the_connection_closed(gunicorn):
    """A body declared over MAX_LOG is answered 413 before a byte of it is read, with `Connection: close`, and the
    server closes the connection."""
    with socket.create_connection(("127.0.0.1", gunicorn), timeout=10) as sock:
        sock.sendall(b"POST /matches/import HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-ndjson\r\n"
                     b"Content-Length: %d\r\n\r\n{" % (MAX_LOG + 1))
        status, headers, problem = answer(sock)
        assert status == "HTTP/1.1 413 Content Too Large" and headers["connection"] == "close"
        assert headers["content-type"] == "application/problem+json" and str(MAX_LOG) in problem["detail"]
        assert sock.recv(1) == b"", "closed by the server"


def test_a_stalled_body_is_answered_408_and_closed(gunicorn):
    """A body that stops arriving is answered 408 after BODY_IDLE_SECONDS, and the connection is closed."""
    with socket.create_connection(("127.0.0.1", gunicorn), timeout=BODY_IDLE_SECONDS + 10) as sock:
        sock.sendall(b"POST /matches HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{")
        status, headers, problem = answer(sock)
        assert status == "HTTP/1.1 408 Request Timeout" and headers["connection"] == "close"
        assert problem["status"] == 408 and "stopped arriving" in problem["detail"]
        assert sock.recv(1) == b""


def test_the_startup_line_names_the_parser_gunicorn_reads_requests_with():
    """gunicorn parses requests with gunicorn_h1c where `make` could install it and in Python elsewhere; the line
    `herald serve` starts with says which, as gunicorn decides it."""
    fast = _check_fast_parser(Config())
    assert fast == (importlib.util.find_spec("gunicorn_h1c") is not None)
    assert ("in C by gunicorn_h1c" in http_parser()) == fast
