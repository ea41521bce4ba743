"""Round time (issue 42, RULINGS P1 and P4): time called in a match plays the turn under way and its extra turns,
then the game counts the position; or the match is a draw at once. Re-refereeing recomputes it all."""
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
from domain.matches import Matches, event_record
from domain.tournaments import desk
from replays.export import export_lines
from replays.referee import Rejected, rereferee
from replays.tournament_audit import Differs, audit
from service.timekeeper import Timekeeper
from tests.helpers.api import assert_problem, auth
from tests.helpers.logs import rechain, rechain_tournament
from tests.helpers.server import call, shared_server
from tests.helpers.tournaments import play_match

SEATS = {"korona": 2, "crusader_kingdoms": 3, "for_a_crown": 3, "kingdom_tcg": 2}


def after_moves(game: str, moves: int, seed: int) -> tuple[Match, random.Random]:
    """A match of `game` after `moves` random legal moves."""
    seats = SEATS[game]
    match = Match.create(uuid.uuid4(), game, ["Ana", "Bo", "Cy"][:seats], ["a"] * seats,
                         {"referee": "", "seats": [""] * seats}, bytes([seed]) * 32, {})
    match.start()
    chooser = random.Random(seed)
    for _ in range(moves):
        play_random_move(match, chooser)
    return match, chooser


def play_random_move(match: Match, chooser: random.Random) -> None:
    seat = match.game.awaiting(match.state)
    match.play(seat, chooser.choice(match.game.legal_moves(match.state, seat)))


def log_of(match: Match) -> list[str]:
    return export_lines(str(match.id), match.game_name, [event_record(e) for e in match.pending_events])


@pytest.mark.parametrize("game", sorted(SEATS))
@pytest.mark.parametrize("extra_turns", [0, 2])
def test_time_called_plays_the_turn_and_its_extra_turns_then_counts_the_position(game, extra_turns):
    match, chooser = after_moves(game, 12, seed=extra_turns + 1)
    assert not match.finished
    current = match.state["current"]
    match.call_time(extra_turns)
    turns = []
    while not match.finished:
        before = len(match.pending_events)
        play_random_move(match, chooser)
        turns += [e.payload for e in match.pending_events[before:] if e.name == "ExtraTurnBegan"]
        assert len(turns) <= extra_turns
    assert [t["turn"] for t in turns] == list(range(1, extra_turns + 1))
    assert all(t["seat"] != current for t in turns[:1])  # a turn begins when another seat's starts
    finished = next(e.payload for e in match.pending_events if e.name == "MatchFinished")
    assert finished["reason"] == "time"
    assert match.game.ranked_by is None or match.game.ranked_by in finished  # the game's count (P1)
    assert rereferee(log_of(match)).chain == match.chain


def test_time_called_with_a_draw_ends_the_match_at_once_and_only_once():
    match, _ = after_moves("korona", 6, seed=3)
    match.call_time(None)
    assert match.finished and match.state["winners"] == [] and match.state["result"]["reason"] == "time"
    with pytest.raises(IllegalMove):
        match.call_time(None)
    assert rereferee(log_of(match)).version == match.version


def test_a_backup_past_the_call_keeps_time_called():
    """RULINGS P4: backed up to before time was called, the match is still in its extra turns, counted again."""
    match, chooser = after_moves("korona", 8, seed=5)
    at = match.version
    state = match.game.copy_state(match.state)
    match.call_time(1)
    play_random_move(match, chooser)
    match.back_up(at, "a misdeal", state, [])
    assert match.state["time"] == {"extra_turns": 1, "turn": 0, "current": state["current"]}


def test_an_extra_turn_left_out_of_the_log_is_caught():
    match, chooser = after_moves("kingdom_tcg", 10, seed=7)
    match.call_time(3)
    while not match.finished:
        play_random_move(match, chooser)
    rows = [json.loads(line) for line in log_of(match)]
    extra = next(i for i, row in enumerate(rows) if row.get("type") == "ExtraTurnBegan")
    rows[extra]["payload"]["turn"] = 2
    with pytest.raises(Rejected) as refused:
        rereferee([json.dumps(row) for row in rechain(rows)])
    assert refused.value.version == rows[extra]["version"]


# ---------------------------------------------------------------- a tournament's round time (RULINGS T13)

TIMED = {"name": "Timed Swiss", "game": "korona", "format": "swiss", "rounds": 1, "round_minutes": 0.02,
         "end_of_round": {"extra_turns": 1}}


def timed_tournament(client, **spec) -> tuple[str, str, dict, dict]:
    """A four-player Swiss with round time, round 1 paired: its id, organiser token, players' tokens and round."""
    created = client.post("/tournaments", json={**TIMED, **spec})
    assert created.status_code == 201, created.get_json()
    tid, organiser = created.get_json()["tournament_id"], created.get_json()["organiser_token"]
    tokens = {}
    for name in ("Ana", "Bo", "Cy", "Di"):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = answer["token"]
    round_ = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    return tid, organiser, tokens, round_


def test_round_time_is_called_then_an_unfinished_table_plays_its_extra_turns_and_is_counted(sqlite_client):
    """Issue 42's must-show: round_minutes scaled down (1.2 s) calls time; the finished table keeps its result, the
    unfinished one plays its extra turn and is counted by Korona's ruling (K20); the timeline tells it and the audit
    recomputes it, catching a time called early or a match's extra turns changed."""
    client = sqlite_client
    tid, organiser, tokens, round_ = timed_tournament(client)
    deadline = clock.read(round_["deadline"])
    paired = json.loads(client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()[-1])
    assert deadline - clock.read(paired["payload"]["at"]) == timedelta(seconds=1.2)
    first, second = round_["tables"]
    play_match(client, first["match_id"], tokens, first["players"], random.Random(1))
    keeper = Timekeeper(client.application.extensions["herald"])
    assert keeper.tick() == 0  # not yet due
    time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 0.3)
    assert keeper.tick() == 1
    shown = client.get(f"/tournaments/{tid}/rounds/1").get_json()
    assert shown["time_called"]["tables"] == [second["table"]]
    events = client.get(f"/matches/{second['match_id']}/events", headers=auth(organiser)).get_json()["events"]
    assert [e["payload"] for e in events if e["type"] == "TimeCalled"] == [{"extra_turns": 1}]
    play_match(client, second["match_id"], tokens, second["players"], random.Random(2))
    ended = client.get(f"/matches/{second['match_id']}/events", headers=auth(organiser)).get_json()["events"]
    finished = next(e["payload"] for e in ended if e["type"] == "MatchFinished")
    assert finished["reason"] == "time" and "scores" in finished
    assert [e["payload"]["turn"] for e in ended if e["type"] == "ExtraTurnBegan"] == [1]
    said = " ".join(client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"])
    assert f"Time was called in round 1: tables still playing: {second['table']}." in said
    assert "time was called; it played 1 extra turn, then the position was counted" in said
    assert client.get(f"/tournaments/{tid}").get_json()["status"] == "finished"
    lines = client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()
    exports = [client.get(f"/matches/{t['match_id']}/export", headers=auth(organiser)).get_data(as_text=True)
               .splitlines() for t in round_["tables"]]
    assert audit(lines, exports)[2] == "ok   1 rounds of pairings recomputed from the seed and the results"
    rows = [json.loads(line) for line in lines]
    called = next(row for row in rows if row.get("type") == "TimeCalled")
    called["payload"]["at"] = clock.stamp(deadline - timedelta(seconds=1))
    with pytest.raises(Differs, match="no round's time has run out"):
        audit([json.dumps(row) for row in rechain_tournament(rows)], exports)
    match_rows = [json.loads(line) for line in exports[1]]
    next(row for row in match_rows if row.get("type") == "TimeCalled")["payload"]["extra_turns"] = 0
    with pytest.raises((Differs, Rejected)):
        audit(lines, [exports[0], [json.dumps(row) for row in rechain(match_rows)]])


@pytest.fixture(params=["sqlite", "postgres"])
def server(request):
    """A real server on each event store, shared with other tests."""
    return shared_server(request, request.param)


def test_time_called_with_a_draw_ends_every_unfinished_table_drawn_with_no_request(server):
    """The server's timekeeper calls time with nobody asking: {"draw": true} draws both unplayed tables."""
    store = Matches(env=server.store_env)
    try:
        status, created = call(server.base, "POST", "/tournaments", {**TIMED, "end_of_round": {"draw": True}})
        assert status == 201, created
        tid, organiser = created["tournament_id"], created["organiser_token"]
        for name in ("Ana", "Bo", "Cy", "Di"):
            assert call(server.base, "POST", f"/tournaments/{tid}/players", {"name": name}, organiser)[0] == 201
        assert call(server.base, "POST", f"/tournaments/{tid}/rounds", token=organiser)[0] == 201
        deadline = time.monotonic() + 30
        while desk.load(store, tid).status != "finished":  # the event store read by the test: no request meanwhile
            assert time.monotonic() < deadline, "the server never called time"
            time.sleep(0.05)
        shown = call(server.base, "GET", f"/tournaments/{tid}/rounds/1")[1]
        assert len(shown["time_called"]["tables"]) == 2
        assert all(len(t["placements"]) == 1 for t in shown["tables"])  # everyone at each table placed together
        assert call(server.base, "GET", f"/tournaments/{tid}")[1]["status"] == "finished"
    finally:
        store.close()


@pytest.mark.parametrize("spec, status", [
    ({"end_of_round": {"extra_turns": 2}, "round_minutes": None}, 422),
    ({"end_of_round": {"extra_turns": 2, "draw": True}}, 422),
    ({"end_of_round": {}}, 422),
    ({"round_minutes": 0}, 400),
    ({"end_of_round": {"draw": False}}, 400),
])
def test_a_round_time_that_is_not_one_is_refused(sqlite_client, spec, status):
    body = {**TIMED, **spec}
    if spec.get("round_minutes", 1) is None:
        del body["round_minutes"]
    assert_problem(sqlite_client.post("/tournaments", json=body), status)
