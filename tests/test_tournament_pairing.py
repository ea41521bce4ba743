"""Swiss pairings (domain/tournaments/pairing.py) against an exhaustive search on small fields: everyone paired, at
most one bye each (while anyone has had none), no avoidable rematch, the bye to the lowest-standing player who has
not had one unless that forces a rematch, players paired within their score group as far as possible, and the same
pairings for the same input."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournaments.pairing import BYE, swiss
from tests.helpers.pairings import all_pairings, bye_of, rematches


@st.composite
def fields(draw, low=2, high=9):
    """A field in standing order with points, past pairings and past byes."""
    n = draw(st.integers(low, high))
    order = [f"p{i}" for i in range(n)]
    points = dict(zip(order, sorted(draw(st.lists(st.sampled_from([0, 1, 3, 4, 6, 9]), min_size=n, max_size=n)),
                                    reverse=True)))
    possible = [frozenset(pair) for pair in itertools.combinations(order, 2)]
    met = set(draw(st.lists(st.sampled_from(possible), max_size=len(possible)))) if possible else set()
    byes = set(draw(st.lists(st.sampled_from(order), max_size=n)))
    return order, points, met, byes


@settings(max_examples=150, deadline=None)
@given(fields())
def test_no_avoidable_rematch_and_the_bye_as_low_as_it_can_go(field):
    order, points, met, byes = field
    pairs = swiss(order, points, met, byes)
    assert sorted(p for pair in pairs for p in pair if p is not BYE) == sorted(order)  # everyone, once
    eligible = [p for p in order if p not in byes] or order  # at most one bye each while anyone has had none
    every = [c for c in all_pairings(order) if len(order) % 2 == 0 or bye_of(c) in eligible]
    fewest = min(rematches(candidate, met) for candidate in every)
    assert rematches(pairs, met) == fewest
    if len(order) % 2:
        assert bye_of(pairs) in eligible
        lowest = max(order.index(bye_of(c)) for c in every if rematches(c, met) == fewest)
        assert order.index(bye_of(pairs)) == lowest


@settings(max_examples=60, deadline=None)
@given(fields(low=4, high=8))
def test_within_score_groups_as_far_as_possible(field):
    """Among pairings with the fewest rematches (and the same bye), none puts closer scores together."""
    order, points, met, byes = field
    pairs = swiss(order, points, met, byes)

    def spread(candidate):
        return sum((points[a] - points[b]) ** 2 for a, b in candidate if b is not BYE)

    fewest = rematches(pairs, met)
    rivals = [c for c in all_pairings(order) if rematches(c, met) == fewest and bye_of(c) == bye_of(pairs)]
    assert spread(pairs) == min(spread(c) for c in rivals)


@given(fields(low=2, high=12))
@settings(max_examples=40, deadline=None)
def test_the_same_field_is_paired_the_same_way(field):
    order, points, met, byes = field
    assert swiss(order, points, met, byes) == swiss(list(order), dict(points), set(met), set(byes))


def test_a_large_field_is_paired_without_rematches_from_near_neighbours():
    """Beyond 96 players only near neighbours in the standings are tried first; a field where each has met its
    nearest neighbours still gets a pairing without rematch."""
    order = [f"p{i:03d}" for i in range(200)]
    points = {p: 9 - (i // 50) * 3 for i, p in enumerate(order)}
    met = {frozenset((order[i], order[i + 1])) for i in range(199)}
    pairs = swiss(order, points, met, set())
    assert len(pairs) == 100 and rematches(pairs, met) == 0
