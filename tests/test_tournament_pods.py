"""Swiss pods (tables of 3 to 5, RULINGS T6): table sizes and byes, the fewest repeated table-mates, and whole pod
tournaments of Korona (13 players, tables of 4 and 3) and For a Crown (10 players, tables of 5) played to the end by
bots, their standings by placement points recomputed here and their exports audited."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from domain.tournaments import desk
from domain.tournaments.pods import pods, table_sizes
from replays.tournament_audit import audit, tournament_export
from tests.helpers.stores import memory_app


@pytest.mark.parametrize("players, size, smallest, expected", [
    (13, 4, 3, ([4, 3, 3, 3], 0)), (10, 5, 4, ([5, 5], 0)), (12, 4, 3, ([4, 4, 4], 0)), (5, 4, 3, ([4], 1)),
    (7, 4, 4, ([4], 3)), (9, 5, 4, ([5, 4], 0)), (2, 4, 3, ([], 2))])
def test_tables_of_the_size_and_one_fewer_and_byes_only_when_they_cannot_be_filled(players, size, smallest,
                                                                                    expected):
    assert table_sizes(players, size, smallest) == expected


def test_the_fewest_repeated_table_mates_then_the_closest_points():
    """Nine players who sat 3 by 3 last round are reseated so that no two meet again."""
    order = [f"p{i}" for i in range(9)]
    points = {p: 0 for p in order}
    met = Counter(frozenset(pair) for table in (order[0:3], order[3:6], order[6:9])
                  for pair in itertools.combinations(table, 2))
    tables, byes = pods(order, points, met, set(), 3, 3)
    assert byes == [] and all(not met[frozenset(pair)] for t in tables for pair in itertools.combinations(t, 2))
    assert pods(order, points, met, set(), 3, 3) == (tables, byes)  # deterministic


def play_pod_tournament(game: str, players: int, size: int, rounds: int, seed: int):
    app = memory_app()
    spec = {"name": "Pods", "game": game, "format": "swiss", "rounds": rounds, "table_size": size, "top_cut": 0,
            "placement_points": [3, 2, 1, 0], "options": {}}
    tournament, _ = desk.create(app, spec)
    for i in range(players):
        desk.register(app, tournament.id, f"P{i}", None)
    chooser = random.Random(seed)
    for _ in range(rounds):
        paired = desk.pair_round(app, tournament.id)
        for table in paired["tables"]:
            match = app.load(table["match_id"])
            while not match.finished:
                seat = match.game.awaiting(match.state)
                match, _ = app.play(match.id, seat, chooser.choice(match.game.legal_moves(match.state, seat)))
            desk.finished(app, match)
    return app, desk.load(app, tournament.id)


def by_placement(rounds: list[dict]) -> dict:
    """Points recomputed here: 3, 2, 1, 0 down the table, tied players sharing their places' points."""
    points = Counter()
    for r in rounds:
        for table in r["tables"]:
            place = 0
            for group in table["placements"]:
                share = Fraction(sum([3, 2, 1, 0][place:place + len(group)]), len(group))
                for p in group:
                    points[p] += share
                place += len(group)
    return points


@pytest.mark.parametrize("game, players, size, sizes", [("korona", 13, 4, [4, 3, 3, 3]),
                                                        ("for_a_crown", 10, 5, [5, 5])])
def test_a_pod_tournament_to_the_end(game, players, size, sizes):
    app, tournament = play_pod_tournament(game, players, size, 3, players)
    assert tournament.status == "finished" and len(tournament.rounds) == 3
    for r in tournament.rounds:
        assert sorted((len(t["players"]) for t in r["tables"]), reverse=True) == sizes and r["byes"] == []
        assert all(len(t["placements"]) >= 1 for t in r["tables"])
    expected = by_placement(tournament.rounds)
    assert {row["player_id"]: row["points"] for row in tournament.standings()} == {p: expected[p]
                                                                                   for p in tournament.players}
    lines = tournament_export(str(tournament.id), desk.log(app, tournament.id))
    assert audit(lines)[2] == "ok   3 rounds of pairings recomputed from the seed and the results"
