"""Results reported by players (issue 42): for a table played off Herald, a player reports its result in games, the
opponent confirms it (the result is recorded) or disputes it with a reason, and the organiser settles a dispute with
its own result; each step is an event of the tournament's log, told in its timeline and recomputed by its audit."""
from __future__ import annotations

from replays.tournament_audit import audit
from tests.helpers.api import assert_problem, auth
from tests.helpers.tournaments import FRIDAY_SWISS, play_round, register


def test_a_report_confirmed_and_a_report_disputed_then_settled_by_the_organiser(client):
    created = client.post("/tournaments", json={**FRIDAY_SWISS, "rounds": 2}).get_json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    players = register(client, tid, organiser, "Ana", "Bo", "Cy", "Di")
    token = {player: secret for player, secret in players.values()}
    name = {player: who for who, (player, _) in players.items()}
    first = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    (a, b), (c, d) = first["tables"][0]["players"], first["tables"][1]["players"]

    def post(path: str, body: dict, player: str):
        return client.post(f"/tournaments/{tid}/reports{path}", json=body, headers=auth(token[player]))

    assert_problem(post("", {"round": 1, "table": 1, "games": {a: 2, b: 1}}, c), 403)  # not at that table
    assert_problem(post("", {"round": 1, "table": 3, "games": {a: 2, b: 1}}, a), 404)
    assert_problem(post("", {"round": 1, "table": 1, "games": {a: 2, c: 1}}, a), 422)  # c is not at table 1
    reported = post("", {"round": 1, "table": 1, "games": {a: 2, b: 1}}, a)
    assert reported.status_code == 201, reported.get_json()
    report = reported.get_json()
    assert (report["status"], report["by"], report["games"], report["drawn"]) == ("waiting", a, {a: 2, b: 1}, 0)
    assert_problem(post("", {"round": 1, "table": 1, "games": {a: 2, b: 0}}, b), 422)  # one waits already
    assert_problem(post(f"/{report['report_id']}", {"decision": "confirm"}, a), 403)  # not one's own
    assert_problem(post("/r9", {"decision": "confirm"}, b), 404)
    confirmed = post(f"/{report['report_id']}", {"decision": "confirm"}, b)
    assert confirmed.status_code == 200 and confirmed.get_json()["status"] == "confirmed"
    assert client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"][0]["placements"] == [[a], [b]]
    assert_problem(post("", {"round": 1, "table": 1, "games": {a: 0, b: 2}}, b), 422)  # the table has its result

    disputed = post("", {"round": 1, "table": 2, "games": {c: 1, d: 1}, "drawn": 1}, c).get_json()
    assert_problem(post(f"/{disputed['report_id']}", {"decision": "dispute"}, d), 422)  # no reason
    assert_problem(post(f"/{disputed['report_id']}", {"decision": "dispute", "reason": " "}, d), 400)  # blank
    answered = post(f"/{disputed['report_id']}", {"decision": "dispute", "reason": "I won the third game"}, d)
    assert answered.get_json()["status"] == "disputed"
    assert client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"][1]["placements"] is None
    settled = client.post(f"/tournaments/{tid}/results", headers=auth(organiser), json={
        "round": 1, "table": 2, "placements": [[d], [c]], "reason": "the judge saw the third game"})
    assert settled.status_code == 200
    statuses = {r["report_id"]: r["status"] for r in client.get(f"/tournaments/{tid}/reports").get_json()}
    assert statuses == {report["report_id"]: "confirmed", disputed["report_id"]: "settled"}
    rows = {row["player_id"]: row["points"] for row in client.get(f"/tournaments/{tid}/standings").get_json()[
        "standings"]}
    assert (rows[a], rows[b], rows[c], rows[d]) == (3, 0, 0, 3)

    play_round(client, tid, organiser)
    told = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert f"Round 1, table 1: {name[a]} reported 2 games to {name[b]}'s 1, 0 drawn; waiting for the opponent." in told
    assert f"{name[d]} disputed report {disputed['report_id']}: I won the third game; the organiser settles it." in told
    assert any(line.endswith(f"(reported by {name[a]}, confirmed by {name[b]}).") for line in told), told
    assert audit(client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines())
