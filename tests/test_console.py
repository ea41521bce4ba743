"""The console's pages through Flask's test client (issue 20): the sign-in cookie, refusals shown with Herald's
reason and nothing changed, the flags on tables that need the referee or the organiser, the referee's actions,
the verifier, the score chart, htmx served locally; no page holds a token. The live pages following the match's
stream: tests/test_console_live.py."""
from __future__ import annotations

import html
import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from domain.registry import GAMES
from service.console.present import chart, flags, move_label
from tests.helpers.api import Table, auth, play_to_the_end
from tests.helpers.console_forms import alert, page, post_form, sign_in_form


def buttons(text: str) -> list[dict]:
    return [json.loads(html.unescape(m)) for m in re.findall(r'name="move" value="([^"]*)"', text)]


@pytest.fixture
def table(sqlite_client):
    return Table(sqlite_client, ["Ana", "Bo"], "korona")


def test_the_token_is_kept_in_an_httponly_samesite_cookie_for_the_console_only(sqlite_client, table):
    answer = sign_in_form(sqlite_client, table.tokens[0])
    assert answer.status_code == 303
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("herald_token=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "Path=/console" in cookie
    for path in ("/console/", f"/console/matches/{table.id}", "/console/sign-in"):
        assert table.tokens[0] not in page(sqlite_client, path)
    assert "Signed in as seat 1" in page(sqlite_client, "/console/")
    assert "Max-Age=0" in post_form(sqlite_client, "/console/sign-out").headers["Set-Cookie"]


def test_an_unknown_token_is_refused_with_a_reason_and_no_cookie(sqlite_client, table):
    answer = sign_in_form(sqlite_client, "not-a-token-of-anything")
    assert answer.status_code == 401
    assert "this token is not known" in answer.get_data(as_text=True)
    assert "Set-Cookie" not in answer.headers
    assert "not-a-token-of-anything" not in answer.get_data(as_text=True)


def test_a_seat_sees_its_legal_moves_as_buttons_and_a_stale_or_malformed_post_changes_nothing(sqlite_client, table):
    seat = table.view()["current_seat"]
    sign_in_form(sqlite_client, table.tokens[seat])
    shown = page(sqlite_client, f"/console/matches/{table.id}")
    assert buttons(shown) == table.moves(seat)
    version = table.version()
    post = lambda data: post_form(sqlite_client, f"/console/matches/{table.id}/moves", data=data)
    stale = post({"move": json.dumps(table.moves(seat)[0]), "expected_version": "1"})
    assert stale.status_code == 409 and f"the match is at version {version}, not 1" in alert(stale.get_data(as_text=True))
    malformed = post({"move": "{not json", "expected_version": str(version)})
    assert malformed.status_code == 400 and "move: not a JSON object" in alert(malformed.get_data(as_text=True))
    illegal = post({"move": json.dumps({"type": "end_turn"}), "expected_version": str(version)})
    assert illegal.status_code == 422 and alert(illegal.get_data(as_text=True))
    assert table.version() == version
    moved = post({"move": json.dumps(table.moves(seat)[0]), "expected_version": str(version)})
    assert moved.status_code == 303 and table.version() > version


def test_the_other_seat_has_no_buttons_and_sees_no_other_hand(sqlite_client, table):
    ref = table.view()
    other = 1 - ref["current_seat"]
    sign_in_form(sqlite_client, table.tokens[other])
    shown = page(sqlite_client, f"/console/matches/{table.id}")
    assert buttons(shown) == [] and f"Waiting for {ref['players'][1 - other]['name']}" in shown
    for card in ref["players"][1 - other]["hand"]:
        assert f'data-card="{card["id"]}"' not in shown
    for card in ref["players"][other]["hand"]:
        assert f'data-card="{card["id"]}"' in shown


def test_a_spectator_reads_the_public_view_and_a_timeline_without_hands(sqlite_client, table):
    ref = table.view()
    shown = page(sqlite_client, f"/console/matches/{table.id}")
    assert "You are a spectator" in shown and "version-slider" not in shown
    assert not any(f'data-card="{c["id"]}"' in shown for p in ref["players"] for c in p["hand"])
    public = sqlite_client.get(f"/matches/{table.id}/spectator-timeline").get_json()
    dealt = [e["summary"] for e in public if e["type"] == "CardsDealt"]
    assert dealt == ["Ana was dealt 5 cards.", "Bo was dealt 5 cards."]
    assert page(sqlite_client, "/console/matches/00000000-0000-0000-0000-000000000000", 404)


def test_the_referee_home_flags_an_undo_request_a_dispute_and_a_stalled_decision(sqlite_client, table):
    seat = table.view()["current_seat"]
    table.play(seat, table.moves(seat)[0])
    sign_in_form(sqlite_client, table.referee)
    assert "Nothing waits for you" in page(sqlite_client, "/console/")
    sqlite_client.post(f"/matches/{table.id}/undo-requests", json={"to_version": 7, "reason": "misclick"},
                       headers=auth(table.tokens[seat]))
    sqlite_client.post(f"/matches/{table.id}/disputes", json={"version": 2, "claim": "odd shuffle"},
                       headers=auth(table.tokens[1 - seat]))
    home = page(sqlite_client, "/console/")
    assert "1 undo request waiting" in home and "1 open dispute" in home
    sqlite_client.application.config["HERALD_STALL_SECONDS"] = 0
    assert "has been deciding for 0 min" in page(sqlite_client, "/console/")


def test_flags_name_a_finished_match_awaiting_its_tournament_result(sqlite_client, table):
    play_to_the_end(table, random.Random(3))
    match = sqlite_client.application.extensions["herald"].matches.load(table.id)
    assert flags(match, 0, awaiting_result=True) == ["finished, result not yet in the tournament"]
    assert flags(match, 0, awaiting_result=False, now=datetime.now(UTC) + timedelta(hours=1)) == []


def test_the_referee_answers_an_undo_rules_a_dispute_backs_up_and_settles_from_the_page(sqlite_client, table):
    seat = table.view()["current_seat"]
    table.play(seat, {"type": "draw", "source": "pile"})
    asked = sqlite_client.post(f"/matches/{table.id}/undo-requests", json={"to_version": 7, "reason": "wrong card"},
                               headers=auth(table.tokens[seat])).get_json()
    disputed = sqlite_client.post(f"/matches/{table.id}/disputes", json={"version": 2, "claim": "odd"},
                                  headers=auth(table.tokens[seat])).get_json()
    sign_in_form(sqlite_client, table.referee)
    base = f"/console/matches/{table.id}"
    declined = post_form(sqlite_client, f"{base}/undo-requests/{asked['request_id']}",
                         data={"decision": "decline", "reason": "play on"})
    assert declined.status_code == 303
    ruled = post_form(sqlite_client, f"{base}/disputes/{disputed['dispute_id']}/ruling",
                      data={"ruling": "rejected", "explanation": "the seed recomputes", "remedy": ""})
    assert ruled.status_code == 303
    timeline = page(sqlite_client, base)
    assert "The referee declined undo request" in timeline and "The referee rejected dispute" in timeline
    awaiting = table.view()["awaiting_seat"]
    version = table.version()
    early = post_form(sqlite_client, f"{base}/settle", data={"seat": str(awaiting), "reason": ""})
    assert early.status_code == 422 and 'give a "reason"' in alert(early.get_data(as_text=True))
    assert table.version() == version
    settled = post_form(sqlite_client, f"{base}/settle", data={"seat": str(awaiting), "reason": "left the table"})
    assert settled.status_code == 303 and table.version() > version
    empty = post_form(sqlite_client, f"{base}/backup", data={"to_version": "8", "reason": ""})
    assert empty.status_code == 400 and "reason" in alert(empty.get_data(as_text=True))
    backed = post_form(sqlite_client, f"{base}/backup", data={"to_version": "8", "reason": "restart the turn"})
    assert backed.status_code == 303
    assert table.version() > version + 1 and "backed the match up to version 8" in page(sqlite_client, base)


def test_a_seat_may_not_use_the_referees_buttons(sqlite_client, table):
    sign_in_form(sqlite_client, table.tokens[0])
    refused = post_form(sqlite_client, f"/console/matches/{table.id}/backup",
                        data={"to_version": "3", "reason": "mine"})
    assert refused.status_code == 403 and "only the referee" in alert(refused.get_data(as_text=True))


def test_the_verify_button_runs_the_verifier_on_the_finished_matchs_export(sqlite_client, table):
    play_to_the_end(table, random.Random(5))
    sign_in_form(sqlite_client, table.tokens[0])
    shown = post_form(sqlite_client, f"/console/matches/{table.id}/verify").get_data(as_text=True)
    lines = re.findall(r"<code>((?:ok|FAIL)[^<]*)</code>", shown)
    assert len(lines) == 4 and all(line.startswith("ok") for line in lines)
    seed = sqlite_client.get(f"/matches/{table.id}/audit", headers=auth(table.tokens[0])).get_json()["server_seed"]
    assert seed and seed in shown, "the revealed seed is shown once the match is over"


def test_the_score_chart_ends_on_the_views_scores(sqlite_client, table):
    play_to_the_end(table, random.Random(7))
    shown = page(sqlite_client, f"/console/matches/{table.id}")
    finals = [int(s) for s in re.findall(r'class="final-score">(-?\d+)<', shown)]
    assert finals == [p["score"] for p in table.view()["players"]]
    assert shown.count("<polyline") == 2


def test_htmx_is_served_by_herald_and_no_page_loads_a_script_from_elsewhere(sqlite_client, table):
    assert sqlite_client.get("/console/static/htmx.min.js").status_code == 200
    shown = page(sqlite_client, f"/console/matches/{table.id}")
    assert re.findall(r'<script src="([^"]+)"', shown) == ["/console/static/htmx.min.js", "/console/static/console.js"]
    assert shown.count("<script") == 2 and not re.search(r"\son[a-z]+=", shown), "no inline script (the CSP forbids it)"


def test_a_move_label_names_its_cards_and_seats():
    view = {"players": [{"hand": [{"id": 80, "name": "sneak_attack"}]}], "market": [{"id": 52, "name": "thief"}]}
    label = move_label({"type": "play", "card": 80, "target": 1, "thief": 52}, view, ["Ana", "Bo"], GAMES["korona"])
    assert label == "Play: card Sneak Attack (#80), target Bo, thief Thief (#52)"


def test_a_chart_scales_negative_scores_inside_its_frame():
    drawn = chart([(1, [0, 0]), (2, [-3, 2]), (3, [4, -1])], ["Ana", "Bo"])
    ys = [float(p.split(",")[1]) for line in drawn["lines"] for p in line["points"].split()]
    assert drawn["margin"] <= min(ys) and max(ys) <= drawn["baseline"]


def swiss(client, players=("Ana", "Bo", "Cy", "Di", "Ed")) -> tuple[str, str, dict]:
    created = client.post("/tournaments", json={"name": "Console Swiss", "game": "korona", "format": "swiss",
                                                "rounds": 2, "table_size": 2, "top_cut": 0}).get_json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    tokens = {}
    for name in players:
        body = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser)).get_json()
        tokens[body["player_id"]] = body["token"]
    return tid, organiser, tokens


def test_the_organiser_pairs_drops_and_records_a_result_with_a_reason_from_the_tournament_page(sqlite_client):
    tid, organiser, tokens = swiss(sqlite_client)
    base = f"/console/tournaments/{tid}"
    shown = page(sqlite_client, base)
    assert "Pair the next round" not in shown, "only the organiser sees the organiser's buttons"
    sign_in_form(sqlite_client, organiser)
    assert post_form(sqlite_client, f"{base}/rounds").status_code == 303
    again = post_form(sqlite_client, f"{base}/rounds")
    assert again.status_code == 409 and alert(again.get_data(as_text=True))
    round_ = sqlite_client.get(f"/tournaments/{tid}/rounds/1").get_json()
    table = round_["tables"][0]
    home = page(sqlite_client, "/console/")
    assert home.count("playing") == 2 and "Round 1 bye" not in home
    bad = post_form(sqlite_client, f"{base}/results", data={"round": "1", "table": "1", "placements": "p99",
                                                            "reason": "scoresheet"})
    assert bad.status_code == 422 and alert(bad.get_data(as_text=True))
    winner, loser = table["players"]
    recorded = post_form(sqlite_client, f"{base}/results", data={"round": "1", "table": str(table["table"]),
                                                                 "placements": f"{winner}, {loser}",
                                                                 "reason": "played on paper after a power cut"})
    assert recorded.status_code == 303
    standings = sqlite_client.get(f"/tournaments/{tid}/standings").get_json()["standings"]
    assert next(r for r in standings if r["player_id"] == winner)["points"] == 3
    shown = page(sqlite_client, base)
    assert "played on paper after a power cut" in shown
    assert post_form(sqlite_client, f"{base}/drop", data={"player_id": loser}).status_code == 303
    assert "dropped" in page(sqlite_client, base)
    assert all(token not in shown for token in (organiser, *tokens.values()))


def test_a_player_signs_in_once_and_finds_its_table_and_its_seat_in_the_match(sqlite_client):
    tid, organiser, tokens = swiss(sqlite_client, ("Ana", "Bo", "Cy", "Di"))
    sqlite_client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    table = sqlite_client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"][0]
    player = table["players"][1]
    sign_in_form(sqlite_client, tokens[player])
    home = page(sqlite_client, "/console/")
    assert "Your tables" in home and home.count(f'/console/matches/{table["match_id"]}') == 1
    match = page(sqlite_client, f"/console/matches/{table['match_id']}")
    assert "(seat 2)" in match
    other = sqlite_client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"][1]["match_id"]
    assert "you are watching as a spectator" in page(sqlite_client, f"/console/matches/{other}")
