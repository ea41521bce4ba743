"""Hostile and mistaken input over HTTP (issue 15, items 5 and 6): every refusal is a problem document with a reason
a player understands, and nothing changes."""
from __future__ import annotations

import json

import pytest

from domain.crusader_kingdoms.data import default_map
from replays.verify import MAX_DEPTH, nesting
from tests.helpers.api import Table, assert_problem, auth


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.fixture
def table(sqlite_client):
    return Table(sqlite_client, ["Ana", "Bo"])


def test_nesting_is_counted_without_parsing_and_never_below_the_parser():
    assert nesting('{"a": [1, {"b": []}]}') == 4
    assert nesting('["[[[[", "\\"]]", "{"]') == 1  # brackets inside strings, escaped quotes
    assert nesting("]]]]" + deep(5)) == 5  # a stray closing bracket hides no depth
    assert nesting('"unclosed\n' + deep(7)) == 7  # no string runs past the end of a line
    assert nesting(deep(MAX_DEPTH)) == MAX_DEPTH


def test_deep_json_is_400_everywhere_before_any_token_or_parsing(sqlite_client, table):
    """1,000 nested lists in about 2 KB were a 500 (RecursionError) on POST /matches, /moves and an import line."""
    client = sqlite_client
    before, version = client.get("/matches").get_json(), table.version()
    seat = table.view()["awaiting_seat"]
    created = client.post("/matches", data=f'{{"game": "korona", "players": ["A", "B"], "options": {{"x": {deep(1000)}}}}}',
                          content_type="application/json")
    move = client.post(f"/matches/{table.id}/moves", data=f'{{"type": {deep(971)}}}', content_type="application/json",
                       headers=auth(table.tokens[seat]))
    anonymous = client.post(f"/matches/{table.id}/moves", data=deep(5000), content_type="application/json")
    imported = client.post("/matches/import", data='{"format": "herald-log-v1"}\n' + deep(1000),
                           headers=auth(table.referee))
    for response in (created, move, anonymous, imported):
        detail = assert_problem(response, 400)["detail"]
        assert "refused unread" in detail and f"at most {MAX_DEPTH}" in detail
    assert client.get("/matches").get_json() == before and table.version() == version


def test_a_body_not_sent_as_json_is_415(sqlite_client, table):
    seat = table.view()["awaiting_seat"]
    version = table.version()
    body = json.dumps({"type": "draw", "source": "pile"})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        response = sqlite_client.post(f"/matches/{table.id}/moves", data=body, content_type=content_type,
                                      headers=auth(table.tokens[seat]))
        assert "Content-Type: application/json" in assert_problem(response, 415)["detail"]
    created = sqlite_client.post("/matches", data='{"game": "korona", "players": ["A", "B"]}',
                                 content_type="text/plain")
    assert_problem(created, 415)
    assert table.version() == version and len(sqlite_client.get("/matches").get_json()) == 1


@pytest.mark.parametrize("number", [1.5, 2.0, "2", True])
def test_versions_are_whole_numbers_never_truncated(sqlite_client, table, number):
    """to_version 1.5 made an undo request to version 1 and version 1.5 opened a dispute at version 1."""
    seat = table.view()["awaiting_seat"]
    version = table.version()
    for path, body in (("/undo-requests", {"to_version": number, "reason": "misclick"}),
                       ("/disputes", {"version": number, "claim": "unfair"}),
                       ("/moves", {"type": "draw", "source": "pile", "expected_version": number})):
        response = sqlite_client.post(f"/matches/{table.id}{path}", json=body, headers=auth(table.tokens[seat]))
        assert "Not a whole number" in assert_problem(response, 400)["detail"]
    assert table.version() == version
    assert table.get("/undo-requests", table.referee).get_json() == []
    assert table.get("/disputes", table.referee).get_json() == []


def test_an_undo_request_goes_only_where_a_backup_could(sqlite_client, table):
    """A request to a setup version was accepted (201) although the backup to it is refused (422)."""
    seat = table.view()["awaiting_seat"]
    version = table.version()
    requested = sqlite_client.post(f"/matches/{table.id}/undo-requests", json={"to_version": 2, "reason": "oops"},
                                   headers=auth(table.tokens[seat]))
    table.play(seat, {"type": "draw", "source": "pile"})
    backed = sqlite_client.post(f"/matches/{table.id}/undo", json={"to_version": 2, "reason": "oops"},
                                headers=auth(table.referee))
    assert assert_problem(requested, 422)["detail"] == assert_problem(backed, 422)["detail"]
    assert "middle of a move or of the setup" in requested.get_json()["detail"]
    assert table.version() == version + 1 and table.get("/undo-requests", table.referee).get_json() == []
    fine = sqlite_client.post(f"/matches/{table.id}/undo-requests", json={"to_version": version, "reason": "oops"},
                              headers=auth(table.tokens[seat]))
    assert fine.status_code == 201


@pytest.mark.parametrize("given", [None, "referee's own"])
def test_an_approval_records_the_referees_reason_not_the_seats(sqlite_client, table, given):
    seat = table.view()["awaiting_seat"]
    start = table.version()
    table.play(seat, {"type": "draw", "source": "pile"})
    requests = f"/matches/{table.id}/undo-requests"
    asked = sqlite_client.post(requests, json={"to_version": start, "reason": "misclick"},
                               headers=auth(table.tokens[seat])).get_json()
    answer = {"decision": "approve"} if given is None else {"decision": "approve", "reason": given}
    approved = sqlite_client.post(f"{requests}/{asked['request_id']}", json=answer, headers=auth(table.referee))
    assert approved.status_code == 200 and approved.get_json()["answer"] == (given or "")
    backup = table.get("/events", table.referee).get_json()["events"][-1]
    assert backup["type"] == "BackupPerformed" and backup["payload"]["reason"] == (given or "")


def test_crusader_options_given_are_validated_and_used(sqlite_client):
    """{"map": {}, "decks": {}} fell back to the provisional data silently."""
    client = sqlite_client
    players = ["Saladin", "Baldwin", "Raymond"]
    for options, named in (({"map": {}, "decks": {}}, "map"), ({"decks": {}}, "decks")):
        refused = client.post("/matches", json={"game": "crusader_kingdoms", "players": players, "options": options})
        assert f"invalid Crusader Kingdoms {named}" in assert_problem(refused, 422)["detail"]
    assert client.get("/matches").get_json() == []
    printed = {**default_map(3), "name": "The printed map", "provisional": False}
    created = client.post("/matches", json={"game": "crusader_kingdoms", "players": players,
                                            "options": {"map": printed}}).get_json()
    view = client.get(f"/matches/{created['match_id']}/view", headers=auth(created["referee_token"])).get_json()
    assert view["map"]["name"] == "The printed map" and view["map"]["provisional"] is False


def test_the_referees_undo_needs_to_version_and_a_seats_refuses_it(sqlite_client, table):
    """The referee's undo without to_version was 400 although the schema marks it optional: it is the referee's
    role that decides, so it is 403 with the reason, as a seat sending to_version is."""
    seat = table.view()["awaiting_seat"]
    version = table.version()
    referee = sqlite_client.post(f"/matches/{table.id}/undo", json={"reason": "x"}, headers=auth(table.referee))
    assert "send to_version" in assert_problem(referee, 403)["detail"]
    own = sqlite_client.post(f"/matches/{table.id}/undo", json={"to_version": version},
                             headers=auth(table.tokens[seat]))
    assert "POST /undo-requests" in assert_problem(own, 403)["detail"]
    assert table.version() == version


def test_405_names_the_allowed_methods(sqlite_client, table):
    response = sqlite_client.delete(f"/matches/{table.id}/view", headers=auth(table.referee))
    assert_problem(response, 405)
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    options = sqlite_client.open("/matches/import", method="OPTIONS")
    assert set(options.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_the_referee_deciding_for_a_seat_the_match_does_not_have_is_refused(client):
    """Found by fuzzing: resolve_for beyond the match's seats is a 422 with the reason, never a 500."""
    table = Table(client, ["Ana", "Bo"], "kingdom_tcg")
    refused = client.post(f"/matches/{table.id}/moves", json={"type": "pass", "resolve_for": 5},
                          headers=auth(table.referee))
    assert_problem(refused, 422)
    assert "this match has no seat 5" in refused.get_json()["detail"]
