"""Kingdom TCG over random legal playouts of whole matches, checked after every event (chapter 3): each seat's 30
strategy cards in exactly one of deck, hand, used pile and stack (the open window's, or one a card's own moments
interrupted); no hand above 7 when a turn ends; no name used twice by one player in one turn; every combatant in one
place; every match ends, and its export verifies; and every window of a Throw's and a card draw's moments is reached."""
from __future__ import annotations

import random
import uuid
from collections import Counter

import pytest

from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.match import Match
from domain.matches import event_record
from replays import verify
from replays.export import export_lines
from tests.helpers.kingdom_tcg import FULL
from tests.helpers.playouts import play_out


def kingdom_playout(seed: int, full_control: tuple[int, ...] | None = None) -> Match:
    """A match of random legal moves. With `full_control`, those seats take full control at their first decision and
    every seat keeps its setting (a player choosing once), else the setting is one more random move."""
    chooser = random.Random(seed)

    def pick(match, seat, moves):
        if full_control is None:
            return chooser.choice(moves)
        if seat in full_control and FULL in moves:
            return FULL
        return chooser.choice([move for move in moves if move["type"] != "control"])

    return play_out("kingdom_tcg", 2, bytes([seed]) * 32, pick, names=["Ana", "Bo"], match_id=uuid.uuid4())


def check_kingdom_state(state: dict) -> None:
    stacks = [state["stack"], *(frame["stack"] for frame in state["suspended"])]  # the open window's, and beneath
    on_stack = [item["card"] for stack in stacks for item in stack["items"]]
    for seat, player in enumerate(state["players"]):
        cards = player["deck"] + player["hand"] + player["used"] + [c for c in on_stack
                                                                     if state["cards"][c]["owner"] == seat]
        assert sorted(cards) == [c["id"] for c in state["cards"] if c["owner"] == seat] and len(cards) == 30
        waiting = [player["coronado"]] if state["combatants"][player["coronado"]]["at"] is None and player[
            "coronado"] not in player["pit"] else []  # before the Coronados take their places
        combatants = player["reserve"] + player["pit"] + waiting + [c["id"] for c in state["combatants"]
                                                                    if c["owner"] == seat and c["at"] is not None]
        assert sorted(combatants) == [c["id"] for c in state["combatants"] if c["owner"] == seat]
    spaces = [tuple(c["at"]) for c in state["combatants"] if c["at"] is not None]
    assert len(spaces) == len(set(spaces))


def check_kingdom_log(records: list[dict]) -> None:
    state = KINGDOM_TCG.new_state(records[0]["payload"])
    used_this_turn = {0: [], 1: []}
    for record in records[1:]:
        kind, payload = record["type"], record["payload"]
        KINGDOM_TCG.evolve(state, kind, payload)
        check_kingdom_state(state)
        if kind == "CardActivated":
            assert payload["name"] not in used_this_turn[payload["seat"]], "a name used twice in one turn"
            used_this_turn[payload["seat"]].append(payload["name"])
        if kind == "TurnEnded":
            assert all(len(p["hand"]) <= 7 for p in state["players"])
            used_this_turn = {0: [], 1: []}
        for viewer in (0, 1):
            shown = KINGDOM_TCG.view(state, viewer)["players"][1 - viewer]
            assert "hand" not in shown and "deck" not in shown and "reserve" not in shown


@pytest.mark.parametrize("seed", range(8))
def test_random_playouts_keep_every_invariant_and_end(seed):
    match = kingdom_playout(seed)
    assert match.finished and match.state["result"]["reason"] in ("coronado", "turn_limit")
    records = [event_record(e) for e in match.collect_events()]
    check_kingdom_log(records)
    exported = export_lines(str(match.id), "kingdom_tcg", records)
    checks = []
    assert verify.verify(exported, (), checks.append), checks


# (moment, window) of every window a resolving card's own moments open (3.1's list, 3.4; RULINGS KT3)
CARD_MOMENTS = {("throw", f"{timing}:{trigger}") for trigger in ("attack_roll", "defence_roll", "defeat")
                for timing in ("before", "after")} | {("draw", "before:draw"), ("draw", "after:draw")}


def card_windows(records: list[dict]) -> Counter:
    """The windows opened inside a Throw's or a card draw's own moments, counted by (moment, window)."""
    counted, moments = Counter(), []
    for record in records:
        kind, payload = record["type"], record["payload"]
        if kind == "WindowSuspended":
            moments.append(payload["moment"])
        elif kind == "WindowResumed":
            moments.pop()
        elif kind == "WindowOpened" and moments:
            counted[moments[-1], f"{payload['timing']}:{payload['trigger']}"] += 1
    return counted


def test_random_play_reaches_every_window_of_a_throw_and_of_a_card_draw():
    """3.1 lists the attack roll, the defence roll, a defeat and a strategy draw among the moments a card may be used
    before or after, whatever caused them: over random matches where either seat, both or none keep full control,
    each window of a Throw's rolls and defeat and of a card's draw opens, and every card is still conserved."""
    counted = Counter()
    for seed, seats in enumerate([(), (0,), (1,), (0, 1)] * 2):
        match = kingdom_playout(seed, full_control=seats)
        records = [event_record(e) for e in match.collect_events()]
        check_kingdom_log(records)
        counted += card_windows(records)
    assert set(counted) == CARD_MOMENTS, counted
    print("windows of a card's own moments in 8 random matches:", dict(sorted(counted.items())))
