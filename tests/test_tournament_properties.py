"""Whole Swiss tournaments on the pure aggregate, 6 to 64 players with random results and random drops: every player
still in is paired each round, no rematch where one can be avoided (against an exhaustive search while 12 or fewer
are left, and none at all beyond: with 5 rounds a field that large always has a way), at most one bye each, and the
same seed and results give the same pairings."""
from __future__ import annotations

import random
import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournament import Tournament
from domain.tournaments.pairing import BYE
from tests.helpers.pairings import all_pairings, bye_of, rematches

SPEC = {"name": "Property Swiss", "game": "korona", "format": "swiss", "rounds": 5, "table_size": 2, "top_cut": 0,
        "placement_points": [3, 0], "options": {}}


def run(players: int, seed: int) -> list[dict]:
    """A whole tournament with results and drops drawn from `seed`; every round's pairing."""
    chooser = random.Random(seed)
    tournament = Tournament.create(uuid.UUID(int=seed + 1), SPEC, "organiser-hash", bytes([seed % 256]) * 32)
    for i in range(players):
        tournament.register(f"P{i}", None, f"hash-{i}")
    for _ in range(SPEC["rounds"]):
        active = [p for p, player in tournament.players.items() if not player["dropped"]]
        if len(active) > 4 and chooser.random() < 0.3:
            tournament.drop(chooser.choice(active))
        pairs, draw = tournament.pairing()
        paired = tournament.pair(pairs, draw, [str(uuid.uuid4()) for _ in pairs])
        for table in paired["tables"]:
            a, b = table["players"]
            placements = chooser.choice([[[a], [b]], [[b], [a]], [[a, b]]])
            tournament.record_result(paired["round"], table["table"], placements, "organiser", "random")
    return tournament.rounds


@settings(max_examples=25, deadline=None)
@given(st.integers(6, 64), st.integers(0, 10_000))
def test_random_tournaments_pair_everyone_without_rematch_and_one_bye_each(players, seed):
    rounds = run(players, seed)
    met, byes = set(), []
    for round_ in rounds:
        seated = [p for t in round_["tables"] for p in t["players"]] + round_["byes"]
        assert len(seated) == len(set(seated)) and len(round_["byes"]) <= 1
        assert not set(round_["byes"]) & set(byes)
        pairs = [tuple(t["players"]) for t in round_["tables"]] + [(p, BYE) for p in round_["byes"]]
        if len(seated) <= 12:
            eligible = [p for p in seated if p not in byes] or seated
            fewest = min(rematches(c, met) for c in all_pairings(sorted(seated))
                         if len(seated) % 2 == 0 or bye_of(c) in eligible)
            assert rematches(pairs, met) == fewest
        else:
            assert rematches(pairs, met) == 0
        byes += round_["byes"]
        met |= {frozenset(t["players"]) for t in round_["tables"]}
    assert all(BYE not in t["players"] for r in rounds for t in r["tables"])


@settings(max_examples=10, deadline=None)
@given(st.integers(6, 40), st.integers(0, 10_000))
def test_the_same_seed_and_results_pair_the_same_way(players, seed):
    def pairings(rounds):
        return [([t["players"] for t in r["tables"]], r["byes"], r["random"]) for r in rounds]

    assert pairings(run(players, seed)) == pairings(run(players, seed))
