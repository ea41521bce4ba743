"""Who plays a tournament (issue 42): as many Swiss rounds as the players at round 1 call for when the organiser
leaves the count out (RULINGS T8); late entries, byes given at registration, a player dropping itself, coming back
before the next round, and a disqualification with its reason, each in the standings, the timeline and the audited
log."""
from __future__ import annotations

import pytest

from replays.tournament_audit import audit
from tests.helpers.api import assert_problem, auth
from tests.helpers.tournaments import FRIDAY_SWISS, play_round, register


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (33, 6)])
def test_the_swiss_rounds_follow_the_player_count_unless_the_organiser_sets_them(client, players, rounds):
    created = client.post("/tournaments", json=FRIDAY_SWISS).get_json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    ids = [client.post(f"/tournaments/{tid}/players", json={"name": f"Player {i + 1}"},
                       headers=auth(organiser)).get_json()["player_id"] for i in range(players)]
    summary = client.get(f"/tournaments/{tid}").get_json()
    assert summary["rounds"] is None and summary["total_rounds"] == rounds
    assert client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).status_code == 201
    for player in ids[:players // 2]:  # drops after round 1 change nothing: the count is the entrants'
        assert client.post(f"/tournaments/{tid}/players/{player}/drop", headers=auth(organiser)).status_code == 200
    assert client.get(f"/tournaments/{tid}").get_json()["total_rounds"] == rounds
    chosen = client.post("/tournaments", json={**FRIDAY_SWISS, "rounds": 7}).get_json()["tournament_id"]
    assert client.get(f"/tournaments/{chosen}").get_json()["total_rounds"] == 7


def test_a_drop_an_undrop_and_a_disqualification_show_in_standings_pairings_timeline_and_audit(client):
    created = client.post("/tournaments", json={**FRIDAY_SWISS, "rounds": 3}).get_json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    tokens = register(client, tid, organiser, "Ana", "Bo", "Cy", "Di", "Ed", "Flo")
    ids = {name: player for name, (player, _) in tokens.items()}
    play_round(client, tid, organiser)
    bo, bo_token = tokens["Bo"]
    assert client.post(f"/tournaments/{tid}/players/{bo}/drop", headers=auth(bo_token)).status_code == 200
    assert_problem(client.post(f"/tournaments/{tid}/players/{bo}/undrop", headers=auth(bo_token)), 403)
    assert client.post(f"/tournaments/{tid}/players/{bo}/undrop", headers=auth(organiser)).status_code == 200
    assert_problem(client.post(f"/tournaments/{tid}/players/{bo}/undrop", headers=auth(organiser)), 422)
    cy = ids["Cy"]
    assert_problem(client.post(f"/tournaments/{tid}/players/{cy}/disqualify", json={"reason": "  "},
                               headers=auth(organiser)), 400)
    assert_problem(client.post(f"/tournaments/{tid}/players/{cy}/disqualify", json={"reason": "marked cards"},
                               headers=auth(tokens["Cy"][1])), 403)
    assert client.post(f"/tournaments/{tid}/players/{cy}/disqualify", json={"reason": "marked cards"},
                       headers=auth(organiser)).status_code == 200
    assert_problem(client.post(f"/tournaments/{tid}/players/{cy}/undrop", headers=auth(organiser)), 422)
    assert_problem(client.post(f"/tournaments/{tid}/players/nobody/undrop", headers=auth(organiser)), 404)
    rows = {row["name"]: row for row in client.get(f"/tournaments/{tid}/standings").get_json()["standings"]}
    assert rows["Cy"]["disqualified"] == "marked cards" and rows["Cy"]["dropped"]
    assert rows["Bo"]["disqualified"] is None and not rows["Bo"]["dropped"]
    second = play_round(client, tid, organiser)
    seated = {p for table in second["tables"] for p in table["players"]} | set(second["byes"])
    assert bo in seated and cy not in seated
    told = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert "Bo dropped after round 1." in told and "Bo came back after round 1." in told
    assert "Cy was disqualified after round 1: marked cards." in told
    play_round(client, tid, organiser)
    lines = client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()
    assert audit(lines)  # the log, drops, comeback and disqualification included, recomputes


def test_late_entries_count_missed_rounds_as_the_organiser_chose_and_a_bye_given_at_registration(client):
    created = client.post("/tournaments", json={**FRIDAY_SWISS, "rounds": 3, "late_entry_until_round": 2}).get_json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    ids = {name: entry[0] for name, entry in register(client, tid, organiser, "Ana", "Bo", "Cy", "Di").items()}
    ids |= {name: entry[0] for name, entry in register(client, tid, organiser, "Star", byes=1).items()}
    first = play_round(client, tid, organiser)
    assert first["byes"] == [ids["Star"]] and len(first["tables"]) == 2
    refused = assert_problem(client.post(f"/tournaments/{tid}/players", json={"name": "Nope"},
                                         headers=auth(organiser)), 422)
    assert "loss or a bye" in refused["detail"]
    ids |= {name: entry[0] for name, entry in register(client, tid, organiser, "Late", missed="loss").items()}
    ids |= {name: entry[0] for name, entry in register(client, tid, organiser, "Lucky", missed="bye").items()}
    rows = {row["name"]: row for row in client.get(f"/tournaments/{tid}/standings").get_json()["standings"]}
    assert (rows["Late"]["points"], rows["Late"]["matches"]["lost"], rows["Late"]["gw"]) == (0, 1, 0.33)
    assert (rows["Lucky"]["points"], rows["Lucky"]["matches"]["byes"]) == (3, 1)
    assert (rows["Star"]["points"], rows["Star"]["matches"]["byes"]) == (3, 1)
    second = play_round(client, tid, organiser)
    seated = {p for table in second["tables"] for p in table["players"]}
    assert {ids["Star"], ids["Lucky"]} <= seated and len(second["byes"]) == 1  # the bye: to one who has had none
    assert_problem(client.post(f"/tournaments/{tid}/players", json={"name": "Later", "missed": "loss"},
                               headers=auth(organiser)), 422)
    play_round(client, tid, organiser)
    told = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert "Late registered after round 1, each round missed counted as a loss." in told
    assert "Star registered, with a bye in round 1." in told
    lines = client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()
    assert audit(lines)
