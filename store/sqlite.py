"""Herald's SQLite event store, shared by several processes: a connection per thread, reads without a BEGIN, writers
taking turns on a lock file.

A read is one SELECT, which SQLite (in autocommit mode) runs on one snapshot, so no BEGIN or ROLLBACK is sent; never
read inside a write's transaction on the thread's connection: it would end it. A writer first takes an exclusive flock
on `<store>.writelock`, retried after short pauses (POLL) where SQLite's busy handler sleeps whole milliseconds; the
kernel frees a dead process's lock, and past SQLITE_LOCK_TIMEOUT the write fails ("database is locked").
SQLITE_SYNCHRONOUS=NORMAL (default) survives a crash of any process, FULL a power loss too.
"""
from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
import weakref
from contextlib import contextmanager

from eventsourcing.persistence import ConnectionPoolClosedError, InterfaceError, OperationalError
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteConnection, SQLiteTransaction

SYNCHRONOUS = ("NORMAL", "FULL")  # the first is the default
STATEMENTS = 128  # prepared statements a connection keeps: sqlite3's default (eventsourcing asks for 1)
POLL = (0.00005, 0.001)  # the first and the longest pause between tries at a held lock, in seconds


class ThreadConnections:
    """Each thread's own connection to the store, made by the pool's factory; all of them closed with the pool."""

    def __init__(self, pool):
        self.pool = pool
        self.local = threading.local()
        self.made = weakref.WeakSet()  # a thread's connection closes as it is dropped, when its thread ends
        self.lock = threading.Lock()
        self.closed = False

    def __call__(self) -> SQLiteConnection:
        if self.closed:
            raise ConnectionPoolClosedError
        local = self.local
        if getattr(local, "pid", None) != os.getpid():  # a forked child's thread starts with its parent's values
            with self.lock:
                if self.closed:
                    raise ConnectionPoolClosedError
                local.connection, local.pid = self.pool._create_connection(), os.getpid()
                self.made.add(local.connection)
        return local.connection

    def close(self) -> None:
        with self.lock:
            self.closed = True
            for connection in list(self.made):
                connection.close()


class Autocommit(SQLiteTransaction):
    """eventsourcing's SQLite transaction without its BEGIN, for a read of one statement: SQLite runs the statement as
    a transaction of its own, and the ROLLBACK at the end has nothing to roll back (sqlite3 sends none)."""

    def __enter__(self):
        return self.connection.cursor()


class TakingTurns:
    """A datastore's transactions, on the thread's own connection: reads at once, writes one at a time across the
    processes sharing its file."""

    def __init__(self, datastore, timeout: float):
        self.connections = ThreadConnections(datastore.pool)
        self.path = datastore.pool.db_name + ".writelock"
        self.timeout = timeout
        self.threads = threading.Lock()  # a flock is shared by the threads of a process
        self.fd, self.pid = None, None

    def _descriptor(self) -> int:
        """The lock file, opened anew in a forked child (a descriptor inherited from the parent shares its lock)."""
        if self.pid != os.getpid():
            self.fd, self.pid = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600), os.getpid()
        return self.fd

    def _acquire(self, fd: int) -> None:
        deadline, pause = time.monotonic() + self.timeout, POLL[0]
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OperationalError("database is locked") from None
                time.sleep(pause)
                pause = min(pause * 2, POLL[1])

    def __call__(self, *, commit: bool):
        """The datastore's transaction; a write one waits for this process's turn."""
        return self._turn() if commit else self._read()

    @contextmanager
    def _read(self):
        with Autocommit(self.connections(), commit=False) as cursor, cursor:
            yield cursor

    @contextmanager
    def _turn(self):
        with self.threads:
            fd = self._descriptor()
            self._acquire(fd)
            try:
                with self.connections().transaction(commit=True) as cursor:
                    yield cursor
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)


def mode(synchronous: str | None) -> str:
    """SQLITE_SYNCHRONOUS as SQLite's PRAGMA takes it (unset: NORMAL); ValueError for a mode Herald does not offer."""
    chosen = (synchronous or SYNCHRONOUS[0]).upper()
    if chosen not in SYNCHRONOUS:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
    return chosen


def configure(datastore, synchronous: str | None) -> None:
    """Make a file-based eventsourcing SQLiteDatastore read and write on each thread's connection, take turns and commit
    as `synchronous` says (default NORMAL), before its first connection."""
    synchronous = mode(synchronous)
    pool = datastore.pool
    if pool.is_sqlite_memory_mode:
        return
    timeout = pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT  # eventsourcing's, for SQLite's and the turns' waits

    def create_connection():
        """A connection as eventsourcing's pool makes one (autocommit, WAL mode, rows by name), but keeping STATEMENTS
        prepared statements where eventsourcing's keeps one (so a thread alternating writes and reads would prepare
        each anew), and committing as `synchronous` says."""
        try:
            connection = sqlite3.connect(pool.db_name, uri=True, check_same_thread=False, isolation_level=None,
                                         cached_statements=STATEMENTS, timeout=timeout)
        except (sqlite3.Error, TypeError) as error:
            raise InterfaceError(error) from error
        if connection.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
        pool.is_journal_mode_wal = True
        connection.execute(f"PRAGMA synchronous={synchronous}")
        connection.row_factory = sqlite3.Row
        return SQLiteConnection(sqlite_conn=connection, max_age=pool.max_age)

    pool._create_connection = create_connection
    datastore.transaction = TakingTurns(datastore, timeout)
    close_pool = pool.close

    def close():
        datastore.transaction.connections.close()
        close_pool()

    pool.close = close
