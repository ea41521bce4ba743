"""How Herald's processes use one SQLite event store: each thread on a connection of its own, reads without a BEGIN,
writers taking turns on a lock file, commits as SQLITE_SYNCHRONOUS says.

Connections: each thread of a process opens its own the first time it reads or writes, as eventsourcing's pool opens
its (WAL mode, the PRAGMA below), and keeps it while it lives; the datastore's close closes them. A read or a write then
waits at none of the pool's locks and queue. A connection keeps its prepared statements (sqlite3's cache of 128, where
eventsourcing's keeps one), so a read after a write is not parsed and planned again.

Reads: every read eventsourcing's SQLite recorders make is one SELECT, which SQLite runs as a transaction of its own
(the connections are in autocommit mode), reading one snapshot of the store; so a read sends no BEGIN and ROLLBACK
around it, which is most of a read's cost. Errors are translated into eventsourcing's as its own transactions translate
them. A thread's reads and writes share its connection, so a read must not run inside a write's transaction
(eventsourcing's recorders make none there: it would end that transaction).

Turns: a write transaction begins once its process holds an exclusive flock on `<store>.writelock`. A writer that finds
it held tries again after 50 us, then 100, 200... up to 1 ms between tries, where SQLite's busy handler would sleep 1,
2, 5, 10... ms while the other's commit holds the store for well under a millisecond. The kernel drops a dead
process's lock with it. A writer that waits longer than SQLITE_LOCK_TIMEOUT (eventsourcing's, default 5 s) gets
SQLite's own "database is locked", and nothing is written.

Commits: the store is in WAL mode (eventsourcing's); SQLITE_SYNCHRONOUS is SQLite's PRAGMA synchronous for it. NORMAL
(Herald's default) makes each commit durable against a crash of any Herald process, which is what an acknowledged
move must survive, and syncs the log to disk at checkpoints; a power loss or an operating system crash may roll back
the moves committed since the last one, never corrupt the store. FULL syncs every commit to disk as well.
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
        """A connection as eventsourcing's pool makes one (autocommit, WAL mode, rows by name), keeping STATEMENTS
        prepared statements where eventsourcing's keeps one (`cached_statements=True`), so that a thread alternating
        a write and a read prepared each anew (a read after a write took 26 us instead of 12), and committing as
        `synchronous` says."""
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
