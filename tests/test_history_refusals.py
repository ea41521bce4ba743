"""What the standalone verifier, re-refereeing (import, `herald audit`) and undo requests refuse as the server's own
checks do: a random entry no draw can recompute, a backup into the middle of a move (RULINGS U2), a request for a backup
to the current version (issue 5; each failed before its fix)."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from domain.errors import IllegalMove
from domain.matches import SNAPSHOT_INTERVAL
from replays.export import export_lines
from replays.referee import Rejected, rereferee
from tests.helpers.api import Table, assert_problem, auth
from tests.helpers.logs import lines_of, rechain, rows
from tests.helpers.stores import memory_app

DATA = Path(__file__).parent / "data"


def test_an_imported_backup_into_the_middle_of_a_move_is_refused():
    """U2: "A backup goes to a version between two moves, never into the middle of one (between a draw and its market
    refill ...)". The server refuses such a backup (422), but re-refereeing (POST /matches/import, herald audit) never
    asked: a log whose BackupPerformed goes to between a market draw and its refill, leaving a market of two cards
    for the rest of the match, was imported as every move legal."""
    app = memory_app()
    match, _ = app.create("korona", [{"name": "Ana"}, {"name": "Bo"}])
    chooser = random.Random(4)
    target = None
    while target is None:
        played = app.load(match.id)
        seat = played.game.awaiting(played.state)
        market = [m for m in played.game.legal_moves(played.state, seat) if m.get("source") == "market"]
        move = market[0] if market else chooser.choice(played.game.legal_moves(played.state, seat))
        _, events = app.play(match.id, seat, move)
        if events[0]["type"] == "CardsDrawn" and events[1]["type"] == "MarketRefilled":
            target = events[0]["version"]
    with pytest.raises(IllegalMove, match="middle of a move"):
        app.back_up(match.id, target, "misplay")
    bent = app.load(match.id)  # the backup as a log can record it, past the server's own check
    bent.back_up(target, "misplay", app.load(match.id, version=target).state, app.history(match.id, after=target))
    app.save(bent)
    backup_version = bent.version
    assert len(bent.state["market"]) == 2
    while not (played := app.load(match.id)).finished:
        seat = played.game.awaiting(played.state)
        app.play(match.id, seat, chooser.choice(played.game.legal_moves(played.state, seat)))
    with pytest.raises(Rejected, match=f"version {backup_version}: .*middle of a move"):
        rereferee(export_lines(str(match.id), "korona", app.history(match.id)))


def test_an_undo_request_to_the_current_version_is_refused_as_the_backup_would_be(sqlite_client):
    """Matches.request_undo: refused "where a backup to that version would be". The referee's backup to the current
    version is refused (422, "a backup goes to an earlier version"), but a seat's request for it was recorded (201),
    and its approval then backed the match up over nothing but the request itself, marking it retracted."""
    table = Table(sqlite_client, ["Ana", "Bo"])
    seat = table.view()["current_seat"]
    table.play(seat, {"type": "draw", "source": "pile"})
    version = table.version()
    backup = sqlite_client.post(f"/matches/{table.id}/undo", json={"to_version": version, "reason": "x"},
                                headers=auth(table.referee))
    assert_problem(backup, 422)
    asked = sqlite_client.post(f"/matches/{table.id}/undo-requests", json={"to_version": version, "reason": "x"},
                               headers=auth(table.tokens[seat]))
    assert_problem(asked, 422)
    assert table.version() == version


def korona(seed: int):
    app = memory_app()
    match, _ = app.create("korona", [{"name": "Ana"}, {"name": "Bo"}])
    chooser = random.Random(seed)

    def move():
        state = app.load(match.id)
        seat = state.game.awaiting(state.state)
        app.play(match.id, seat, chooser.choice(state.game.legal_moves(state.state, seat)))
    return app, match, move


def test_an_imported_backup_to_the_current_version_is_refused_as_the_server_refuses_it():
    """c51a188: re-refereeing "holds each backup ... to the server's" checks; Rereferee.at_rest passes
    match.version + 1 to check_backup (Match.back_up's bound, which it then checks again itself), where
    Matches.back_up passes match.version: a backup to the current version, refused by the server (422), imports."""
    app, match, move = korona(3)
    for _ in range(6):
        move()
    version = app.load(match.id).version
    with pytest.raises(IllegalMove, match="earlier version"):
        app.back_up(match.id, version, "nothing to undo")
    bent = app.load(match.id)
    bent.back_up(version, "nothing to undo", app.load(match.id, version=version).state, [])
    app.save(bent)
    while not app.load(match.id).finished:
        move()
    with pytest.raises(Rejected, match=f"version {version + 1}: .*earlier version"):
        rereferee(export_lines(str(match.id), "korona", app.history(match.id)))


@pytest.mark.parametrize(("kind", "field", "value"), [("choice", "n", 0), ("choice", "n", 2**32 + 1),
                                                    ("dice", "count", 10**9)])
def test_the_verifier_fails_in_one_line_on_a_draw_it_cannot_make(tmp_path, kind, field, value):
    """The verifier "does not trust the server": a log whose random entry asks for a uniform integer in [0, n) with
    n = 0 or n > 2**32 (herald-fair-v1 reads 4-byte words), or for 10**9 dice, is refused with FAIL naming its version,
    as tests/test_import_and_offline.py asks of every hostile log; it was a ZeroDivisionError traceback (n = 0), a
    loop that never ended (n > 2**32: every sample is rejected) or a roll of minutes."""
    edited = rows((DATA / "recorded" / "crusader-kingdoms-2p.ndjson").read_text().splitlines())
    drawn = next(r for r in edited[1:] if any(e["kind"] == kind for e in r["payload"].get("random", ())))
    next(e for e in drawn["payload"]["random"] if e["kind"] == kind)[field] = value
    path = tmp_path / "log.ndjson"
    path.write_text("\n".join(lines_of(rechain(edited))) + "\n")
    try:
        run = subprocess.run([sys.executable, "-m", "replays.verify", str(path)], capture_output=True, text=True,
                             check=False, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the verifier never ends on a {kind} of {field} {value}")
    assert run.returncode == 1 and run.stderr == "", run.stderr[-300:]
    assert run.stdout.splitlines()[-1].startswith(f"FAIL version {drawn['version']} ")


def test_backups_to_a_version_re_refereeing_keeps_a_copy_of_import_as_played():
    """U2: a backup reshuffles the pile its span revealed ("Korona's backups"), from the match as it was at that
    version. Re-refereeing keeps a copy of the match every SNAPSHOT_INTERVAL versions; a backup to the very version of
    a copy reshuffled that copy's own pile, so a second backup to it reshuffled another pile than the server did and a
    log the server recorded was refused (a helper's review)."""
    app, match, move = korona(5)
    while app.load(match.id).version < SNAPSHOT_INTERVAL:
        move()
    kept = app.load(match.id).version  # the first version between two moves from SNAPSHOT_INTERVAL on: a copy's
    for _ in range(2):
        for _ in range(8):
            move()
        app.back_up(match.id, kept, "misplay")
    while not app.load(match.id).finished:
        move()
    assert rereferee(export_lines(str(match.id), "korona", app.history(match.id))).version == \
        app.load(match.id).version
