"""A Swiss tournament over HTTP (issue 19): players registered by the organiser, rounds paired into matches whose
seats are the players' tournament tokens, bots playing every match from legal-moves with those tokens, results
taken from the finished matches, and standings equal to an independent computation from the results."""
from __future__ import annotations

import json
import random
import subprocess
import sys

from replays.tournament_audit import audit
from service.cli import main
from tests.helpers.api import assert_problem, auth
from tests.helpers.logs import rechain_tournament
from tests.helpers.tournaments import TUESDAY_SWISS, figures, independent_standings, play_match

TOP4 = {**TUESDAY_SWISS, "rounds": 3, "top_cut": 4}


def created(client, **changes) -> tuple[str, str]:
    """A new tournament's id and organiser token."""
    body = client.post("/tournaments", json={**TUESDAY_SWISS, **changes}).get_json()
    return body["tournament_id"], body["organiser_token"]


def test_a_6_player_swiss_of_3_rounds_and_a_top_4_played_by_bots_over_http(client):
    """No rematch, one bye at most each, a player's token refused (403) on a match it is not seated in, the top cut
    seeded 1v4 and 2v3 by the final standings, which equal an independent computation from the results and do not
    change with the top cut (RULINGS T4)."""
    created = client.post("/tournaments", json=TOP4)
    assert created.status_code == 201, created.get_json()
    tid, organiser = created.get_json()["tournament_id"], created.get_json()["organiser_token"]
    tokens = {}
    for i in range(6):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": f"Player {i + 1}"}, headers=auth(organiser))
        assert answer.status_code == 201
        tokens[answer.get_json()["player_id"]] = answer.get_json()["token"]
    chooser = random.Random(6)
    seen_pairs = set()
    for number in range(1, 4):
        paired = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
        assert paired.status_code == 201, paired.get_json()
        round_ = paired.get_json()
        assert round_["round"] == number and len(round_["tables"]) == 3 and round_["byes"] == []
        for table in round_["tables"]:
            pair = frozenset(table["players"])
            assert pair not in seen_pairs, "a rematch"
            seen_pairs.add(pair)
        first = round_["tables"][0]
        outsider = next(p for p in tokens if p not in first["players"])
        assert client.get(f"/matches/{first['match_id']}/view", headers=auth(tokens[outsider])).status_code == 403
        assert_problem(client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)), 409)  # still playing
        for table in round_["tables"]:
            play_match(client, table["match_id"], tokens, table["players"], chooser)
        shown = client.get(f"/tournaments/{tid}/rounds/{number}").get_json()
        assert all(t["placements"] for t in shown["tables"])  # every result taken from its match
    rounds = [client.get(f"/tournaments/{tid}/rounds/{n}").get_json() for n in range(1, 4)]
    expected = independent_standings(rounds, list(tokens))
    standings = client.get(f"/tournaments/{tid}/standings").get_json()
    assert standings["round"] == 3 and len(standings["standings"]) == 6
    assert {row["player_id"]: figures(row) for row in standings["standings"]} == expected
    ranks = [(row["points"], row["omw"], row["gw"], row["ogw"]) for row in standings["standings"]]
    assert ranks == sorted(ranks, reverse=True)
    assert client.get(f"/tournaments/{tid}").get_json()["status"] == "running"  # the top cut is still to play
    seeds = [row["player_id"] for row in standings["standings"][:4]]
    semis = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    assert semis["kind"] == "elimination" and [t["players"] for t in semis["tables"]] == [
        [seeds[0], seeds[3]], [seeds[1], seeds[2]]]
    for table in semis["tables"]:
        play_match(client, table["match_id"], tokens, table["players"], chooser)
    played = client.get(f"/tournaments/{tid}/rounds/4").get_json()["tables"]
    advancing = [t["placements"][0][0] if len(t["placements"][0]) == 1 else t["players"][0] for t in played]
    final = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    assert [t["players"] for t in final["tables"]] == [advancing]
    play_match(client, final["tables"][0]["match_id"], tokens, final["tables"][0]["players"], chooser)
    assert client.get(f"/tournaments/{tid}").get_json()["status"] == "finished"
    assert client.get(f"/tournaments/{tid}/standings").get_json()["standings"] == standings["standings"]
    referee_view = client.get(f"/matches/{first['match_id']}/view", headers=auth(organiser)).get_json()
    assert all("hand" in p for p in referee_view["players"])  # the organiser's token is every match's referee
    assert audit(client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines())[2] == (
        "ok   5 rounds of pairings recomputed from the seed and the results")


def test_an_odd_field_gets_one_bye_each_and_drops_are_not_paired(client):
    tid, organiser = created(client, rounds=3)
    tokens = {}
    for i in range(3):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": f"P{i}"}, headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = answer["token"]
    chooser = random.Random(3)
    byes = []
    for number in range(1, 4):
        if number == 3:
            dropped = next(iter(tokens))
            answer = client.post(f"/tournaments/{tid}/players/{dropped}/drop", headers=auth(tokens[dropped]))
            assert answer.status_code == 200
        round_ = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
        byes += round_["byes"]
        if number == 3:
            assert all(dropped not in t["players"] for t in round_["tables"]) and round_["byes"] == []
        for table in round_["tables"]:
            play_match(client, table["match_id"], tokens, table["players"], chooser)
    assert len(byes) == len(set(byes)) == 2  # 3 players in rounds 1 and 2, 2 in round 3
    late = client.post(f"/tournaments/{tid}/players", json={"name": "Late"}, headers=auth(organiser))
    assert_problem(late, 422)


def test_the_organiser_corrects_a_result_with_a_reason(client):
    tid, organiser = created(client, rounds=1)
    players = [client.post(f"/tournaments/{tid}/players", json={"name": n}, headers=auth(organiser)).get_json()
               for n in ("Ana", "Bo")]
    round_ = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    a, b = round_["tables"][0]["players"]
    body = {"round": 1, "table": 1, "placements": [[b], [a]], "reason": "played on paper: Bo won"}
    assert_problem(client.post(f"/tournaments/{tid}/results", json=body, headers=auth(players[0]["token"])), 403)
    answer = client.post(f"/tournaments/{tid}/results", json=body, headers=auth(organiser))
    assert answer.status_code == 200 and answer.get_json()["tables"][0]["placements"] == [[b], [a]]
    standings = client.get(f"/tournaments/{tid}/standings").get_json()["standings"]
    assert standings[0]["player_id"] == b and standings[0]["points"] == 3
    bad = {**body, "placements": [[a]]}
    assert_problem(client.post(f"/tournaments/{tid}/results", json=bad, headers=auth(organiser)), 422)
    assert client.get("/tournaments/00000000-0000-0000-0000-000000000000").status_code == 404


def test_the_projections_hold_the_list_the_standings_and_the_rounds_and_rebuild(client):
    """Redis holds each tournament's summary, rounds and standings, kept current as results arrive and rebuilt with
    every view by the projector's rebuild (`herald rebuild-projections`)."""
    tid, organiser = created(client, rounds=2)
    tokens = {}
    for name in ("Ana", "Bo", "Cy", "Di"):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = answer["token"]
    round_ = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    for table in round_["tables"]:
        play_match(client, table["match_id"], tokens, table["players"], random.Random(4))
    listed = client.get("/tournaments").get_json()
    assert [t["tournament_id"] for t in listed].count(tid) == 1
    assert next(t for t in listed if t["tournament_id"] == tid)["round"] == 1
    projector = client.application.extensions["herald"].projector
    standings = client.get(f"/tournaments/{tid}/standings").get_json()
    assert projector.tournament(tid)["standings"] == standings
    assert projector.tournament(tid)["rounds"] == [client.get(f"/tournaments/{tid}/rounds/1").get_json()]
    projector.rebuild()
    assert projector.tournament(tid)["standings"] == standings


def test_a_finished_tournament_audits_offline_and_a_changed_result_or_pairing_is_named(client, tmp_path, capsys):
    """`herald audit-tournament EXPORT [MATCH EXPORTS]`, run as a process, recomputes the pairings from the revealed
    seed, the standings from the results, and verifies the matches; run in this process (one start-up is enough), it
    fails a changed result or pairing naming its event. The timeline tells the tournament in plain English."""
    tid, organiser = created(client, rounds=2)
    tokens = {}
    for name in ("Ana", "Bo", "Cy", "Di", "Ed"):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = answer["token"]
    match_files = []
    for number in (1, 2):
        if number == 2:
            client.post(f"/tournaments/{tid}/players/p5/drop", headers=auth(organiser))
        round_ = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
        for table in round_["tables"]:
            play_match(client, table["match_id"], tokens, table["players"], random.Random(number))
            path = tmp_path / f"{table['match_id']}.ndjson"
            path.write_text(client.get(f"/matches/{table['match_id']}/export",
                                       headers=auth(organiser)).get_data(as_text=True))
            match_files.append(str(path))
    export = client.get(f"/tournaments/{tid}/export")
    assert export.status_code == 200 and export.headers["Content-Type"].startswith("application/x-ndjson")
    good = tmp_path / "tournament.ndjson"
    good.write_text(export.get_data(as_text=True))

    def audit(path, *matches):
        return subprocess.run([sys.executable, "-m", "service.cli", "audit-tournament", str(path), *matches],
                              capture_output=True, text=True, check=False)

    passed = audit(good, *match_files)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "pairings recomputed" in passed.stdout and passed.stdout.count("verifies and its result") == len(match_files) == 4
    rows = [json.loads(line) for line in good.read_text().splitlines()]
    def placed_otherwise(p):
        """Each player alone, in the reverse order: another result, whether the match was won or drawn."""
        p["placements"] = [[player] for group in reversed(p["placements"]) for player in reversed(group)]

    for kind, change in (("ResultRecorded", placed_otherwise),
                         ("RoundPaired", lambda p: p["tables"][0]["players"].reverse())):
        edited = json.loads(json.dumps(rows))
        target = next(row for row in edited[1:] if row["type"] == kind)
        change(target["payload"])
        rechain_tournament(edited)
        bad = tmp_path / f"bad-{kind}.ndjson"
        bad.write_text("\n".join(json.dumps(row, ensure_ascii=False) for row in edited) + "\n")
        returncode = main(["audit-tournament", str(bad), *match_files])
        failed = capsys.readouterr().out
        assert returncode == 1 and f"version {target['version']} ({kind})" in failed, failed
    timeline = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert "Ed dropped after round 1." in timeline and any(line.startswith("Round 1 paired: 2 tables, ")
                                                          and "has the bye" in line for line in timeline)
    assert timeline[-1] == "The server seed was revealed for anyone to check the pairings."


def test_a_decklist_game_checks_each_registration_and_deals_each_players_deck(client):
    """Kingdom TCG: a player registers with its decklist, checked as POST /decklists/check does (422 with the
    sentences); each match of the round is created with its two players' decklists."""
    from domain.kingdom_tcg.data import default_decklists

    tid, organiser = created(client, game="kingdom_tcg", rounds=1)
    decks = default_decklists()
    short = {**decks[0], "strategy": decks[0]["strategy"][:29]}
    refused = client.post(f"/tournaments/{tid}/players", json={"name": "Ana", "decklist": short},
                          headers=auth(organiser))
    assert_problem(refused, 422)
    assert "the strategy deck holds 29 cards" in refused.get_json()["detail"]
    tokens = {}
    for name, deck in (("Ana", decks[0]), ("Bo", decks[1])):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name, "decklist": deck},
                             headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = (answer["token"], deck)
    table = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()["tables"][0]
    for seat, player in enumerate(table["players"]):
        token, deck = tokens[player]
        view = client.get(f"/matches/{table['match_id']}/view", headers=auth(token)).get_json()
        assert view["players"][seat]["coronado"]["name"] == deck["coronado"]


def test_a_match_option_of_the_wrong_kind_is_refused_when_the_tournament_is_created(client):
    """A tournament's match options are held to their kinds when it is created (422), as POST /matches holds a
    match's, not first at its pairing, after players registered: Kingdom TCG's decklists option is an array."""
    listed = len(client.get("/tournaments").get_json())
    refused = client.post("/tournaments", json={**TUESDAY_SWISS, "game": "kingdom_tcg", "options": {"decklists": {}}})
    assert "the option decklists is a JSON array" in assert_problem(refused, 422)["detail"]
    assert len(client.get("/tournaments").get_json()) == listed


def test_a_correction_is_told_with_its_reason(client):
    tid, organiser = created(client, rounds=1)
    for name in ("Ana", "Bo"):
        client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser))
    round_ = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    a, b = round_["tables"][0]["players"]
    client.post(f"/tournaments/{tid}/results", json={"round": 1, "table": 1, "placements": [[a, b]],
                                                     "reason": "the clock ran out: a draw"}, headers=auth(organiser))
    timeline = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert any(line.endswith("drew (recorded by the organiser: the clock ran out: a draw).") for line in timeline)


def test_single_elimination_over_http_names_its_champion(client):
    tid, organiser = created(client, format="single_elimination")
    tokens = {}
    for name in ("Ana", "Bo", "Cy", "Di", "Ed"):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = answer["token"]
    chooser = random.Random(5)
    first = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    assert first["kind"] == "elimination" and len(first["tables"]) == 1 and len(first["byes"]) == 3
    while client.get(f"/tournaments/{tid}").get_json()["status"] != "finished":
        round_ = client.get(f"/tournaments/{tid}/rounds/{client.get(f'/tournaments/{tid}').get_json()['round']}")
        tables = round_.get_json()["tables"]
        if all(t["placements"] for t in tables):
            tables = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()["tables"]
        for table in tables:
            play_match(client, table["match_id"], tokens, table["players"], chooser)
    assert client.get(f"/tournaments/{tid}").get_json()["round"] == 3
    assert client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"][-2].endswith("won the final.")


def test_the_organiser_swaps_two_players_with_a_reason_and_the_audit_follows(client, tmp_path):
    """Every manual change is an event with the organiser's reason: a swap between two tables gives both new
    matches, appears in the timeline, and the audit checks that it was a swap and recomputes on from it."""
    tid, organiser = created(client, rounds=1)
    tokens = {}
    for name in ("Ana", "Bo", "Cy", "Di"):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[answer["player_id"]] = answer["token"]
    first = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).get_json()
    a, b = first["tables"][0]["players"][0], first["tables"][1]["players"][0]
    body = {"swap": [a, b], "reason": "Ana and Cy are family"}
    assert_problem(client.post(f"/tournaments/{tid}/pairings", json=body, headers=auth(tokens[a])), 403)
    swapped = client.post(f"/tournaments/{tid}/pairings", json=body, headers=auth(organiser))
    assert swapped.status_code == 200, swapped.get_json()
    tables = swapped.get_json()["tables"]
    assert tables[0]["players"][0] == b and tables[1]["players"][0] == a
    assert {t["match_id"] for t in tables}.isdisjoint({t["match_id"] for t in first["tables"]})
    for table in tables:
        play_match(client, table["match_id"], tokens, table["players"], random.Random(2))
    timeline = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert any("the organiser changed tables 1 and 2 (Ana and Cy are family)" in line for line in timeline)
    lines = client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()
    assert audit(lines)[0].startswith("ok")
    assert_problem(client.post(f"/tournaments/{tid}/pairings", json=body, headers=auth(organiser)), 422)
