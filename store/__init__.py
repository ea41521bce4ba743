"""Herald's event store: the one place that reaches into eventsourcing's internals.

Herald takes fast paths where eventsourcing's general code costs a move too much (a save without runtime Protocol
checks, snapshots from the aggregate in memory, the aggregate cache used directly, its own SQLite connections and
locks). tests/test_store_eventsourcing.py pins the eventsourcing behaviour they rely on, so an upgrade that changes it
fails there. This package imports no other part of Herald.

- store.application: StoreApplication, eventsourcing's Application with the fast save, snapshots and cache.
- store.aggregates: events recorded and aggregates copied without eventsourcing's per-object checks.
- store.sqlite: how Herald's processes share one SQLite event store.
"""
