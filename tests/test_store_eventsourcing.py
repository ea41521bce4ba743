"""The eventsourcing behaviour Herald's store (store/) relies on, pinned: its fast paths reach into eventsourcing's
internals, so an upgrade that changes one of them fails here, by name, rather than somewhere in a match's play.

The aggregate below has the shape of Herald's (events carrying a payload and a chain link) but no rules, so that
these tests say only what eventsourcing does."""
from __future__ import annotations

import copy
import inspect
import uuid
from importlib.metadata import version
from typing import ClassVar

from eventsourcing.application import Application, LRUCache, ProcessingEvent, project_aggregate
from eventsourcing.domain import Aggregate, datetime_now_with_tzinfo
from eventsourcing.sqlite import SQLiteConnection, SQLiteDatastore, SQLiteFactory, SQLiteTransaction

from store import aggregates, sqlite
from store.application import StoreApplication

INTERVAL = 3


class Tally(Aggregate):
    """An aggregate of Herald's shape: every event has a payload and a chain link, and adds its payload's `add`."""

    class Opened(Aggregate.Created):
        payload: dict
        chain: str

    class Added(Aggregate.Event):
        payload: dict
        chain: str

        def apply(self, tally) -> None:
            tally.total += self.payload["add"]

    def __init__(self, payload: dict, chain: str):
        self.total = 0

    def add(self, amount: int) -> None:
        """An event recorded by the store's fast path, as Match._record records one."""
        payload = {"add": amount}
        self.total += amount
        aggregates.record(self, Tally.Added, self.version + 1, datetime_now_with_tzinfo(), payload, f"c{self.version}")


class Plain(Application):
    """eventsourcing's own application, to compare the store's with."""

    snapshotting_intervals: ClassVar[dict] = {Tally: INTERVAL}


class Fast(StoreApplication):
    snapshotting_intervals: ClassVar[dict] = {Tally: INTERVAL}


def popo(cls, **env):
    return cls(env={"PERSISTENCE_MODULE": "eventsourcing.popo", **env})


def opened(adds: int) -> Tally:
    tally = Tally._create(Tally.Opened, id=uuid.uuid4(), payload={}, chain="genesis")
    for amount in range(1, adds + 1):
        tally.add(amount)
    return tally


def test_eventsourcing_is_the_release_the_store_was_written_for():
    """The fast paths copy eventsourcing 9.5's internals; another minor release must be checked against this file
    (and store/) before setup.cfg lets it in."""
    assert version("eventsourcing").split(".")[:2] == ["9", "5"]


def test_the_internals_the_fast_save_calls_keep_their_shape():
    """StoreApplication.save fills a ProcessingEvent itself and calls _record, _take_snapshots and _notify, as
    eventsourcing's save does."""
    processing = ProcessingEvent()
    assert (processing.tracking, processing.events, processing.aggregates, processing.saved_kwargs) == (None, [], {}, {})
    assert list(inspect.signature(Application._record).parameters) == ["self", "processing_event"]
    assert list(inspect.signature(Application._take_snapshots).parameters) == ["self", "processing_event"]
    assert list(inspect.signature(Application._notify).parameters) == ["self", "recordings"]
    called = [name for name in inspect.getsource(Application.save).split() if name.startswith("self.")]
    assert called == ["self._record(processing_event)", "self._take_snapshots(processing_event)",
                      "self._notify(recordings)", "self.notify(processing_event.events)"]


def test_the_fast_save_stores_notifies_caches_and_snapshots_as_eventsourcings_does():
    """The same aggregate saved by eventsourcing's Application.save and by StoreApplication.save: the same stored
    events and notifications, the same snapshots (the store's taken from memory, eventsourcing's read back), and
    _notify given the recordings, which the store also keeps in hand."""
    tally = opened(7)  # versions 1 to 8: a whole log at once, as an import saves one
    twin = copy.deepcopy(tally)
    notified = []
    plain, fast = popo(Plain, AGGREGATE_CACHE_MAXSIZE="10"), popo(Fast, AGGREGATE_CACHE_MAXSIZE="10")
    fast._notify = notified.append
    plain.save(twin)
    recordings = fast.save(tally)
    assert notified == [recordings] and list(fast.recorded) == [r.notification for r in recordings]
    for more in (1, 2):  # a save reaching version 9, then one reaching no multiple
        tally.add(more)
        plain.save(copy.deepcopy(tally))  # the same events, timestamps too
        fast.save(tally)

    def stored(app):
        return [(n.originator_version, n.topic, n.state) for n in app.recorder.select_notifications(start=1, limit=50)]

    assert stored(fast) == stored(plain) and len(stored(fast)) == 10
    snapshots = {app: [(s.originator_version, s.state) for s in app.snapshots.get(tally.id)] for app in (fast, plain)}
    assert [v for v, _ in snapshots[fast]] == [3, 6, 9]
    assert snapshots[fast] == snapshots[plain]
    fast.remember(tally)  # a save caches nothing while the cache fast-forwards (eventsourcing's default)
    assert fast.cached(tally.id) is tally and fast.fetch(tally.id) is tally and tally.total == 31


def test_the_repository_cache_is_a_keyed_cache_the_store_reads_and_writes():
    """AGGREGATE_CACHE_MAXSIZE gives the repository an LRUCache: put then get hands back the object itself, a
    missing key is a KeyError; repository.get with deepcopy_from_cache=False hands out the cached object itself, and
    fast-forwards it through the projector it is given."""
    app = popo(Fast, AGGREGATE_CACHE_MAXSIZE="10")
    assert isinstance(app.repository.cache, LRUCache)
    assert {"version", "projector_func", "deepcopy_from_cache"} <= set(inspect.signature(app.repository.get).parameters)
    tally = opened(2)
    app.save(tally)
    app.repository.cache.put(tally.id, tally)
    assert app.repository.cache.get(tally.id) is tally and app.cached(tally.id) is tally
    missing = uuid.uuid4()
    try:
        app.repository.cache.get(missing)
        raise AssertionError("a missing key must raise KeyError")
    except KeyError:
        pass
    assert app.cached(missing) is None and app.cached_count() == 1
    assert app.fetch(tally.id) is tally

    moved = copy.deepcopy(tally)  # another process's move, recorded in the store but not in this cache
    moved.add(10)
    app.events.put(moved.collect_events())
    fetched = app.fetch(tally.id)
    assert fetched is not tally and fetched.total == 13 and tally.total == 3  # the cached one is not changed
    assert popo(Fast).cached(tally.id) is None  # no cache without AGGREGATE_CACHE_MAXSIZE


def test_an_event_the_store_records_is_the_one_eventsourcing_makes_and_rebuilds():
    """store.aggregates.record builds an event with object.__new__, as eventsourcing's mapper rebuilds a stored one:
    the same attributes in the same order as the event class's own __init__ sets them, so it is stored alike, and the
    mapper rebuilds an equal event; the aggregate's version, modified_on and pending events move on as
    trigger_event moves them."""
    tally = opened(0)
    tally.collect_events()
    at = datetime_now_with_tzinfo()
    aggregates.record(tally, Tally.Added, 2, at, {"add": 5}, "c1")
    [event] = tally.collect_events()
    made = Tally.Added(originator_id=tally.id, originator_version=2, timestamp=at, payload={"add": 5}, chain="c1")
    assert list(vars(event).items()) == list(vars(made).items())
    assert (tally.version, tally.modified_on) == (2, at)
    app = popo(Plain)
    stored = app.mapper.to_stored_event(event)
    assert stored == app.mapper.to_stored_event(made)
    rebuilt = app.mapper.to_domain_event(stored)
    assert type(rebuilt) is Tally.Added and rebuilt == event and vars(rebuilt) == vars(event)
    assert "object.__new__(cls)" in inspect.getsource(type(app.mapper).to_domain_event)


def test_a_copy_shares_eventsourcings_own_attributes_and_folds_as_project_aggregate():
    """eventsourcing keeps an aggregate's id, timestamps and pending events in the attributes store.aggregates
    shares (SHARED) and its version in _version; `copied` makes an equal aggregate with pending events of its own;
    apply_events folds events as eventsourcing's project_aggregate does, on a copy of the aggregate it is given."""
    tally = opened(2)
    assert set(aggregates.SHARED) | {"_version"} <= set(vars(tally))
    assert (tally._id, tally._created_on, tally._modified_on, tally._version) == (
        tally.id, tally.created_on, tally.modified_on, tally.version)
    twin = aggregates.copied(tally, dict(vars(tally)))
    assert type(twin) is Tally and vars(twin) == vars(tally) and twin._pending_events is not tally._pending_events
    events = tally.collect_events()
    assert vars(aggregates.apply_events(None, events)) == vars(project_aggregate(None, events))
    start = project_aggregate(None, events[:1])
    folded = aggregates.apply_events(start, events[1:])
    assert folded is not start and start.version == 1 and folded.total == project_aggregate(None, events).total == 3


def test_the_sqlite_datastore_has_what_the_store_replaces(tmp_path):
    """store/sqlite.py replaces an SQLiteDatastore's transaction and its pool's _create_connection and close, reading
    the pool's settings, and builds eventsourcing's SQLiteConnection and SQLiteTransaction itself."""
    app = Fast(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "s.sqlite")})
    assert isinstance(app.factory, SQLiteFactory) and isinstance(app.factory.datastore, SQLiteDatastore)
    datastore = app.factory.datastore
    pool = datastore.pool
    for name in ("db_name", "is_sqlite_memory_mode", "lock_timeout", "max_age", "is_journal_mode_wal"):
        assert hasattr(pool, name), name
    assert isinstance(datastore.transaction, sqlite.TakingTurns) and callable(pool._create_connection)
    assert list(inspect.signature(SQLiteConnection).parameters) == ["sqlite_conn", "max_age"]
    assert list(inspect.signature(SQLiteTransaction).parameters) == ["connection", "commit"]
    app.save(opened(4))
    assert app.cached_count() == 0 and len(app.recorder.select_notifications(start=1, limit=10)) == 5
    app.close()
