"""The tournament page through Flask's test client (issue 42: "the console shows round time, reports waiting for
confirmation, and disqualifications"): a reported result waits on the organiser's page and on the reporter's
opponent's, who alone may confirm or dispute it there; a disqualified player is marked in the standings with the
organiser's reason; the current round's time counts down, or says time was called."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from service.console.present import round_time
from tests.helpers.api import auth
from tests.helpers.console_forms import alert, page, post_form, sign_in_form, words
from tests.helpers.tournaments import entered, paired

WAITING = "Reported results waiting"


@pytest.fixture
def reported(sqlite_client):
    """A 4-player Swiss in round 1 whose table 1's first player reported winning 2 games to 1: the tournament id, the
    organiser's token, the players' tokens, the reporter and its opponent."""
    tid, organiser, tokens = entered(sqlite_client, 4, rounds=2)
    by, opponent = paired(sqlite_client, tid, organiser)["tables"][0]["players"]
    answer = sqlite_client.post(f"/tournaments/{tid}/reports", headers=auth(tokens[by]),
                                json={"round": 1, "table": 1, "games": {by: 2, opponent: 1}})
    assert answer.status_code == 201, answer.get_json()
    return tid, organiser, tokens, by, opponent


def page_of(client, tid: str, token: str | None) -> str:
    """The tournament's page as the holder of the token (or a spectator, signed out) reads it."""
    post_form(client, "/console/sign-out")
    if token:
        sign_in_form(client, token)
    return page(client, f"/console/tournaments/{tid}")


def test_a_reported_result_waits_for_the_opponents_answer_on_the_page(sqlite_client, reported):
    """The organiser, the reporter and its opponent see the report and whose answer it waits for; only the opponent
    is offered Confirm and Dispute; the other table's players and spectators are not shown it."""
    tid, organiser, tokens, by, opponent = reported
    told = f"Round 1, table 1: {by.upper()} reports games won {by.upper()} 2, {opponent.upper()} 1."
    for token in (organiser, tokens[by]):
        shown = words(page_of(sqlite_client, tid, token))
        assert f"{told} Waiting for {opponent.upper()}'s answer." in shown, shown
        assert "Confirm" not in shown
    shown = page_of(sqlite_client, tid, tokens[opponent])
    assert f"{told} Waiting for your answer." in words(shown)
    assert f'action="/console/tournaments/{tid}/reports/r1"' in shown and 'value="dispute"' in shown
    elsewhere = next(p for p in tokens if p not in (by, opponent))
    for token in (tokens[elsewhere], None):
        assert WAITING not in page_of(sqlite_client, tid, token)


def test_the_opponent_disputes_from_the_page_with_a_reason_and_the_organiser_sees_it(sqlite_client, reported):
    """A dispute without a reason is refused with the API's reason and changes nothing; with one, the organiser's
    page tells it is disputed and why, waiting for the organiser's result, and the opponent has no buttons left."""
    tid, organiser, tokens, _, opponent = reported
    sign_in_form(sqlite_client, tokens[opponent])
    path = f"/console/tournaments/{tid}/reports/r1"
    refused = post_form(sqlite_client, path, {"decision": "dispute", "reason": ""})
    assert refused.status_code == 422 and "say why you dispute" in alert(refused.get_data(as_text=True))
    assert sqlite_client.get(f"/tournaments/{tid}/reports").get_json()[0]["status"] == "waiting"
    assert post_form(sqlite_client, path, {"decision": "dispute", "reason": "it was 1-2"}).status_code == 303
    assert 'value="dispute"' not in page(sqlite_client, f"/console/tournaments/{tid}")
    shown = words(page_of(sqlite_client, tid, organiser))
    assert f'Disputed by {opponent.upper()}: "it was 1-2"; waiting for the organiser to record the result.' in shown


def test_the_opponent_confirms_from_the_page_and_the_table_has_its_result(sqlite_client, reported):
    """Confirmed, the report is the table's result (the reporter first) and no longer waits on anyone's page."""
    tid, organiser, tokens, by, opponent = reported
    sign_in_form(sqlite_client, tokens[opponent])
    assert post_form(sqlite_client, f"/console/tournaments/{tid}/reports/r1", {"decision": "confirm"}).status_code \
        == 303
    assert sqlite_client.get(f"/tournaments/{tid}/reports").get_json()[0]["status"] == "confirmed"
    table = sqlite_client.get(f"/tournaments/{tid}/rounds/1").get_json()["tables"][0]
    assert table["placements"] == [[by], [opponent]]
    assert WAITING not in page_of(sqlite_client, tid, organiser)


def test_a_disqualified_player_is_marked_in_the_standings_with_the_reason(sqlite_client):
    """The standings row of a disqualified player says so with the organiser's reason (escaped); a dropped player's
    says dropped only; the others neither."""
    tid, organiser, tokens = entered(sqlite_client, 4, rounds=2)
    cheat, quitter, *others = tokens
    answer = sqlite_client.post(f"/tournaments/{tid}/players/{cheat}/disqualify", headers=auth(organiser),
                                json={"reason": "marked cards <b>& a stacked deck</b>"})
    assert answer.status_code == 200, answer.get_json()
    sqlite_client.post(f"/tournaments/{tid}/players/{quitter}/drop", headers=auth(organiser))
    shown = page_of(sqlite_client, tid, None)
    rows = {p: words(shown.split(f'data-player="{p}"')[1].split("</tr>")[0]) for p in tokens}
    assert "disqualified: marked cards <b>& a stacked deck</b>" in rows[cheat], rows[cheat]
    assert "&lt;b&gt;" in shown and "<b>&" not in shown
    assert "dropped" in rows[quitter] and "disqualified" not in rows[quitter]
    assert not any("dropped" in rows[p] or "disqualified" in rows[p] for p in others)


def test_the_current_rounds_time_counts_down_or_says_time_was_called():
    """While a table of the current round plays, its time left is shown from the deadline (for console.js to count
    down); once time is called, when; with no deadline, or every table done, nothing."""
    now = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
    playing = {"round": 3, "tables": [{"placements": [["p1"], ["p2"]]}, {"placements": None}]}
    timed = round_time({**playing, "deadline": "2026-11-28T12:49:59.500Z"}, now)
    assert timed == {"round": 3, "called": None, "left": "49:59", "deadline": "2026-11-28T12:49:59.500Z",
                     "now": "2026-11-28T12:00:00.000Z"}
    late = round_time({**playing, "deadline": "2026-11-28T11:59:00.000Z"}, now)
    assert late["left"] == "0:00"
    called = round_time({**playing, "deadline": "2026-11-28T12:50:00Z",
                         "time_called": {"at": "2026-11-28T12:50:00.200Z"}})
    assert called == {"round": 3, "called": "12:50:00 UTC"}
    done = {"round": 3, "tables": [{"placements": [["p1"], ["p2"]]}], "deadline": "2026-11-28T12:50:00Z"}
    assert round_time(playing, now) is None and round_time(done, now) is None and round_time(None, now) is None
