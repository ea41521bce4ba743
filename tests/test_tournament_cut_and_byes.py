"""A top cut after a swap or a correction, single elimination with too few players or a dropped finalist, a last round
of byes alone, a bye in pods (issue 19; RULINGS T2, T4, T5, T6): each failed before tournament rules 2 (docs/RULINGS.md
T7)."""
from __future__ import annotations

import json
import uuid

from domain.tournaments.aggregate import Tournament
from domain.tournaments.timeline import sentences
from replays.tournament_audit import audit
from tests.helpers.api import assert_problem, auth
from tests.helpers.tournaments import entered, first_seat_wins, paired


def test_a_swap_in_the_top_cut_does_not_break_the_pairing_of_the_final(client):
    """RULINGS T2 lets the organiser swap two players of the current round; in a top 4's semi-finals the swap was
    accepted (200), and pairing the final then answered 500 (domain/tournaments/aggregate.py `_through` looks for a
    table holding exactly the two bracket places, and there is none after a swap)."""
    tid, organiser, _ = entered(client, 4, rounds=1, top_cut=4)
    first_seat_wins(client, tid, organiser, paired(client, tid, organiser))
    semis = paired(client, tid, organiser)
    a, b = semis["tables"][0]["players"][0], semis["tables"][1]["players"][0]  # the seats that win below
    swap = client.post(f"/tournaments/{tid}/pairings", headers=auth(organiser),
                       json={"swap": [a, b], "reason": "a family of two in the top 4"})
    assert swap.status_code == 200, swap.get_json()
    semis = client.get(f"/tournaments/{tid}/rounds/2").get_json()
    first_seat_wins(client, tid, organiser, semis)
    final = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert final.status_code == 201, final.get_data(as_text=True)
    assert final.get_json()["tables"][0]["players"] == [t["players"][0] for t in semis["tables"]]


def test_a_swiss_result_corrected_during_the_top_cut_does_not_break_the_pairing_of_the_final(client):
    """A correction of a Swiss result (RULINGS T2: "any table's placements") once the top 4 is being played changed
    the standings the cut's seeds were recomputed from at every later pairing, and the final answered 500 (or was
    seated by the new seeds): the final is the two semi-finals' winners, the first table's seated first."""
    for flipped in ({1}, {2}, {1, 2}):
        tid, organiser, _ = entered(client, 4, rounds=1, top_cut=4)
        swiss = paired(client, tid, organiser)
        first_seat_wins(client, tid, organiser, swiss)
        semis = paired(client, tid, organiser)
        for table in swiss["tables"]:
            if table["table"] in flipped:  # that table's result was the other way round
                correction = client.post(f"/tournaments/{tid}/results", headers=auth(organiser), json={
                    "round": 1, "table": table["table"], "reason": "the slips were swapped",
                    "placements": [[table["players"][1]], [table["players"][0]]]})
                assert correction.status_code == 200, correction.get_json()
        first_seat_wins(client, tid, organiser, semis)
        final = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
        assert final.status_code == 201, (flipped, final.get_data(as_text=True))
        assert final.get_json()["tables"][0]["players"] == [t["players"][0] for t in semis["tables"]]


def test_single_elimination_needs_two_players_to_pair_a_round(client):
    """Swiss and round robin refuse to pair with fewer than 2 players still in (422); single elimination paired an
    empty round (201), called itself finished without ever revealing its seed, and with nobody registered recorded a
    bye for no one (`"byes": [null]`), after which its timeline answered 500."""
    for count in (0, 1):
        tid, organiser, _ = entered(client, count, format="single_elimination")
        assert_problem(client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)), 422)
        assert client.get(f"/tournaments/{tid}").get_json()["status"] == "registering"
        assert client.get(f"/tournaments/{tid}/timeline").status_code == 200


def test_a_last_round_without_a_table_still_ends_the_tournament_and_reveals_its_seed(client):
    """A 3-player round robin (RULINGS T5: a dropped player's opponent has a bye) whose last round is all byes: the
    tournament said "finished", but TournamentFinished and SeedRevealed are only recorded with a result, so the seed
    was never revealed and `herald audit-tournament` could never check it."""
    tid, organiser, tokens = entered(client, 3, format="round_robin")
    first = paired(client, tid, organiser)
    first_seat_wins(client, tid, organiser, first)
    first_seat_wins(client, tid, organiser, paired(client, tid, organiser))
    (had_the_bye,) = first["byes"]  # by the circle method, round 3 pairs the other two: their opponent has left
    client.post(f"/tournaments/{tid}/players/{had_the_bye}/drop", headers=auth(tokens[had_the_bye]))
    last = paired(client, tid, organiser)
    assert last["tables"] == [] and len(last["byes"]) == 2
    assert client.get(f"/tournaments/{tid}").get_json()["status"] == "finished"
    lines = client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()
    assert any('"SeedRevealed"' in line for line in lines)
    assert audit(lines)[0].startswith("ok")


def test_a_pod_bye_is_worth_the_top_of_the_placement_points_not_more(client):
    """RULINGS T6: a bye is a win at the top of the placement points. With points 2, 1, 0 for 3-player pods, a bye
    gave 3 points, more than winning a table (2), and a player who won every table had a match-win % of 2/3."""
    tid, organiser, _ = entered(client, 4, game="for_a_crown", table_size=3, rounds=1, placement_points=[2, 1, 0])
    round_ = paired(client, tid, organiser)
    first_seat_wins(client, tid, organiser, round_)
    rows = {row["player_id"]: row for row in client.get(f"/tournaments/{tid}/standings").get_json()["standings"]}
    winner, (bye,) = round_["tables"][0]["players"][0], round_["byes"]
    assert rows[winner]["points"] == 2 and rows[bye]["points"] == 2
    assert rows[winner]["gw"] == 1.0 and rows[bye]["gw"] == 1.0


def test_a_player_who_dropped_is_not_paired_in_an_elimination_round(client):
    """PlayerDropped: "it is paired no more". A semi-final winner who dropped was seated in the final; the other
    finalist goes through with a bye (as RULINGS T5 gives a dropped player's opponent a bye) and is the champion."""
    tid, organiser, tokens = entered(client, 4, format="single_elimination")
    semis = paired(client, tid, organiser)
    first_seat_wins(client, tid, organiser, semis)
    gone, staying = (t["players"][0] for t in semis["tables"])
    assert client.post(f"/tournaments/{tid}/players/{gone}/drop", headers=auth(tokens[gone])).status_code == 200
    final = paired(client, tid, organiser)
    assert all(gone not in t["players"] for t in final["tables"]) and final["byes"] == [staying]
    assert client.get(f"/tournaments/{tid}").get_json()["status"] == "finished"
    timeline = client.get(f"/tournaments/{tid}/timeline").get_json()["sentences"]
    assert "The tournament is over: P" in timeline[-2] and timeline[-2].endswith("won the final.")
    lines = client.get(f"/tournaments/{tid}/export").get_data(as_text=True).splitlines()
    assert audit(lines)[0].startswith("ok")


def test_a_top_cut_larger_than_the_field_is_refused_before_the_first_round(client):
    """RULINGS T7: a top 4 with 3 players could never be paired after its Swiss rounds, so the tournament would never
    end nor reveal its seed: its first round is refused (422), nothing recorded, and a fourth player lets it begin."""
    tid, organiser, _ = entered(client, 3, rounds=1, top_cut=4)
    refused = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert_problem(refused, 422)
    assert "a top 4 needs 4 players; 3 are registered" in refused.get_json()["detail"]
    assert client.get(f"/tournaments/{tid}").get_json()["status"] == "registering"
    assert client.post(f"/tournaments/{tid}/players", json={"name": "P4"}, headers=auth(organiser)).status_code == 201
    assert paired(client, tid, organiser)["round"] == 1


DOMAIN_SPEC = {"name": "Review", "game": "korona", "format": "single_elimination", "rounds": 1, "table_size": 2,
        "top_cut": 0, "placement_points": [3, 0], "options": {}}


def tournament_of(count: int, **changes) -> Tournament:
    tournament = Tournament.create(uuid.uuid4(), {**DOMAIN_SPEC, **changes}, "organiser", bytes(32))
    for i in range(count):
        tournament.register(f"P{i + 1}", None, f"hash-{i}")
    return tournament


def won_by_first_seats(tournament: Tournament) -> dict:
    """The next round paired and every table won by its first seat."""
    tables, byes, draw = tournament.pairing()
    round_ = tournament.pair(tables, byes, draw, [str(uuid.uuid4()) for _ in tables])
    for table in round_["tables"]:
        first, *others = table["players"]
        tournament.record_result(round_["round"], table["table"], [[first], others], "organiser", "on paper")
    return round_


def exported(tournament: Tournament) -> list[str]:
    rows_ = [{"version": e.originator_version, "type": type(e).__name__, "payload": e.payload, "chain": e.chain}
             for e in tournament.collect_events()]
    return [json.dumps({"format": "herald-tournament-v1", "tournament_id": str(tournament.id)})] + \
        [json.dumps(r) for r in rows_]


def test_two_semi_final_winners_who_dropped_are_not_seated_in_the_final():
    """PlayerDropped: "it is paired no more"; RULINGS T7: "a player who left cannot play a final". When both semi-final
    winners drop, `_elimination` handles only len(gone) == 1 and seats the two of them at the final (two matches the
    organiser must settle by hand, and a champion who left). No one is seated: the tournament ends without a champion."""
    tournament = tournament_of(4)
    semis = won_by_first_seats(tournament)
    for table in semis["tables"]:
        tournament.drop(table["players"][0])
    tables, byes, _ = tournament.pairing()
    assert tables == [] and byes == []
    tables, byes, draw = tournament.pairing()
    tournament.pair(tables, byes, draw, [])  # was: IndexError in _finish_if_over once nobody is paired
    assert tournament.status == "finished" and tournament.revealed_seed is not None
    assert audit(exported(tournament))[0].startswith("ok")


def test_two_quarter_final_winners_who_dropped_are_not_seated_in_a_top_8():
    """RULINGS T7: in a top 8, the two winners of the quarter-finals that feed one semi-final drop: that semi-final is
    not played, and the other semi-final's winner goes through the final with a bye, the champion."""
    tournament = tournament_of(8, format="swiss", rounds=1, top_cut=8)
    won_by_first_seats(tournament)
    quarters = won_by_first_seats(tournament)
    gone = [quarters["tables"][0]["players"][0], quarters["tables"][1]["players"][0]]  # the first semi-final's two
    for player in gone:
        tournament.drop(player)
    tables, byes, _ = tournament.pairing()
    assert not {p for t in tables for p in t} & set(gone)
    assert tables == [[quarters["tables"][2]["players"][0], quarters["tables"][3]["players"][0]]] and byes == []
    won_by_first_seats(tournament)
    final = won_by_first_seats(tournament)  # the other semi-final's winner, alone: a bye, and the champion
    assert final["tables"] == [] and final["byes"] == [quarters["tables"][2]["players"][0]]
    assert tournament.revealed_seed is not None
    assert audit(exported(tournament))[0].startswith("ok")


def test_a_cut_left_short_by_a_drop_gives_its_top_seeds_byes_and_ends():
    """RULINGS T7: a drop during the Swiss rounds leaves 3 players still in for a top 4 (it was refused at every try,
    and the tournament never ended): the top seed has a bye, the others meet, the final is played, the seed revealed
    and the export audits; in a top 8 left with 5, the top 3 seeds have byes."""
    tournament = tournament_of(4, format="swiss", rounds=1, top_cut=4)
    won_by_first_seats(tournament)
    tournament.drop(tournament.standings()[1]["player_id"])
    top = tournament.standings()[0]["player_id"]
    semis = won_by_first_seats(tournament)
    assert semis["byes"] == [top] and len(semis["tables"]) == 1
    final = won_by_first_seats(tournament)
    assert final["tables"][0]["players"] == [top, semis["tables"][0]["players"][0]]
    assert tournament.status == "finished" and tournament.revealed_seed is not None
    assert audit(exported(tournament))[0].startswith("ok")
    tournament = tournament_of(8, format="swiss", rounds=1, top_cut=8)
    won_by_first_seats(tournament)
    for row in tournament.standings()[5:]:
        tournament.drop(row["player_id"])
    ranked = [row["player_id"] for row in tournament.standings()]
    quarters = won_by_first_seats(tournament)
    assert sorted(quarters["byes"]) == sorted(ranked[:3]) and quarters["tables"][0]["players"] == [ranked[3], ranked[4]]
    while tournament.status != "finished":
        won_by_first_seats(tournament)
    assert audit(exported(tournament))[0].startswith("ok")


def test_a_tournament_left_with_one_player_plays_on_with_byes_and_ends():
    """RULINGS T7: after round 1, three of four players drop: the Swiss rounds left (refused before, "at least 2
    players still in", so the tournament never ended) give the one still in a bye each; a round robin left with no one
    pairs nobody; each ends, reveals its seed and audits."""
    for spec in ({"format": "swiss", "rounds": 3}, {"format": "round_robin"}):
        tournament = tournament_of(4, **spec)
        won_by_first_seats(tournament)
        staying = list(tournament.players)[-1] if spec["format"] == "swiss" else None
        for player in [p for p in tournament.players if p != staying]:
            tournament.drop(player)
        while tournament.status != "finished":
            round_ = won_by_first_seats(tournament)
            assert round_["tables"] == [] and round_["byes"] == ([staying] if staying else [])
        assert len(tournament.rounds) == tournament.total_rounds and tournament.revealed_seed is not None
        assert audit(exported(tournament))[0].startswith("ok")


def test_the_timeline_of_an_elimination_without_a_champion_names_no_one_first():
    """RULINGS T7: both finalists dropped, so the tournament ends with no champion; its timeline said the first of the
    standings "finished first", in single elimination the first registered (who lost its semi-final or left)."""
    tournament = tournament_of(4)
    semis = won_by_first_seats(tournament)
    for table in semis["tables"]:
        tournament.drop(table["players"][0])
    won_by_first_seats(tournament)
    assert tournament.revealed_seed is not None
    records = [{"type": type(e).__name__, "payload": e.payload} for e in tournament.collect_events()]
    assert sentences(records)[-2] == "The tournament is over: no one won the final, the players left for it having dropped."
