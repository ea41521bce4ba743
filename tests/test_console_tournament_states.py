"""The tournament pages and timeline in the states RULINGS T7 reaches (rounds of byes alone, a cut with byes, an
elimination without a champion, a tournament ended early by drops): the organiser is offered only what it may do, the
rounds counted are the rounds played, a round without a table is told as such."""
from __future__ import annotations

from tests.helpers.api import auth
from tests.helpers.console_forms import page, post_form, sign_in_form, words
from tests.helpers.tournaments import entered, first_seat_wins, paired


def finalists_dropped(client) -> tuple[str, str]:
    """A 4-player single elimination whose two semi-final winners dropped, its final paired (no one to seat): its id
    and the organiser's token."""
    tid, organiser, _ = entered(client, 4, format="single_elimination")
    semis = paired(client, tid, organiser)
    first_seat_wins(client, tid, organiser, semis)
    for table in semis["tables"]:
        client.post(f"/tournaments/{tid}/players/{table['players'][0]}/drop", headers=auth(organiser))
    paired(client, tid, organiser)
    return tid, organiser


def test_a_tournament_its_last_round_of_byes_ended_offers_no_pairing_button(sqlite_client):
    """RULINGS T7: a 4-player Swiss where 3 drop after round 1 ends when its last round (a bye alone) is paired. The
    organiser's page still offered "Pair the next round", which answers 422 ("all 2 rounds have been paired"), and a
    drop, which was recorded after the end."""
    tid, organiser, tokens = entered(sqlite_client, 4, rounds=2)
    first_seat_wins(sqlite_client, tid, organiser, paired(sqlite_client, tid, organiser))
    for player in list(tokens)[:3]:
        sqlite_client.post(f"/tournaments/{tid}/players/{player}/drop", headers=auth(organiser))
    paired(sqlite_client, tid, organiser)
    assert sqlite_client.get(f"/tournaments/{tid}").get_json()["status"] == "finished"
    sign_in_form(sqlite_client, organiser)
    refused = post_form(sqlite_client, f"/console/tournaments/{tid}/rounds")
    assert refused.status_code == 422  # what the button does
    shown = page(sqlite_client, f"/console/tournaments/{tid}")
    assert "Pair the next round" not in shown and "Drop a player" not in shown
    staying = list(tokens)[3]
    refused = sqlite_client.post(f"/tournaments/{tid}/players/{staying}/drop", headers=auth(organiser))
    assert refused.status_code == 422 and "the tournament is over" in refused.get_json()["detail"]


def test_the_tournament_page_counts_the_rounds_a_cut_or_a_bracket_plays(sqlite_client):
    """A top 4 after 1 Swiss round, its cut's first round a bye for the top seed after a drop, said "running, round 2
    of 1"; a 4-player single elimination whose finalists both dropped said "finished, round 2 of 4" (the spec's
    Swiss rounds, which single elimination ignores)."""
    tid, organiser, _ = entered(sqlite_client, 4, rounds=1, top_cut=4)
    swiss = paired(sqlite_client, tid, organiser)
    first_seat_wins(sqlite_client, tid, organiser, swiss)
    sqlite_client.post(f"/tournaments/{tid}/players/{swiss['tables'][0]['players'][1]}/drop", headers=auth(organiser))
    assert len(paired(sqlite_client, tid, organiser)["byes"]) == 1
    shown = words(page(sqlite_client, f"/console/tournaments/{tid}"))
    assert "running, round 2 of 3" in shown, shown[:300]

    tid, organiser = finalists_dropped(sqlite_client)
    shown = words(page(sqlite_client, f"/console/tournaments/{tid}"))
    assert "finished, round 2 of 2" in shown, shown[:300]
    sign_in_form(sqlite_client, organiser)
    assert "finished, round 2 of 2" in words(page(sqlite_client, "/console/"))


def test_a_round_without_a_table_is_told_as_such(sqlite_client):
    """A pods tournament (For a Crown, tables of 3) left with 2 players: its last round seats no one and gives both a
    bye. The timeline said "Round 2 paired: 0 tables, P5 has the bye, P6 has the bye." (two players each having "the"
    bye), and of a final nobody was left for, "Round 2 paired: 0 tables."."""
    tid, organiser, tokens = entered(sqlite_client, 6, game="for_a_crown", table_size=3, rounds=2,
                                     placement_points=[3, 1, 0])
    first_seat_wins(sqlite_client, tid, organiser, paired(sqlite_client, tid, organiser))
    for player in list(tokens)[:4]:
        sqlite_client.post(f"/tournaments/{tid}/players/{player}/drop", headers=auth(organiser))
    last = paired(sqlite_client, tid, organiser)
    assert last["tables"] == [] and len(last["byes"]) == 2
    timeline = sqlite_client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    one, two = (p.upper() for p in last["byes"])  # player p5 is named P5
    assert f"Round 2 paired: no table, {one} and {two} have a bye." in timeline, timeline

    tid, organiser = finalists_dropped(sqlite_client)
    timeline = sqlite_client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert "Round 2 paired: no table, no bye: no one still in to seat." in timeline, timeline
