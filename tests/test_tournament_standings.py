"""Standings and tiebreakers (domain/tournaments/standings.py), worked by hand as MTG's tournament rules (MTR
appendix C) count them: 3/1/0, a bye a win left out of opponents' averages, each percentage floored at 0.33."""
from __future__ import annotations

from fractions import Fraction

import pytest

from domain.tournaments.standings import shown, standings, table_points


def two(a, b, result):
    """A 2-player table: "a" won, "b" won, or a draw."""
    placements = {"a": [[a], [b]], "b": [[b], [a]], "draw": [[a, b]]}[result]
    return {"players": [a, b], "placements": placements}


def field(*names):
    return {n: {"name": n.title(), "dropped": False, "order": i} for i, n in enumerate(names)}


def test_match_points_and_the_tiebreakers_with_a_bye_and_the_floor():
    """Four rounds-worth of results over five players; every figure computed by hand below."""
    players = field("ana", "bo", "cy", "di", "ed")
    rounds = [
        {"tables": [two("ana", "bo", "a"), two("cy", "di", "draw")], "byes": ["ed"]},
        {"tables": [two("ana", "cy", "a"), two("ed", "bo", "a")], "byes": ["di"]},
    ]
    rows = {row["player_id"]: row for row in standings(players, rounds, [3, 2, 1, 0])}
    assert {p: rows[p]["points"] for p in rows} == {"ana": 6, "bo": 0, "cy": 1, "di": 4, "ed": 6}
    assert rows["ed"]["matches"] == {"won": 1, "drawn": 0, "lost": 0, "byes": 1}
    # match-win %: ana 6/6, bo 0/6 -> floored 0.33, cy 1/6 -> 0.33, di 4/6, ed 6/6
    # ana's opponents bo and cy: (0.33 + 0.33) / 2; ed's only opponent is bo (the bye is left out): 0.33
    assert rows["ana"]["omw"] == Fraction(33, 100) and rows["ed"]["omw"] == Fraction(33, 100)
    # di's only opponent is cy: 0.33; cy's are di (4/6) and ana (1): (2/3 + 1) / 2
    assert rows["cy"]["omw"] == (Fraction(2, 3) + 1) / 2
    # game-win %: one game a match, a bye two game wins: di 1 + 6 of 3 + 6; bo 0 -> 0.33
    assert rows["di"]["gw"] == Fraction(7, 9) and rows["bo"]["gw"] == Fraction(33, 100)
    assert rows["cy"]["ogw"] == (Fraction(7, 9) + 1) / 2
    ranked = [row["player_id"] for row in standings(players, rounds, [3, 2, 1, 0])]
    assert ranked[:2] == ["ana", "ed"]  # 6 points each; omw equal (0.33): ana's game-win % 1 equals ed's 1: order


def test_points_by_placement_ties_share():
    """Pods: 3, 2, 1, 0 down the table; tied players share the points of the places they fill."""
    points = table_points([["a"], ["b", "c"], ["d"]], [3, 2, 1, 0])
    assert points == {"a": 3, "b": Fraction(3, 2), "c": Fraction(3, 2), "d": 0}
    assert table_points([["a", "b", "c"]], [3, 2, 1]) == {"a": 2, "b": 2, "c": 2}
    assert table_points([["a"], ["b"]], [5, 4]) == {"a": 3, "b": 0}  # two seats: 3/1/0 whatever the scheme


def test_a_table_still_playing_counts_nothing_yet():
    players = field("ana", "bo")
    rounds = [{"tables": [{"players": ["ana", "bo"], "placements": None}], "byes": []}]
    assert [row["points"] for row in standings(players, rounds, [3, 0])] == [0, 0]


@pytest.mark.parametrize("points, expected", [(Fraction(3, 2), 1.5), (Fraction(6), 6)])
def test_shown_rows_are_json(points, expected):
    row = {"rank": 1, "player_id": "a", "name": "A", "points": points, "matches": {}, "omw": Fraction(1, 3),
           "gw": Fraction(1), "ogw": Fraction(33, 100), "dropped": False}
    out = shown(row)
    assert out["points"] == expected and type(out["points"]) is type(expected) and out["omw"] == 0.3333
