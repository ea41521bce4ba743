"""StoreApplication: eventsourcing's Application with the fast paths Herald's saves, snapshots and loads take through
its internals (ProcessingEvent, _record, _notify, the repository's cache), kept here behind a few methods."""
from __future__ import annotations

import sqlite3
import time
from collections import deque

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.persistence import IntegrityError, InternalError, OperationalError, ProgrammingError
from eventsourcing.sqlite import SQLiteFactory

from store import sqlite
from store.aggregates import apply_events

RECORDED = 64  # notifications of its latest saves a process keeps in hand for its projector


class StoreApplication(Application):
    """An eventsourcing application whose SQLite store is Herald's (store/sqlite.py), whose saves keep their
    notifications in hand (`recorded`) and snapshot from memory, and whose aggregates are cached as loaded (`fetch`,
    `cached`, `remember`)."""

    @classmethod
    def open(cls, env: dict, attempts: int = 5):
        """The application on an event store. Processes starting together on an empty PostgreSQL database race to
        create its tables (CREATE ... IF NOT EXISTS is not atomic there: a duplicate type, a concurrently updated
        catalogue row), and on a new SQLite file to switch it to WAL ("database is locked", which SQLite does not wait
        out); a loser waits a moment and tries again, and finds it done."""
        for attempt in range(attempts):
            try:
                return cls(env=env)
            except (IntegrityError, InternalError, ProgrammingError, OperationalError, sqlite3.OperationalError):
                if attempt == attempts - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.recorded: deque = deque(maxlen=RECORDED)  # this process's latest notifications, as its saves made them

    def construct_factory(self, env):
        """eventsourcing's persistence; an SQLite store's threads read and write on connections of their own, its
        writers take turns, and commit as SQLITE_SYNCHRONOUS says (store/sqlite.py)."""
        factory = super().construct_factory(env)
        if isinstance(factory, SQLiteFactory):
            sqlite.configure(factory.datastore, env.get("SQLITE_SYNCHRONOUS"))
        return factory

    def save(self, *aggregates, **kwargs):
        """eventsourcing's Application.save of aggregates, their pending events collected without the runtime Protocol
        checks its ProcessingEvent makes of each object (slow on Python 3.11: two a save); the notifications it made
        are kept in hand (`recorded`) for this process's projector."""
        processing = ProcessingEvent()
        for aggregate in aggregates:
            processing.events.extend(aggregate.collect_events())
            processing.aggregates[aggregate.id] = aggregate
        processing.saved_kwargs.update(kwargs)
        recordings = self._record(processing)
        self.recorded.extend(recording.notification for recording in recordings)
        self._take_snapshots(processing)
        self._notify(recordings)
        return recordings

    def _take_snapshots(self, processing: ProcessingEvent) -> None:
        """A snapshot of each aggregate whose save reached or passed a multiple of its class's snapshotting interval,
        taken as the aggregate stands in memory, at the save's last version, never read back from the store; a whole
        log saved at once (an import) is folded from its own events for a snapshot at each multiple."""
        if self.snapshots is None:
            return
        saved: dict = {}
        for event in processing.events:
            saved.setdefault(event.originator_id, []).append(event)
        for aggregate_id, events in saved.items():
            aggregate = processing.aggregates.get(aggregate_id)
            interval = self.snapshotting_intervals.get(type(aggregate))
            if interval is None or not any(e.originator_version % interval == 0 for e in events):
                continue
            snapshot = type(aggregate).Snapshot
            if events[0].originator_version != aggregate.INITIAL_VERSION:
                self.snapshots.put([snapshot.take(aggregate)])
                continue
            folded = None
            for event in events:
                folded = event.mutate(folded)
                if folded.version % interval == 0:
                    self.snapshots.put([snapshot.take(folded)])

    def fetch(self, aggregate_id, version: int | None = None):
        """An aggregate from the store (eventsourcing's AggregateNotFoundError if it has none of that id): at
        `version`, rebuilt for this call alone; else the cached one itself, fast-forwarded by the events recorded
        since (a new object if there were any, which the caller may `remember`). Never mutate the cached one."""
        return self.repository.get(aggregate_id, version=version, projector_func=apply_events,
                                   deepcopy_from_cache=False)

    def cached(self, aggregate_id):
        """The aggregate as this process last saved or loaded it, not checked against the store (no read); None if
        it holds none."""
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            return cache.get(aggregate_id)
        except KeyError:
            return None

    def remember(self, aggregate) -> None:
        """Keep an aggregate just saved or fast-forwarded as the cached one, so that the next load reads only what
        other processes recorded since, and `cached` hands it out: a stale entry costs a read, or a command made
        again, never a wrong state. Nothing may change it afterwards: `fetch` and `cached` hand out the object
        itself."""
        if self.repository.cache is not None:
            self.repository.cache.put(aggregate.id, aggregate)

    def cached_count(self) -> int:
        """How many aggregates this process holds in its cache."""
        return 0 if self.repository.cache is None else len(self.repository.cache.cache)
