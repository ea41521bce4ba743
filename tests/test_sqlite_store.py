"""How Herald uses an SQLite event store (store/sqlite.py): each thread on a connection of its own, reads without
a BEGIN, writers of every process taking turns on the store's lock file, commits as SQLITE_SYNCHRONOUS says."""
from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import uuid

import pytest
from eventsourcing.persistence import OperationalError

from domain.matches import Matches

PLAYERS = [{"name": "A"}, {"name": "B"}]


def sqlite_matches(path, **env) -> Matches:
    return Matches(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path), **env})


def reader(path) -> Matches:
    """Another application on the store, which writes nothing (its tables are made)."""
    return sqlite_matches(path, CREATE_TABLE="n")


def synchronous(app: Matches) -> int:
    with app.recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute("PRAGMA synchronous")
        return cursor.fetchone()[0]


def test_commits_are_normal_by_default_and_full_when_asked(tmp_path):
    """NORMAL (1) unless SQLITE_SYNCHRONOUS says FULL (2); a value SQLite's PRAGMA does not take here is refused."""
    assert synchronous(sqlite_matches(tmp_path / "a.sqlite")) == 1
    assert synchronous(sqlite_matches(tmp_path / "b.sqlite", SQLITE_SYNCHRONOUS="full")) == 2
    with pytest.raises(ValueError, match="SQLITE_SYNCHRONOUS"):
        sqlite_matches(tmp_path / "c.sqlite", SQLITE_SYNCHRONOUS="OFF")


class OtherProcess:
    """The store's write lock held as another process holds it: through a descriptor of its own."""

    def __init__(self, path):
        self.fd = os.open(f"{path}.writelock", os.O_RDWR | os.O_CREAT)

    def __enter__(self):
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def test_a_write_waits_for_the_other_writers_turn(tmp_path):
    """While another process holds the lock, a move is not recorded; it is once the lock is let go."""
    path = tmp_path / "events.sqlite"
    app = sqlite_matches(path)
    match, _ = app.create("korona", PLAYERS)
    seat = match.game.awaiting(match.state)
    move = match.game.legal_moves(match.state, seat)[0]
    done = []
    with OtherProcess(path):
        writer = threading.Thread(target=lambda: done.append(app.play(match.id, seat, move)))
        writer.start()
        writer.join(0.5)
        assert writer.is_alive() and not done
        assert reader(path).load(match.id).version == match.version
    writer.join(10)
    assert done and reader(path).load(match.id).version > match.version


def test_a_writer_kept_waiting_past_the_lock_timeout_gives_up_and_records_nothing(tmp_path):
    """SQLITE_LOCK_TIMEOUT bounds the wait, as it bounds SQLite's own: the store says it is locked."""
    path = tmp_path / "events.sqlite"
    app = sqlite_matches(path, SQLITE_LOCK_TIMEOUT="1")
    match, _ = app.create("korona", PLAYERS)
    seat = match.game.awaiting(match.state)
    with OtherProcess(path), pytest.raises(OperationalError, match="database is locked"):
        app.play(match.id, seat, match.game.legal_moves(match.state, seat)[0])
    assert reader(path).load(match.id).version == match.version


def test_a_forked_process_takes_its_own_turns(tmp_path):
    """A child forked after the store was opened (as gunicorn forks its workers) opens the lock file anew: with the
    descriptor inherited from its parent, the parent's turn would be its own too, and exclude neither of them."""
    path = tmp_path / "events.sqlite"
    app = sqlite_matches(path)
    app.create("korona", PLAYERS)
    turns = app.recorder.datastore.transaction
    turns._acquire(turns._descriptor())  # the parent's turn, held across the fork

    def may_write_now() -> bytes:
        try:
            fcntl.flock(turns._descriptor(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            return b"mine"
        except BlockingIOError:
            return b"wait"

    assert in_a_child(may_write_now) == b"wait"


def in_a_child(answer) -> bytes:
    """What `answer` returns (4 bytes) in a forked child of this process; b"fail" if it raised."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            os.write(write, answer())
        except BaseException:  # noqa: BLE001 - whatever the child met, the parent must hear of it
            os.write(write, b"fail")
        finally:
            os._exit(0)
    os.close(write)
    try:
        return os.read(read, 4)
    finally:
        os.close(read)
        os.waitpid(pid, 0)


def test_health_and_the_startup_line_say_how_commits_reach_the_disk(monkeypatch, tmp_path):
    """What /health and `herald serve`'s first line call the store names its commits, so an organiser sees it."""
    from service.config import Settings

    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    for name in ("PERSISTENCE_MODULE", "SQLITE_DBNAME", "SQLITE_SYNCHRONOUS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert settings.describe_event_store(settings.event_store_env()).endswith("(synchronous=NORMAL)")
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "full")
    assert settings.describe_event_store(settings.event_store_env()).endswith("(synchronous=FULL)")


def statements(app: Matches) -> list[str]:
    """Every statement the calling thread's connection runs from now on, as SQLite traces them."""
    traced = []
    with app.recorder.datastore.transaction(commit=False) as cursor:
        cursor.sqlite_cursor.connection.set_trace_callback(traced.append)
    return traced


def test_a_read_is_its_one_select_and_a_write_a_transaction_of_its_own(tmp_path):
    """A read sends SQLite its SELECT alone (a statement is a transaction of its own in autocommit mode): no BEGIN and
    ROLLBACK around it; a move's write is BEGIN, its inserts, COMMIT."""
    app = sqlite_matches(tmp_path / "events.sqlite")
    match, _ = app.create("korona", PLAYERS)
    traced = statements(app)
    app.events.get(match.id, gt=match.version)
    assert len(traced) == 1 and traced[0].startswith("SELECT")
    traced.clear()
    seat = match.game.awaiting(match.state)
    app.play(match.id, seat, match.game.legal_moves(match.state, seat)[0])
    writes = [s.split()[0] for s in traced if not s.startswith("SELECT")]
    assert writes[0] == "BEGIN" and writes[-1] == "COMMIT" and "INSERT" in writes


def test_each_thread_reads_and_writes_on_a_connection_of_its_own(tmp_path):
    """Two threads never share a connection; a thread keeps its own from one transaction to the next."""
    app = sqlite_matches(tmp_path / "events.sqlite")
    app.create("korona", PLAYERS)

    def connection():
        with app.recorder.datastore.transaction(commit=False) as cursor:
            return cursor.sqlite_cursor.connection

    mine = connection()
    assert connection() is mine
    theirs = []
    other = threading.Thread(target=lambda: theirs.append(connection()))
    other.start()
    other.join()
    assert theirs and theirs[0] is not mine


def test_a_forked_process_opens_a_connection_of_its_own(tmp_path):
    """A child forked after its parent read (as gunicorn forks its workers) reads on a new connection: SQLite forbids
    carrying an open connection across a fork."""
    app = sqlite_matches(tmp_path / "events.sqlite")
    match, _ = app.create("korona", PLAYERS)
    connections = app.recorder.datastore.transaction.connections
    parents = connections()

    def own_connection() -> bytes:
        ok = connections() is not parents and app.load(match.id).version == match.version
        return b"own!" if ok else b"same"

    assert in_a_child(own_connection) == b"own!"


def test_closing_the_store_closes_every_threads_connection(tmp_path):
    """The application's close closes the connections its threads opened; a read after it, in a thread that had a
    connection or a new one, is refused as the pool refuses one."""
    from eventsourcing.persistence import ConnectionPoolClosedError

    app = sqlite_matches(tmp_path / "events.sqlite")
    match, _ = app.create("korona", PLAYERS)
    opened = []
    other = threading.Thread(target=lambda: opened.append(app.recorder.datastore.transaction.connections()))
    other.start()
    mine = app.recorder.datastore.transaction.connections()
    other.join()
    app.close()
    assert mine.closed and opened[0].closed
    with pytest.raises(ConnectionPoolClosedError):  # a thread that had a connection
        app.load(match.id)
    refused = []

    def read_in_a_new_thread():
        try:
            app.load(match.id)
        except ConnectionPoolClosedError:
            refused.append(True)

    fresh = threading.Thread(target=read_in_a_new_thread)
    fresh.start()
    fresh.join()
    assert refused


def test_a_threads_connection_closes_when_the_thread_ends(tmp_path):
    """A thread that ends leaves no connection open behind it (a server's short-lived threads leak none)."""
    import gc

    app = sqlite_matches(tmp_path / "events.sqlite")
    match, _ = app.create("korona", PLAYERS)
    connections = app.recorder.datastore.transaction.connections
    before = len(connections.made)
    for _ in range(3):
        reader_thread = threading.Thread(target=app.load, args=(match.id,))
        reader_thread.start()
        reader_thread.join()
    gc.collect()
    assert len(connections.made) == before


def test_a_failed_read_raises_eventsourcings_error_as_before(tmp_path):
    """A read that SQLite refuses (here: no tables yet) raises eventsourcing's OperationalError, as a read in the pool's
    transaction did, not sqlite3's."""
    app = reader(tmp_path / "empty.sqlite")
    with pytest.raises(OperationalError, match="no such table"):
        app.events.get(uuid.uuid4())


def test_a_connection_prepares_each_statement_once(tmp_path):
    """A thread's connection keeps its prepared statements: once a match's first moves have prepared the read of its new
    events and the write, six more moves prepare neither again (eventsourcing's connection, which keeps one
    statement, prepared both again on every move). SQLite asks the authorizer about a statement as it prepares it,
    never as it runs a kept one."""
    app = sqlite_matches(tmp_path / "events.sqlite")
    match, _ = app.create("korona", PLAYERS)
    prepared = []

    def authorize(action, *_):
        prepared.append(action)
        return sqlite3.SQLITE_OK

    app.recorder.datastore.transaction.connections()._sqlite_conn.set_authorizer(authorize)
    counts = []
    for moves in (2, 6):
        for _ in range(moves):
            seat = match.game.awaiting(match.state)
            match, _ = app.play(match.id, seat, match.game.legal_moves(match.state, seat)[0])
        counts.append((prepared.count(sqlite3.SQLITE_SELECT), prepared.count(sqlite3.SQLITE_INSERT)))
    assert counts[0][0] >= 1 and counts[0][1] >= 1
    assert counts[1] == counts[0]
