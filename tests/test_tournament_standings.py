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
           "gw": Fraction(1), "ogw": Fraction(33, 100), "dropped": False, "game_points": points}
    out = shown(row)
    assert out["points"] == expected and type(out["points"]) is type(expected) and out["omw"] == 0.3333
    assert out["game_points"] == expected and type(out["game_points"]) is type(expected)


def games(a, b, won_a, won_b, drawn=0):
    """A 2-player table with its games: a's and b's wins and the games drawn, placed by games won."""
    placements = [[a, b]] if won_a == won_b else [[a], [b]] if won_a > won_b else [[b], [a]]
    return {"players": [a, b], "placements": placements, "tally": {"games": {a: won_a, b: won_b}, "drawn": drawn}}


def test_appendix_c_game_points_a_table_s_games_and_a_bye():
    """MTR Appendix C, Game Points: "A player wins a match 2–0–0, so they earn 6 game points and their opponent
    receives 0 [...] 2–1–0 [...] 6 game points and their opponent earns 3 [...] 2–0–1, so they earn 7 game points and
    their opponent earns 1"; Byes: "considered to have won the match 2–0. Thus, that player earns 3 match points and
    6 game points"; game-win % is game points of 3 a game played, floored at 0.33."""
    players = field("ana", "bo", "cy", "di", "ed", "flo", "gil")
    rounds = [{"tables": [games("ana", "bo", 2, 0), games("cy", "di", 2, 1), games("ed", "flo", 2, 0, 1)],
               "byes": ["gil"]}]
    rows = {row["player_id"]: row for row in standings(players, rounds, [3, 0])}
    assert {p: rows[p]["game_points"] for p in rows} == {"ana": 6, "bo": 0, "cy": 6, "di": 3, "ed": 7, "flo": 1,
                                                         "gil": 6}
    assert rows["ed"]["games"] == {"won": 2, "lost": 0, "drawn": 1} and rows["ed"]["points"] == 3
    assert rows["gil"]["games"] == {"won": 2, "lost": 0, "drawn": 0} and rows["gil"]["points"] == 3
    assert (rows["cy"]["gw"], rows["di"]["gw"], rows["ed"]["gw"]) == (Fraction(6, 9), Fraction(3, 9), Fraction(7, 9))
    assert rows["flo"]["gw"] == rows["bo"]["gw"] == Fraction(33, 100)  # 1/9 and 0, floored
    # each opponent's game-win %, floored: ana's is bo's 0.33; the bye is no opponent (gil's average is the floor)
    assert (rows["ana"]["ogw"], rows["cy"]["ogw"], rows["gil"]["ogw"]) == (Fraction(33, 100), Fraction(3, 9),
                                                                           Fraction(33, 100))


def test_appendix_c_match_win_percentages_as_opponents_see_them():
    """MTR Appendix C, Match-win percentage, in an 8-round tournament: "5-2-1 | 16 | 8 | 16/(8*3) = 0.667"; "1-3-0,
    then withdraws | 3 | 4 | 3/(4*3) = 0.25, so 0.33 is used"; "3-2-0, including a first-round bye, then withdraws |
    9 | 5 | 9/(5*3) = 0.60". Each is read as the only opponent of a player it beat sees it (OMW%)."""
    records = {"five": "WWWWWLLD", "one": "WLLL", "three": "-WWLL"}  # "-" the first-round bye
    players = field("five", "one", "three", *(f"{who}{n}" for who, results in records.items()
                                               for n, result in enumerate(results) if result != "-"))
    rounds = [{"tables": [], "byes": []} for _ in range(8)]
    for who, results in records.items():
        for n, result in enumerate(results):
            if result == "-":
                rounds[n]["byes"].append(who)
            else:
                rounds[n]["tables"].append(two(who, f"{who}{n}", {"W": "a", "L": "b", "D": "draw"}[result]))
    rows = {row["player_id"]: row for row in standings(players, rounds, [3, 0])}
    assert rows["five"]["points"] == 16 and rows["five0"]["omw"] == Fraction(16, 24)
    assert rows["one"]["points"] == 3 and rows["one0"]["omw"] == Fraction(33, 100)
    assert rows["three"]["points"] == 9 and rows["three1"]["omw"] == Fraction(9, 15)
    assert rows["three"]["matches"] == {"won": 2, "drawn": 0, "lost": 2, "byes": 1}
