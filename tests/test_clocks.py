"""Match clocks (issue 42, RULINGS P3): chess-style and per-decision with a bank, only the awaited seat's running, the
time read from the events, the referee's changes with a reason, backups restoring the clocks, replays and audits
showing them as they stood, and a clock that runs out recorded by the server with no request to bring it."""
from __future__ import annotations

import json
import random
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from domain import clock
from domain.errors import IllegalMove
from domain.match import Match
from domain.matches import Matches
from replays.referee import Rejected, rereferee
from service.cli import main
from service.timekeeper import Timekeeper
from tests.helpers.api import Table, assert_problem, auth, export, play_to_the_end
from tests.helpers.logs import rechain
from tests.helpers.server import call, shared_server
from tests.helpers.tournaments import play_match

CHESS = {"initial_s": 60, "increment_s": 2, "on_timeout": "default_move"}
BANK = {"per_decision_s": 10, "bank_s": 30, "on_timeout": "default_move"}
T0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def clocked(option: dict, players=("Ana", "Bo")) -> Match:
    """A started Korona match with this clock, its time read as T0."""
    match = Match.create(uuid.uuid4(), "korona", list(players), ["a"] * len(players),
                         {"referee": "", "seats": [""] * len(players)}, b"s" * 32, {"clock": option})
    match.time_read = T0
    match.start()
    return match


def decide_at(match: Match, seconds: float) -> dict:
    """The awaited seat makes its first legal move `seconds` after T0; the ClockSet that follows."""
    match.time_read = T0 + timedelta(seconds=seconds)
    seat = match.game.awaiting(match.state)
    match.play(seat, match.game.legal_moves(match.state, seat)[0])
    recorded = match.pending_events[-1]
    assert recorded.name == "ClockSet"
    return recorded.payload


def test_a_chess_clock_charges_the_deciding_seat_and_adds_its_increment():
    match = clocked(CHESS)
    seat = match.game.awaiting(match.state)
    assert match.state["clocks"] == {"at": "2026-11-28T12:00:00.000Z", "seats": [60, 60], "allowance_s": 0,
                                     "running": seat, "paused": False}
    payload = decide_at(match, 7.5)
    assert payload["seats"][seat] == 60 - 7.5 + 2 and payload["seats"][1 - seat] == 60
    assert payload["at"] == "2026-11-28T12:00:07.500Z"
    awaited = match.game.awaiting(match.state)
    shown = {row["seat"]: row for row in clock.shown(match.state["clocks"])}
    assert shown[awaited]["running"] and not shown[1 - awaited]["running"]
    assert shown[awaited]["deadline"] == clock.stamp(T0 + timedelta(seconds=7.5 + payload["seats"][awaited]))


def test_a_bank_is_spent_only_past_each_decisions_allowance():
    match = clocked(BANK)
    seat = match.game.awaiting(match.state)
    first = decide_at(match, 15)  # 10 s allowed, 5 from the bank
    assert first["seats"][seat] == 25
    second_seat = match.game.awaiting(match.state)
    second = decide_at(match, 15 + 4)  # within its allowance: the bank untouched
    assert second["seats"][second_seat] == (25 if second_seat == seat else 30)
    assert second["allowance_s"] == 10  # the next decision's own


def test_a_clock_runs_out_at_its_deadline_and_the_default_move_is_recorded():
    match = clocked({"initial_s": 2, "increment_s": 0, "on_timeout": "default_move"})
    seat = match.game.awaiting(match.state)
    match.time_read = T0 + timedelta(seconds=1.999)
    with pytest.raises(IllegalMove):
        match.expire()
    match.time_read = T0 + timedelta(seconds=2)
    before = len(match.pending_events)
    match.expire()
    recorded = [e.name for e in match.pending_events[before:]]
    assert recorded[0] == "ClockExpired" and recorded[-1] == "ClockSet" and len(recorded) > 2
    assert match.pending_events[before].payload == {"seat": seat, "at": "2026-11-28T12:00:02.000Z",
                                                    "on_timeout": "default_move"}
    assert match.state["clocks"]["seats"][seat] == 0


@pytest.mark.parametrize("option, refused", [
    ({"initial_s": 0, "increment_s": 5, "on_timeout": "lose"}, "initial_s is at least 0.001 s"),
    ({"initial_s": 60, "on_timeout": "lose"}, "a clock is"),
    ({"per_decision_s": 10, "bank_s": 30, "on_timeout": "pass"}, "on_timeout"),
    ({"per_decision_s": 10, "bank_s": True, "on_timeout": "lose"}, "bank_s is a number"),
    ({"initial_s": 60, "increment_s": 0, "bank_s": 5, "on_timeout": "lose"}, "a clock is"),
])
def test_a_clock_option_that_is_not_one_is_refused_with_its_reason(sqlite_client, option, refused):
    answer = sqlite_client.post("/matches", json={"game": "korona", "players": ["Ana", "Bo"],
                                                  "options": {"clock": option}})
    assert_problem(answer, 400)
    assert refused in json.dumps(answer.get_json())


def test_every_view_shows_the_clocks_and_the_referee_changes_them_with_a_reason(client):
    table = Table(client, ("Ana", "Bo"), options={"clock": CHESS})
    for viewer in (table.tokens[0], table.tokens[1], table.referee):
        clocks = table.view(viewer)["clocks"]
        assert [row["seat"] for row in clocks] == [0, 1] and sum(row["running"] for row in clocks) == 1
    assert client.get(f"/matches/{table.id}/spectator-view").get_json()["clocks"] == clocks

    def change(body, token=table.referee):
        return client.post(f"/matches/{table.id}/clock", json=body, headers=auth(token))

    assert_problem(change({"seat": 1, "add_s": 30, "reason": "a"}, table.tokens[0]), 403)
    assert_problem(change({"seat": 1, "add_s": 30, "reason": "   "}), 400)
    assert_problem(change({"seat": 1, "add_s": 30}), 400)
    assert_problem(change({"reason": "nothing said"}), 422)
    before = table.view()["clocks"][1]["remaining_s"]
    added = change({"seat": 1, "add_s": 30, "reason": "a judge call took time"})
    assert added.status_code == 200, added.get_json()
    assert before + 29 < added.get_json()["clocks"][1]["remaining_s"] <= before + 30
    paused = change({"paused": True, "reason": "a fire drill"}).get_json()
    assert not any(row["running"] for row in paused["clocks"])
    assert_problem(change({"paused": True, "reason": "again"}), 422)
    assert change({"paused": False, "reason": "back"}).get_json()["clocks"][table.view()["awaiting_seat"]]["running"]
    told = [e["summary"] for e in table.get("/timeline", table.tokens[0]).get_json()]
    assert "The referee added 0:30 to Bo's clock: a judge call took time" in told
    assert "The referee paused the clocks: a fire drill" in told


def play_moves(table: Table, count: int) -> None:
    for _ in range(count):
        seat = table.view()["awaiting_seat"]
        table.play(seat, table.moves(seat)[0])


def test_a_backup_restores_the_clocks_as_they_stood(client):
    """RULINGS P3: the clocks as they were at the version backed up to, running again from the backup."""
    table = Table(client, ("Ana", "Bo"), options={"clock": BANK})
    play_moves(table, 3)
    to_version = table.version()
    then = table.get(f"/replay?version={to_version}", table.referee).get_json()["clocks"]
    play_moves(table, 3)
    backed = client.post(f"/matches/{table.id}/undo", json={"to_version": to_version, "reason": "misdeal"},
                         headers=auth(table.referee))
    assert backed.status_code == 200, backed.get_json()
    now = table.view()["clocks"]
    assert [row["running"] for row in now] == [row["running"] for row in then]
    stood = [row["remaining_s"] - (BANK["per_decision_s"] if row["running"] else 0) for row in then]
    assert [row["remaining_s"] - (BANK["per_decision_s"] if row["running"] else 0) for row in now] == stood


def test_the_replay_shows_the_clocks_at_every_version_and_the_audit_recomputes_them(sqlite_client, tmp_path):
    table = Table(sqlite_client, ("Ana", "Bo"), options={"clock": CHESS})
    play_to_the_end(table, random.Random(6))
    log = [json.loads(line) for line in export(table, table.referee)]
    for row in log[1:]:
        clocks = table.get(f"/replay?version={row['version']}", table.referee).get_json()["clocks"]
        assert len(clocks) == 2
        if row["type"] == "ClockSet":
            p = row["payload"]
            assert [c["remaining_s"] for c in clocks] == [
                t + (p["allowance_s"] if s == p["running"] else 0) for s, t in enumerate(p["seats"])]
    assert rereferee([json.dumps(row) for row in log]).version == len(log) - 1
    tampered = json.loads(json.dumps(log))
    at = next(i for i, row in enumerate(tampered) if row.get("type") == "ClockSet" and i > 3)
    tampered[at]["payload"]["seats"][0] += 30
    with pytest.raises(Rejected) as refused:
        rereferee([json.dumps(row) for row in rechain(tampered)])
    assert refused.value.version == tampered[at]["version"]


def test_an_expiry_recorded_before_its_deadline_is_caught(sqlite_client):
    table = Table(sqlite_client, ("Ana", "Bo"), options={"clock": {"per_decision_s": 1, "bank_s": 0,
                                                                   "on_timeout": "default_move"}})
    time.sleep(1.05)
    late = table.view()["awaiting_seat"]
    assert "time ran out" in table.post(table.moves(late)[0], table.tokens[late]).get_json()["detail"]
    assert Timekeeper(sqlite_client.application.extensions["herald"]).tick() == 1
    play_to_the_end(table, random.Random(1))
    log = [json.loads(line) for line in export(table, table.referee)]
    expired = next(row for row in log if row.get("type") == "ClockExpired")
    assert rereferee([json.dumps(row) for row in log])
    expired["payload"]["at"] = log[expired["version"] - 1]["payload"]["at"]  # the ClockSet's before it: no time spent
    with pytest.raises(Rejected, match="no clock has run out"):
        rereferee([json.dumps(row) for row in rechain(log)])


@pytest.fixture(params=["sqlite", "postgres"])
def server(request):
    """A real server on each event store, shared with other tests."""
    return shared_server(request, request.param)


def test_the_server_records_a_clock_running_out_within_a_second_with_no_request(server):
    """Issue 42's must-show: a Korona match with a 2 s clock whose seat does not move gets its default move recorded
    within 1 s of its deadline, nobody asking; with `lose`, the match ends with that seat's loss."""
    store = Matches(env=server.store_env)  # the test reads the event store itself: no request to the server meanwhile
    try:
        made = {}
        for on_timeout in ("default_move", "lose"):
            status, created = call(server.base, "POST", "/matches", {
                "game": "korona", "players": ["Ana", "Bo"],
                "options": {"clock": {"initial_s": 2, "increment_s": 0, "on_timeout": on_timeout}}})
            assert status == 201, created
            view = call(server.base, "GET", f"/matches/{created['match_id']}/view", token=created["referee_token"])[1]
            running = next(row for row in view["clocks"] if row["running"])
            made[on_timeout] = (created, running, view["version"])
        deadline = time.monotonic() + 30
        while any(store.load(created["match_id"], for_reading=True).version == version  # no request meanwhile
                  for created, _, version in made.values()):
            assert time.monotonic() < deadline, "the server recorded no clock running out"
            time.sleep(0.05)
        for on_timeout, (created, running, _) in made.items():
            status, log = call(server.base, "GET", f"/matches/{created['match_id']}/events",
                               token=created["referee_token"])
            events = log["events"]
            expired = next(e for e in events if e["type"] == "ClockExpired")
            late = clock.read(expired["payload"]["at"]) - clock.read(running["deadline"])
            assert timedelta(0) <= late < timedelta(seconds=1)
            assert expired["payload"] == {**expired["payload"], "seat": running["seat"], "on_timeout": on_timeout}
            after = events[events.index(expired) + 1]
            if on_timeout == "default_move":
                assert after["type"] not in ("MatchFinished", "ClockSet")  # the default move's own events
            else:
                assert after["type"] == "MatchFinished" and after["payload"]["winners"] == [1 - running["seat"]]
    finally:
        store.close()


def test_herald_audit_tournament_catches_a_tampered_clock(sqlite_client, tmp_path, capsys):
    """Issue 42: a tournament whose matches run clocks audits with its match exports, and a clock changed in one of
    them (the log chained again, as a forger would) fails `herald audit-tournament`, naming the event."""
    client = sqlite_client
    created = client.post("/tournaments", json={"name": "Blitz", "game": "korona", "format": "swiss", "rounds": 1,
                                                "options": {"clock": CHESS}}).get_json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    tokens = {}
    for name in ("Ana", "Bo"):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = answer["token"]
    table = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()["tables"][0]
    play_match(client, table["match_id"], tokens, table["players"], random.Random(4))
    (tmp_path / "t.ndjson").write_text(client.get(f"/tournaments/{tid}/export").get_data(as_text=True))
    rows = [json.loads(line) for line in client.get(f"/matches/{table['match_id']}/export",
                                                    headers=auth(organiser)).get_data(as_text=True).splitlines()]
    (tmp_path / "m.ndjson").write_text("\n".join(json.dumps(row) for row in rows))
    assert main(["audit-tournament", str(tmp_path / "t.ndjson"), str(tmp_path / "m.ndjson")]) == 0
    changed = next(row for row in rows[5:] if row.get("type") == "ClockSet")
    changed["payload"]["seats"][1] += 60
    (tmp_path / "m.ndjson").write_text("\n".join(json.dumps(row) for row in rechain(rows)))
    capsys.readouterr()
    assert main(["audit-tournament", str(tmp_path / "t.ndjson"), str(tmp_path / "m.ndjson")]) == 1
    assert f"version {changed['version']}: the log's ClockSet is not what the rules produce" in capsys.readouterr().out
