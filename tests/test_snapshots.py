"""Snapshots (domain/matches.py): each holds the match exactly as folding its events up to that version gives it."""
from __future__ import annotations

import random
import uuid

from domain.match import Match
from domain.matches import SNAPSHOT_INTERVAL, Matches
from store.aggregates import apply_events


def test_every_snapshot_is_the_match_its_events_fold_to(store_env):
    """A save that reaches or passes a multiple of SNAPSHOT_INTERVAL snapshots the match it holds in memory, at the
    move's last version, also when the multiple falls inside the move: each snapshot equals the fold of the log up to
    its version, and there is one for each such move, at its end. Moves are played until both have happened."""
    app = Matches(env=store_env)
    chooser = random.Random(2)
    matches, expected, ends = [], {}, {"at the end of a move": 0, "inside a move": 0}
    while not all(ends.values()):
        assert len(matches) < 10, ends
        match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
        matches.append(match.id)
        expected[match.id] = []
        while not match.finished and match.version < 4 * SNAPSHOT_INTERVAL:
            before, seat = match.version, match.game.awaiting(match.state)
            match, _ = app.play(match.id, seat, chooser.choice(match.game.legal_moves(match.state, seat)))
            ends["at the end of a move"] += match.version % SNAPSHOT_INTERVAL == 0
            inside = any(v % SNAPSHOT_INTERVAL == 0 for v in range(before + 1, match.version))
            ends["inside a move"] += inside
            if inside or match.version % SNAPSHOT_INTERVAL == 0:
                expected[match.id].append(match.version)
    for match_id in matches:
        snapshots = list(app.snapshots.get(match_id))
        assert [s.originator_version for s in snapshots] == expected[match_id]
        for snapshot in snapshots:
            folded = apply_events(None, app.events.get(match_id, lte=snapshot.originator_version))
            assert snapshot.state == Match.Snapshot.take(folded).state, snapshot.originator_version
    app.close()


def test_a_log_stored_at_once_is_snapshotted_at_every_multiple(store_env):
    """A re-refereed match stored whole (an import, one save of its every event) gets a snapshot at each multiple of
    SNAPSHOT_INTERVAL, folded from its own events, each the fold of the log up to its version, so a replay of any of
    its versions starts from the nearest one."""
    app = Matches(env=store_env)
    chooser, names = random.Random(5), ["A", "B", "C"]
    match = Match.create(uuid.uuid4(), "korona", names, names, {}, bytes(32))
    match.start()
    while not match.finished and match.version < 3 * SNAPSHOT_INTERVAL + 7:
        seat = match.game.awaiting(match.state)
        match.play(seat, chooser.choice(match.game.legal_moves(match.state, seat)))
    app.store_import(match)
    snapshots = list(app.snapshots.get(match.id))
    assert [s.originator_version for s in snapshots] == list(range(SNAPSHOT_INTERVAL, match.version + 1,
                                                                   SNAPSHOT_INTERVAL))
    for snapshot in snapshots:
        folded = apply_events(None, app.events.get(match.id, lte=snapshot.originator_version))
        assert snapshot.state == Match.Snapshot.take(folded).state, snapshot.originator_version
    app.close()
