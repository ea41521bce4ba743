"""Herald's event store: the one place that reaches into eventsourcing's internals.

Herald takes fast paths through eventsourcing where its general code costs a move too much: a save without its
runtime Protocol checks, snapshots taken from the aggregate in memory, the aggregate cache read and written directly,
events built as its mapper rebuilds stored ones, and its SQLite store's connections and locks. They all live here,
behind a small interface the domain calls, and tests/test_store_eventsourcing.py pins the eventsourcing behaviour
they rely on, so an upgrade of eventsourcing that changes it fails there.

- store.application: StoreApplication, eventsourcing's Application with the fast save, snapshots and cache.
- store.aggregates: events recorded and aggregates copied without eventsourcing's per-object checks.
- store.sqlite: how Herald's processes share one SQLite event store.

This package imports no other part of Herald.
"""
