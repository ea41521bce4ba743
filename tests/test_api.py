"""The HTTP contract: whole games through legal-moves, every error status, redaction, OpenAPI, health."""
from __future__ import annotations

import json
import random

import pytest

from tests.helpers.api import Table, assert_problem, auth
from tests.helpers.console_forms import form_token

PROBLEM = "application/problem+json"


@pytest.mark.parametrize("players", [["Ana", "Bo"], ["Ana", "Bo", "Cy"], ["Ana", "Bo", "Cy", "Di"]])
def test_a_whole_game_is_played_through_legal_moves_to_a_winner(client, players):
    """2, 3 and 4 players play a whole Korona game over HTTP, each move picked from GET /legal-moves."""
    table = Table(client, players)
    chooser = random.Random(len(players))
    for step in range(2000):
        view = table.view()
        if view["status"] == "finished":
            break
        current = view["awaiting_seat"]
        moves = table.moves(current)
        assert moves
        if step % 15 == 0:
            assert all(table.moves(seat) == [] for seat in range(len(players)) if seat != current)
        result = table.play(current, chooser.choice(moves))
        assert result["version"] > view["version"]
        assert result["chain_head"] == result["events"][-1]["chain"]
    final = table.view()
    assert final["status"] == "finished"
    assert final["winners"] and (final["winner"] is None or final["winner"] in final["winners"])
    assert client.get(f"/matches/{table.id}").get_json()["status"] == "finished"
    log = table.get("/events", table.tokens[0]).get_json()["events"]
    assert [e["type"] for e in log[-2:]] == ["MatchFinished", "SeedRevealed"]


def test_create_answers_tokens_once_and_the_public_summary(client):
    table = Table(client, ["Ana", "Bo"])
    created = table.created
    assert [s["seat"] for s in created["seats"]] == [0, 1]
    assert len({*table.tokens, table.referee}) == 3
    summary = client.get(f"/matches/{table.id}").get_json()
    assert summary["players"] == ["Ana", "Bo"] and summary["status"] == "active"
    assert "token" not in json.dumps(summary)
    listed = client.get("/matches?status=active").get_json()
    assert [m["match_id"] for m in listed] == [table.id]
    assert client.get("/matches?status=finished").get_json() == []


def test_a_seat_sees_its_own_hand_only_and_the_referee_sees_the_pile(client):
    table = Table(client, ["Ana", "Bo", "Cy"])
    ana = table.view(table.tokens[0])
    assert "hand" in ana["players"][0] and len(ana["players"][0]["hand"]) == 5
    assert all("hand" not in p for p in ana["players"][1:])
    assert "draw_pile" not in ana
    referee = table.view()
    assert all(len(p["hand"]) == 5 for p in referee["players"])
    assert len(referee["draw_pile"]) == referee["draw_pile_count"] == 90 - 15 - 3


@pytest.mark.parametrize("game, players", [("korona", ["Ana", "Bo", "Cy"]),
                                           ("crusader_kingdoms", ["Saladin", "Baldwin", "Raymond"])])
def test_anyone_may_watch_the_spectator_view_which_shows_no_hidden_card(client, context, game, players):
    """The spectator view of the projections is served without a token: hand counts, never a hand or the pile."""
    table = Table(client, players, game)
    watched = client.get(f"/matches/{table.id}/spectator-view")
    assert watched.status_code == 200
    shown = watched.get_json()
    referee = table.view()
    assert shown["version"] == referee["version"] and shown["status"] == "active"
    assert '"hand"' not in json.dumps(shown) and "draw_pile" not in shown and "draw_piles" not in shown
    assert "options" not in json.dumps(shown.get("pending") or {})
    assert context.projector.view(table.id, None) == shown  # served from the Redis projection
    assert client.get("/matches/00000000-0000-0000-0000-000000000000/spectator-view").status_code == 404


def test_the_log_is_redacted_for_a_seat(client):
    table = Table(client, ["Ana", "Bo"])
    seat_log = table.get("/events", table.tokens[0]).get_json()["events"]
    referee_log = table.get("/events", table.referee).get_json()["events"]
    assert [e["type"] for e in seat_log] == [e["type"] for e in referee_log]
    dealt = [e for e in seat_log if e["type"] == "CardsDealt"]
    assert "cards" in dealt[0]["payload"] and "cards" not in dealt[1]["payload"]
    assert dealt[1]["payload"]["count"] == 5
    shuffled = next(e for e in seat_log if e["type"] == "DeckShuffled")
    assert shuffled["payload"]["random"][0]["result"] is None
    assert next(e for e in referee_log if e["type"] == "DeckShuffled")["payload"]["random"][0]["result"]


@pytest.fixture
def table(client):
    return Table(client, ["Ana", "Bo"])


def current(table):
    return table.view()["current_seat"]


def test_malformed_move_is_400_with_field_errors_and_changes_nothing(table):
    before = table.version()
    seat = current(table)
    problem = assert_problem(table.post({"type": "draw", "source": "hat"}, table.tokens[seat]), 400)
    assert "source" in problem["errors"]
    assert_problem(table.post({"type": "draw", "source": "pile", "colour": "red"}, table.tokens[seat]), 400)
    assert_problem(table.client.post(f"/matches/{table.id}/moves", data="{not json",
                                     headers={**auth(table.tokens[seat]), "Content-Type": "application/json"}), 400)
    assert table.version() == before


def test_missing_or_unknown_token_is_401_and_changes_nothing(table):
    before = table.version()
    assert_problem(table.client.post(f"/matches/{table.id}/moves", json={"type": "end_turn"}), 401)
    assert_problem(table.post({"type": "end_turn"}, "not-a-token"), 401)
    assert_problem(table.get("/view", "not-a-token"), 401)
    assert table.version() == before


def test_a_token_of_another_match_is_403_and_changes_nothing(client, table):
    other = Table(client, ["Cy", "Di"])
    before = table.version()
    assert_problem(table.post({"type": "draw", "source": "pile"}, other.tokens[0]), 403)
    assert_problem(table.get("/view", other.referee), 403)
    assert table.version() == before


def test_the_referee_token_cannot_play_a_seat_move(table):
    before = table.version()
    assert_problem(table.post({"type": "draw", "source": "pile"}, table.referee), 403)
    assert table.version() == before


def test_unknown_match_is_404_and_changes_nothing(client, table):
    before = table.version()
    response = client.get("/matches/00000000-0000-0000-0000-000000000000/view", headers=auth(table.referee))
    assert_problem(response, 404)
    assert_problem(client.get("/matches/not-a-uuid"), 404)
    assert_problem(client.post("/matches/nope/moves", json={"type": "end_turn"}, headers=auth(table.referee)), 404)
    assert table.version() == before
    assert [m["match_id"] for m in client.get("/matches").get_json()] == [table.id]


def test_the_referee_settles_an_awaited_decision_with_resolve_for(table):
    """K17 over HTTP: the referee decides for the awaited seat (recorded as RefereeResolved, then the move's
    events); a seat cannot send resolve_for (403); a seat whose decision is not awaited cannot be resolved for
    (422); nothing changes on a refusal."""
    seat = current(table)
    before = table.version()
    assert_problem(table.post({"type": "draw", "source": "pile", "resolve_for": seat}, table.tokens[seat]), 403)
    problem = assert_problem(table.post({"type": "default", "resolve_for": 1 - seat}, table.referee), 422)
    assert f"seat {1 - seat}" in problem["detail"]
    assert_problem(table.post({"type": "default", "resolve_for": 5}, table.referee), 422)
    assert_problem(table.post({"type": "default"}, table.tokens[seat]), 422)
    assert table.version() == before
    resolved = table.post({"type": "draw", "source": "pile", "resolve_for": seat, "reason": "Ana left the table"},
                          table.referee)
    assert resolved.status_code == 200, resolved.get_json()
    events = resolved.get_json()["events"]
    assert [e["type"] for e in events] == ["RefereeResolved", "CardsDrawn"]
    assert events[0]["payload"] == {"seat": seat, "move": {"type": "draw", "source": "pile"}, "default": False,
                                    "reason": "Ana left the table"}
    assert table.view(table.tokens[seat])["players"][seat]["hand_count"] == 7
    first = table.moves(seat)[0]
    assert {"type": "pass"} not in table.moves(seat)
    defaulted = table.post({"type": "default", "resolve_for": seat, "reason": "no answer"}, table.referee)
    assert defaulted.get_json()["events"][0]["payload"] == {"seat": seat, "move": first, "default": True,
                                                             "reason": "no answer"}


def test_the_referee_decides_before_the_stall_only_with_a_reason_shown_to_the_seat(client):
    """Issue 42: deciding a move for a seat is allowed once that decision has stalled past HERALD_STALL_SECONDS, or
    with a reason recorded in the event and shown to the seat. Before the stall, without a reason: 422 and nothing
    recorded; a blank reason: 400; a seat sending a reason: 422. After the stall: no reason needed."""
    table = Table(client, ["Ana", "Bo"])
    seat, before = current(table), table.version()
    early = assert_problem(table.post({"type": "default", "resolve_for": seat}, table.referee), 422)
    assert "HERALD_STALL_SECONDS" in early["detail"] and "reason" in early["detail"]
    assert_problem(table.post({"type": "default", "resolve_for": seat, "reason": " \n "}, table.referee), 400)
    assert_problem(table.post({"type": "draw", "source": "pile", "reason": "why"}, table.tokens[seat]), 422)
    assert table.version() == before
    resolved = table.post({"type": "default", "resolve_for": seat, "reason": "  Ana left the table  "}, table.referee)
    assert resolved.status_code == 200, resolved.get_json()
    told = [e["summary"] for e in table.get("/timeline", table.tokens[seat]).get_json()]
    assert any(line.startswith(f"The referee decided for {['Ana', 'Bo'][seat]} by the game's default, before the "
                               "decision stalled: Ana left the table") for line in told), told
    herald = client.application.extensions["herald"]
    herald.stall_seconds = 0  # every decision has stalled: the referee decides without a reason
    try:
        assert table.post({"type": "default", "resolve_for": current(table)}, table.referee).status_code == 200
    finally:
        herald.stall_seconds = 300


def test_stale_expected_version_is_409_and_changes_nothing(table):
    before = table.version()
    seat = current(table)
    assert_problem(table.post({"type": "draw", "source": "pile", "expected_version": before - 1},
                              table.tokens[seat]), 409)
    assert table.version() == before
    played = table.play(seat, {"type": "draw", "source": "pile", "expected_version": before})
    assert played["version"] == before + 1


def test_illegal_move_is_422_with_a_reason_and_changes_nothing(table):
    before = table.version()
    seat = current(table)
    waiting = 1 - seat
    problem = assert_problem(table.post({"type": "draw", "source": "pile"}, table.tokens[waiting]), 422)
    assert "turn" in problem["detail"]
    problem = assert_problem(table.post({"type": "end_turn"}, table.tokens[seat]), 422)
    assert "draw first" in problem["detail"]
    assert table.version() == before


def test_create_rejects_malformed_requests(client):
    """Setup: "Players: 2 to 4" -- one or five players are refused, as is every other malformed request."""
    assert_problem(client.post("/matches", json={"game": "korona", "players": ["Solo"]}), 400)
    problem = assert_problem(client.post("/matches", json={"game": "korona", "players": list("ABCDE")}), 400)
    assert "korona is played by 2 to 4 players" in json.dumps(problem["errors"])
    assert_problem(client.post("/matches", json={"game": "chess", "players": ["A", "B"]}), 400)
    assert_problem(client.post("/matches", json={"game": "korona", "players": [{"name": "A", "client_seed": "bad seed!"},
                                                                               "B"]}), 400)
    assert_problem(client.post("/matches", json={"game": "korona", "players": ["A", "B"], "extra": 1}), 400)
    for seed in ("abc\n", "", "x" * 65):
        problem = assert_problem(client.post("/matches", json={"game": "korona", "players": [
            {"name": "A", "client_seed": seed}, "B"]}), 400)
        assert "client_seed" in json.dumps(problem["errors"])
    problem = assert_problem(client.post("/matches", json={"game": "korona", "players": ["\ud800", "B"]}), 400)
    assert "surrogate" in json.dumps(problem["errors"])
    problem = assert_problem(client.post("/matches", json={"game": "korona", "players": ["A", "B"],
                                                          "options": {"map": {}}}), 400)
    assert "korona takes no option map" in json.dumps(problem["errors"])
    problem = assert_problem(client.post("/matches", json={"game": "crusader_kingdoms", "players": ["A", "B", "C"],
                                                          "options": {"mapp": {}}}), 400)
    assert "mapp" in json.dumps(problem["errors"])
    assert_problem(client.post("/matches", json={"game": "crusader_kingdoms", "players": ["A", "B", "C"],
                                                "options": {"map": "my-map.json"}}), 400)
    assert client.get("/matches").get_json() == []


def test_free_text_with_a_lone_surrogate_is_400_and_changes_nothing(table):
    """A claim or a reason escaping a lone surrogate is no text: 400, never a 500 from the event's hash."""
    before = table.version()
    for path, body in (("/disputes", {"version": 1, "claim": "\udfff"}),
                       ("/undo-requests", {"to_version": 2, "reason": "a\ud800b"})):
        response = table.client.post(f"/matches/{table.id}{path}", json=body, headers=auth(table.tokens[0]))
        assert_problem(response, 400)
    assert table.version() == before


def test_oversized_body_is_413(table):
    seat = current(table)
    response = table.client.post(f"/matches/{table.id}/moves", data="x" * (70 * 1024),
                                 headers={**auth(table.tokens[seat]), "Content-Type": "application/json"})
    assert_problem(response, 413)


def test_openapi_and_health(client):
    spec = client.get("/openapi.json").get_json()
    assert "/matches/{match_id}/moves" in spec["paths"]
    assert "MoveSchema" in json.dumps(spec) or "Move" in json.dumps(spec)
    health = client.get("/health")
    assert health.status_code == 200
    assert health.get_json()["status"] == "ok" and health.get_json()["event_store"]


def test_a_tournament_id_is_no_match_on_any_match_route(client):
    """Matches and tournaments share one event store: a tournament's id given where a match's is expected is an
    unknown match on every route of the API and the console (404, with the organiser's token or none), never the
    tournament loaded as a match (a 500)."""
    created = client.post("/tournaments", json={"name": "Cup", "game": "korona", "format": "swiss", "rounds": 1})
    tournament_id, organiser = created.get_json()["tournament_id"], created.get_json()["organiser_token"]
    routes = [(rule.rule, method) for rule in client.application.url_map.iter_rules()
              if "<uuid:match_id>" in rule.rule for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    assert len(routes) > 25
    found = set()
    form = {"csrf_token": form_token(client)}  # the console's forms carry their page's token
    for rule, method in routes:
        path = rule.replace("<uuid:match_id>", tournament_id).replace("<dispute_id>", "d1").replace(
            "<request_id>", "u1")
        for headers in (auth(organiser), {}):
            body = ({"json": {}} if path.startswith("/matches") else {"data": form}) if method == "POST" else {}
            response = client.open(path, method=method, headers=headers, **body)
            # 400 and 401: refused before any lookup (a body the route's schema refuses, no token)
            assert response.status_code in (400, 401, 404), (method, path, response.status_code,
                                                              response.get_data()[:200])
            found.add(response.status_code)
    assert 404 in found
