"""For a Crown over random legal playouts of 3, 4 and 5 players, checked after every event (For a Crown, the whole
rulebook): Rubies, Coins and Bandits conserved (60, 30, 25), every card in exactly one place, no seat shown another's
chest or unrevealed recruit, and the game ends after round 4 or the round a family went out, with the winner
worked out here."""
from __future__ import annotations

import random
import uuid

import pytest

from domain.for_a_crown import GAME as FOR_A_CROWN
from domain.for_a_crown.data import EVENTS, MERCENARIES
from domain.matches import event_record
from replays import verify
from replays.export import export_lines
from tests.helpers.playouts import play_out, randomly

TOTALS = {"rubies": 60, "coins": 30, "bandits": 25}


def crown_card_places(state: dict) -> list[int]:
    """Every card where it lies: the Royal Square, the shared deck, this round's reveals, the Event stack, or in the
    hand of a recruiter about to pay."""
    return (state["shared"] + state["revealed"] + state["event_stack"] + [c for s in state["stacks"] for c in s]
            + [c for d in state["decks"].values() for c in d] + [c for f in state["face_up"].values() for c in f]
            + [s["card"] for s in state["steps"] if s["kind"] == "pay"])


def check_crown_state(state: dict) -> None:
    for kind, total in TOTALS.items():
        held = sum(p[kind] for p in state["players"])
        assert held + state["reserve"][kind] == total and state["reserve"][kind] >= 0, kind
    assert sorted(crown_card_places(state)) == list(range(MERCENARIES + EVENTS))
    assert all(p["rubies"] >= 0 and p["coins"] >= 0 for p in state["players"])


def winner_of(state: dict) -> int:
    """Most Rubies (an unsold Heirloom worth 10) among the families still in; a tie to the rightmost Portrait."""
    worth = {s: p["rubies"] + (10 if p["heirloom"] == "held" else 0)
             for s, p in enumerate(state["players"]) if not p["out"]}
    best = max(worth.values())
    return next(s for s in reversed(state["gallery"]) if s is not None and worth.get(s) == best)


def check_crown_log(records: list[dict], players: int) -> None:
    """Fold the log one event at a time, checking the invariants and every seat's view after each."""
    state = FOR_A_CROWN.new_state(records[0]["payload"])
    for record in records[1:]:
        FOR_A_CROWN.evolve(state, record["type"], record["payload"])
        check_crown_state(state)
        for viewer in range(players):
            shown = FOR_A_CROWN.view(state, viewer)
            assert all(("chest" not in p or state["status"] == "finished") and "unrevealed_recruits" not in p
                       for p in shown["players"] if p["seat"] != viewer)  # the chests are opened at the end
            hidden = {c for c, seat in state["seen"].items() if seat != viewer}
            assert not hidden & {str(card) for card in cards_in(shown)}, "another seat's unrevealed recruit shown"


def cards_in(shown) -> list[int]:
    """Every card id a view names: in card dicts, and in a pending decision's `card`."""
    if isinstance(shown, dict):
        found = [shown["id"]] if "kind" in shown and "id" in shown else []
        found += [shown["card"]] if isinstance(shown.get("card"), int) else []
        return found + [c for value in shown.values() for c in cards_in(value)]
    if isinstance(shown, list):
        return [c for value in shown for c in cards_in(value)]
    return []


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_every_invariant_and_end_with_the_right_winner(players, seed):
    n = seed * 7 + players
    match = play_out("for_a_crown", players, bytes([n]) * 32, randomly(random.Random(n)), match_id=uuid.uuid4())
    state = match.state
    assert match.finished and state["phase"] == "over"
    assert state["round"] == 4 or any(p["out"] for p in state["players"])
    assert state["winners"] == [winner_of(state)]
    records = [event_record(e) for e in match.collect_events()]
    check_crown_log(records, players)
    exported = export_lines(str(match.id), "for_a_crown", records)
    checks = []
    assert verify.verify(exported, (), checks.append), checks
