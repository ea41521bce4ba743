"""Aggregates and their events made the way eventsourcing's own code makes them, without its per-object costs: an
event built as its mapper rebuilds a stored one, an aggregate copied attribute by attribute."""
from __future__ import annotations

import copy

# eventsourcing's own attributes of an aggregate that a copy may share with its original: its id and timestamps never
# change in place; the list of its pending events is the copy's own (`copied`)
SHARED = ("_id", "_created_on", "_modified_on", "_pending_events")


def record(aggregate, event_class: type, version: int, timestamp, payload: dict, chain: str) -> None:
    """Trigger an event of `aggregate` at `version` (its next), as eventsourcing's trigger_event does, once the caller
    has applied it; Herald's events carry a payload and a chain link. The event is built as eventsourcing's mapper rebuilds a stored one (object.__new__ and its
    attributes, in the order its dataclass sets them, which is the order they are stored in), not through the frozen
    dataclass's __init__, which sets each attribute by object.__setattr__ and checks the id's type."""
    event = object.__new__(event_class)
    attributes = event.__dict__  # filled key by key: the class's instances share one table of keys
    attributes["originator_id"], attributes["originator_version"] = aggregate._id, version
    attributes["timestamp"], attributes["payload"], attributes["chain"] = timestamp, payload, chain
    aggregate._version, aggregate._modified_on = version, timestamp
    aggregate._pending_events.append(event)


def copied(aggregate, attributes: dict):
    """A copy of `aggregate` whose attributes are `attributes` (the caller's copy of its __dict__, sharing SHARED),
    made without calling its class, with a list of pending events of its own."""
    twin = object.__new__(type(aggregate))
    twin.__dict__ = attributes
    attributes["_pending_events"] = list(aggregate._pending_events)
    return twin


def apply_events(aggregate, events):
    """Each event mutates the aggregate in turn: eventsourcing's project_aggregate without its per-event protocol
    check (a runtime isinstance against a Protocol); Herald's events all mutate. An aggregate given is the cached one,
    being fast-forwarded: it never changes (loads hand it out for reading, and their copies share its state), so the
    events mutate a copy of it, which the application caches in its place (StoreApplication.fetch)."""
    cached = aggregate
    for event in events:
        if aggregate is cached and cached is not None:
            aggregate = copy.deepcopy(cached)
        aggregate = event.mutate(aggregate)
    return aggregate
