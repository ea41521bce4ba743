"""Korona scoring, colours, Farmers and combos (domain/korona/scoring.py), checked against the rulebook
(the Korona rulebook, Build cards and the scoring example) and ruling K1 of docs/RULINGS.md.

Play areas are lists of stacks, each a list of card ids bottom first; Joker roles are keyed by str(id).
"""
from __future__ import annotations

import pytest

from domain.korona import scoring
from domain.korona.cards import NAMES
from tests.helpers.korona_cards import Cards


def roles_of(**by_id):
    return {str(k): v for k, v in by_id.items()}


# ---------------------------------------------------------------- the rulebook's example board

def example_board():
    """'What the game looks like': the player's own area, as itemised under the (missing) picture."""
    c = Cards()
    joker = c("joker")
    fields = [[c("field"), c("farmer"), c("farmer")], [c("field"), c("farmer")], [c("field"), c("farmer")]]
    archers = [[c("tower"), c("archer"), c("archer")]]
    rulers = [[c("ruler"), joker]]
    lone_knight = [[c("knight")]]
    knight_set = [[c("stable"), c("knight"), c("knight")]]
    healer = [[c("healer")]]
    parts = {"fields": fields, "archers": archers, "rulers": rulers, "lone_knight": lone_knight,
             "knight_set": knight_set, "healer": healer}
    return parts, {str(joker): "ruler"}


def test_example_board_scores_84():
    """"Your score in this scenario would be 84 pts total" """
    parts, roles = example_board()
    area = [s for part in parts.values() for s in part]
    assert scoring.colours(area) == 9
    assert scoring.score(area, roles) == 84


@pytest.mark.parametrize("part, points", [
    ("fields", 24), ("archers", 9), ("rulers", 20), ("lone_knight", 1), ("knight_set", 15),
])
def test_example_board_items(part, points):
    """"3 fields + 4 farmers stacked: 24 pts 1 Tower + 2 Archers stacked: 9 pts Ruler pair: 20 pts 1 Knight
    standalone: 1 pt 1 Full Knight set: 15 pts" """
    parts, roles = example_board()
    assert scoring.score(parts[part], roles) == points


def test_example_board_healer_at_nine_colours_scores_15():
    """"1 Healer (9 colors): 15 pts" - the Healer's share of the 84 (ruling K1: only with the Ruler pair's Joker
    does the area show 9 colours)."""
    parts, roles = example_board()
    area = [s for part in parts.values() for s in part]
    without_healer = [s for name, part in parts.items() if name != "healer" for s in part]
    assert scoring.score(area, roles) - scoring.score(without_healer, roles) == 15
    # with two true Rulers instead of the Joker the area has 8 colours and the Healer only 8
    c = Cards()
    for name, ids in c.free.items():
        c.free[name] = [i for i in ids if i not in {x for s in area for x in s}]
    swapped = [s if s not in parts["rulers"] else [s[0], c("ruler")] for s in area]
    assert scoring.colours(swapped) == 8
    assert scoring.score(swapped, {}) == 84 - 15 + 8


def test_opponent_left_scores_55():
    """"Your opponents would score 55 pts (left)" - RECONSTRUCTED: the picture is missing from the rulebook, so this is
    a plausible board with that total built from the rules, not the pictured one: Ruler pair 20, full Archer set
    (Tower + 3 Archers) 11, full Knight set 15, Tower + 1 Archer 7, Field + Farmer 1, standalone Farmer 1."""
    c = Cards()
    area = [[c("ruler"), c("ruler")], [c("tower"), c("archer"), c("archer"), c("archer")],
            [c("stable"), c("knight"), c("knight")], [c("tower"), c("archer")], [c("field"), c("farmer")],
            [c("farmer")]]
    assert scoring.score(area, {}) == 55
    assert scoring.combo(area, {}) is None, "one Archer set short of the Military combo"


def test_opponent_right_scores_27():
    """"and 27 pts (right)" - RECONSTRUCTED: the picture is missing, so this is a plausible board with that total:
    2 Fields with 1 Farmer 11, Tower + 2 Archers 9, Stable 3, standalone Knight 1, Healer at 7 colours 3."""
    c = Cards()
    area = [[c("field"), c("farmer")], [c("field")], [c("tower"), c("archer"), c("archer")], [c("stable")],
            [c("knight")], [c("healer")]]
    assert scoring.colours(area) == 7
    assert scoring.score(area, {}) == 27


# ---------------------------------------------------------------- each card's points

def test_ruler_scores_10_each():
    """"Ruler (x4) ● 10 pts each." (ruling K1: a Joker as Ruler scores 10)"""
    c = Cards()
    r1, r2, r3 = c("ruler", 3)
    joker = c("joker")
    assert scoring.score([[r1]], {}) == 10
    assert scoring.score([[r1, r2]], {}) == 20
    assert scoring.score([[r1, r2], [r3]], {}) == 30, "a third Ruler standalone still scores 10 (ruling K2)"
    assert scoring.score([[r1, joker]], roles_of(**{str(joker): "ruler"})) == 20


def test_stable_scores_3():
    """"Stable (x4) ● 3 pts each." """
    c = Cards()
    assert scoring.score([[c("stable")]], {}) == 3
    assert scoring.score([[c("stable")], [c("stable")]], {}) == 6


def test_knight_scores_6_on_a_stable_1_alone():
    """"Knight (x5) ● 6 pts stacked on a Stable. 1 pt alone." """
    c = Cards()
    stable, k1, k2, k3 = c("stable"), c("knight"), c("knight"), c("knight")
    assert scoring.score([[k1]], {}) == 1
    assert scoring.score([[stable, k1]], {}) == 9
    assert scoring.score([[stable, k1, k2], [k3]], {}) == 3 + 12 + 1


def test_tower_scores_5():
    """"Tower (x6) ● 5 pts each." """
    c = Cards()
    assert scoring.score([[c("tower")]], {}) == 5
    assert scoring.score([[c("tower")], [c("tower")], [c("tower")]], {}) == 15


def test_archer_scores_2_on_a_tower_1_alone():
    """"Archer (x10) ● 2 pts stacked on a Tower. 1 pt alone." """
    c = Cards()
    tower = c("tower")
    a = c("archer", 4)
    assert scoring.score([[a[0]]], {}) == 1
    assert scoring.score([[tower, a[0], a[1], a[2]]], {}) == 11
    assert scoring.score([[tower, a[0], a[1], a[2]], [a[3]]], {}) == 12


def test_farmer_scores_1_stacked_or_alone():
    """"Farmer (x12) ● 1 pt stacked on a Field. 1 pt alone." """
    c = Cards()
    field = c("field")
    f = c("farmer", 4)
    assert scoring.score([[f[0]]], {}) == 1
    assert scoring.score([[field, f[0], f[1], f[2]]], {}) == 3
    assert scoring.score([[field, f[0], f[1], f[2]], [f[3]]], {}) == 4


@pytest.mark.parametrize("fields, points", [(0, 0), (1, 0), (2, 10), (3, 20), (4, 30), (5, 40), (6, 50)])
def test_fields_score_ten_for_each_after_the_first(fields, points):
    """"Field (x6) ● 0 pts for the first Field, 10 pts for each additional Field, up to 50 pts for 6 Fields." """
    c = Cards()
    area = [[f] for f in c("field", fields)]
    assert scoring.score(area, {}) == points


def test_fields_count_whether_farmed_or_not():
    """"0 pts for the first Field, 10 pts for each additional Field" - every Field counts, with or without Farmers."""
    c = Cards()
    area = [[c("field"), c("farmer"), c("farmer"), c("farmer")], [c("field")], [c("field"), c("farmer")]]
    assert scoring.score(area, {}) == 20 + 4


def test_fields_capped_at_50():
    """Ruling K1: "with n Fields, 10·(n−1), at most 50" - the cap holds even for a board with more than 6 Fields
    (not reachable with one deck; the same card id stands in for the seventh)."""
    c = Cards()
    fields = c("field", 6)
    assert scoring.score([[f] for f in fields] + [[fields[0]]], {}) == 50


def test_thief_scores_minus_10():
    """"Thief (x2) ● -10 pts each." """
    c = Cards()
    t1, t2 = c("thief", 2)
    assert scoring.score([[t1]], {}) == -10
    assert scoring.score([[t1], [t2]], {}) == -20


def test_thief_in_a_stack_leaves_the_others_points():
    """"Thieves score -10 points each (stacks containing a Thief can still count as full stacks ...)" - the rest of
    the stack keeps its value (ruling K1: Knight 6 in a Stable's stack, Archer 2 in a Tower's)."""
    c = Cards()
    assert scoring.score([[c("tower"), c("thief"), c("archer"), c("archer")]], {}) == 5 - 10 + 4
    assert scoring.score([[c("stable"), c("knight"), c("thief")]], {}) == 3 + 6 - 10
    c = Cards()
    assert scoring.score([[c("ruler"), c("thief")]], {}) == 0


# ---------------------------------------------------------------- Jokers

@pytest.mark.parametrize("base, role, points", [
    ("field", "farmer", 1), ("tower", "archer", 5 + 2), ("stable", "knight", 3 + 6), ("ruler", "ruler", 20),
])
def test_joker_scores_as_its_role(base, role, points):
    """"Joker (x3) ○ Acts as Farmer, Archer, Knight, Healer, or Ruler." (ruling K1: a Joker scores as its role)"""
    c = Cards()
    joker = c("joker")
    assert scoring.score([[c(base), joker]], roles_of(**{str(joker): role})) == points


def test_joker_as_healer_adds_3():
    """"Second Healer must be stack on the first → +3 pts." (ruling K1: "plus 3 when a second Healer (or a Joker as
    Healer) sits on it")"""
    c = Cards()
    healer, joker = c("healer"), c("joker")
    assert scoring.score([[healer]], {}) == 3
    assert scoring.score([[healer, joker]], roles_of(**{str(joker): "healer"})) == 3 + 3


def test_jokers_complete_a_full_knight_set():
    """"Jokers complete stacks normally" - Stable + Knight + Joker as Knight is the 15-point full Knight set."""
    c = Cards()
    joker = c("joker")
    assert scoring.score([[c("stable"), c("knight"), joker]], roles_of(**{str(joker): "knight"})) == 15


# ---------------------------------------------------------------- Healers and colours

def test_second_healer_adds_3():
    """"Second Healer must be stack on the first → +3 pts." """
    c = Cards()
    h1, h2 = c("healer", 2)
    assert scoring.score([[h1, h2]], {}) == 3 + 3


def _colour_board(c, n):
    """An area with exactly n colours (n >= 1), always including one Healer."""
    kinds = ["healer", "tower", "archer", "field", "farmer", "stable", "knight", "ruler", "thief", "joker"][:n]
    area, roles = [], {}
    for kind in kinds:
        if kind == "joker":
            joker = c("joker")
            roles[str(joker)] = "archer"
            tower = next(s for s in area if NAMES[s[0]] == "tower")
            tower.append(joker)
        else:
            area.append([c(kind)])
    return area, roles


@pytest.mark.parametrize("n, healer", [(1, 3), (5, 3), (7, 3), (8, 8), (9, 15), (10, 40)])
def test_healer_scores_by_colours(n, healer):
    """"Healer (x2) ● Scores based on the number of different colors in your play area: 8 colors → 8 pts 9 colors →
    15 pts 10 colors → 40 pts 3 pts otherwise." """
    c = Cards()
    area, roles = _colour_board(c, n)
    assert scoring.colours(area) == n
    healer_stack = next(s for s in area if NAMES[s[0]] == "healer")
    rest = [s for s in area if s is not healer_stack]
    assert scoring.score(area, roles) - scoring.score(rest, roles) == healer


def test_healer_pair_at_ten_colours_scores_43():
    """"10 colors → 40 pts" and "Second Healer ... → +3 pts" - the bonus is on top of the colour value."""
    c = Cards()
    area, roles = _colour_board(c, 10)
    healer_stack = next(s for s in area if NAMES[s[0]] == "healer")
    rest = [s for s in area if s is not healer_stack]
    healer_stack.append(c("healer"))
    assert scoring.colours(area) == 10
    assert scoring.score(area, roles) - scoring.score(rest, roles) == 43


def test_colour_is_a_card_kind_and_a_joker_is_joker_whatever_its_role():
    """Ruling K1: "A colour is a card kind present in the play area [...]; a Joker is the colour joker whatever its
    role." """
    c = Cards()
    j1, j2 = c("joker", 2)
    area = [[c("field"), c("farmer"), j1], [c("tower"), j2], [c("thief")]]
    assert scoring.colours(area) == 5  # field, farmer, joker, tower, thief
    assert scoring.colours([[c("field"), c("farmer"), c("farmer")]]) == 2
    assert scoring.colours([]) == 0


def test_healer_counts_colours_of_its_own_area_only():
    """"the number of different colors in your play area" """
    c = Cards()
    mine, _ = _colour_board(c, 8)
    other, _ = _colour_board(Cards(), 9)
    assert scoring.healer_value(mine) == 8
    assert scoring.healer_value(other) == 15


# ---------------------------------------------------------------- Farmers (tie-break)

def test_farmers_counts_stacked_standalone_and_jokers():
    """"in case of a tie, the player with the most Farmers wins" (ruling K6: Jokers acting as Farmers count)"""
    c = Cards()
    j1, j2 = c("joker", 2)
    area = [[c("field"), c("farmer"), j1], [c("farmer")], [c("tower"), j2]]
    assert scoring.farmers(area, roles_of(**{str(j1): "farmer", str(j2): "archer"})) == 3
    assert scoring.farmers([[c("field")]], {}) == 0


# ---------------------------------------------------------------- combos

def _pair(c):
    return [c("ruler"), c("ruler")]


def test_no_combo_without_a_ruler_pair():
    """"Healer combo: Ruler pair + ..." "Military combo: Ruler pair + ..." "Production combo: Ruler pair + ..." """
    c = Cards()
    area = [[c("ruler")], [c("stable"), c("knight"), c("knight")], [c("tower")] + c("archer", 3),
            [c("tower")] + c("archer", 3), [c("field"), c("farmer")], [c("field"), c("farmer")],
            [c("field"), c("farmer")], [c("field"), c("farmer")]]
    assert scoring.combo(area, {}) is None
    area[0].append(c("ruler"))
    assert scoring.combo(area, {}) in ("military", "production")


def test_healer_combo_needs_a_40_point_healer():
    """"Healer combo: Ruler pair + a 40 points scoring Healer" """
    c = Cards()
    area, roles = _colour_board(c, 10)
    ruler = next(s for s in area if NAMES[s[0]] == "ruler")
    assert scoring.combo(area, roles) is None, "a lone Ruler is not a pair"
    ruler.append(c("ruler"))
    assert scoring.combo(area, roles) == "healer"
    c2 = Cards()
    nine, roles9 = _colour_board(c2, 9)
    next(s for s in nine if NAMES[s[0]] == "ruler").append(c2("ruler"))
    assert scoring.combo(nine, roles9) is None, "15 points is not 40"


def test_healer_combo_with_a_ruler_and_joker_pair():
    """"Healer combo: Ruler pair + a 40 points scoring Healer" with the pair "1 Ruler + Joker"."""
    c = Cards()
    joker = c("joker")
    area = [[c("healer")], [c("tower"), c("archer")], [c("field"), c("farmer")], [c("stable"), c("knight")],
            [c("thief")], [c("ruler"), joker]]
    roles = roles_of(**{str(joker): "ruler"})
    assert scoring.colours(area) == 10
    assert scoring.combo(area, roles) == "healer"


def test_military_combo():
    """"Military combo: Ruler pair + 1 full Knight set + 2 full Archer sets" """
    c = Cards()
    area = [_pair(c), [c("stable")] + c("knight", 2), [c("tower")] + c("archer", 3), [c("tower")] + c("archer", 2)]
    assert scoring.combo(area, {}) is None, "the second Archer set is not full"
    area[3].append(c("archer"))
    assert scoring.combo(area, {}) == "military"


def test_military_combo_with_jokers_completing_sets():
    """"Jokers complete stacks normally" - Joker-completed sets count for the Military combo."""
    c = Cards()
    j1, j2 = c("joker", 2)
    area = [_pair(c), [c("stable"), c("knight"), j1], [c("tower")] + c("archer", 3), [c("tower")] + c("archer", 2) + [j2]]
    assert scoring.combo(area, roles_of(**{str(j1): "knight", str(j2): "archer"})) == "military"


@pytest.mark.parametrize("where", ["knight", "archer"])
def test_military_combo_ignores_sets_with_a_thief(where):
    """"stacks containing a Thief can still count as full stacks, but cannot be used for Ruler pair protection or the
    Military and Production Combos" """
    c = Cards()
    knights = [c("stable"), c("knight"), c("knight")]
    archers = [c("tower"), c("archer"), c("archer"), c("archer")]
    if where == "knight":
        knights[2] = c("thief")
    else:
        archers[3] = c("thief")
    area = [_pair(c), knights, archers, [c("tower")] + c("archer", 3)]
    assert scoring.combo(area, {}) is None


def test_military_combo_needs_full_knight_set():
    """"1 full Knight set" - Stable + 1 Knight is not enough."""
    c = Cards()
    area = [_pair(c), [c("stable"), c("knight")], [c("tower")] + c("archer", 3), [c("tower")] + c("archer", 3)]
    assert scoring.combo(area, {}) is None


def test_production_combo():
    """"Production combo: Ruler pair + 4 Fields with at least 1 Farmer each" """
    c = Cards()
    area = [_pair(c), [c("field"), c("farmer")], [c("field"), c("farmer"), c("farmer")], [c("field"), c("farmer")],
            [c("field")]]
    assert scoring.combo(area, {}) is None, "the fourth Field has no Farmer"
    area[4].append(c("farmer"))
    assert scoring.combo(area, {}) == "production"


def test_production_combo_standalone_farmers_do_not_count():
    """"4 Fields with at least 1 Farmer each" - a Farmer standing alone is not on a Field."""
    c = Cards()
    area = [_pair(c), [c("field"), c("farmer")], [c("field"), c("farmer")], [c("field"), c("farmer")], [c("field")],
            [c("farmer")]]
    assert scoring.combo(area, {}) is None


def test_production_combo_counts_a_joker_as_farmer():
    """Ruling K4: "A Joker acting as a Farmer counts as the Farmer on a Field." """
    c = Cards()
    joker = c("joker")
    area = [_pair(c), [c("field"), c("farmer")], [c("field"), c("farmer")], [c("field"), c("farmer")],
            [c("field"), joker]]
    assert scoring.combo(area, roles_of(**{str(joker): "farmer"})) == "production"


def test_production_combo_ignores_fields_with_a_thief():
    """"stacks containing a Thief ... cannot be used for ... the Military and Production Combos" """
    c = Cards()
    area = [_pair(c), [c("field"), c("farmer")], [c("field"), c("farmer")], [c("field"), c("farmer")],
            [c("field"), c("farmer"), c("thief")]]
    assert scoring.combo(area, {}) is None
