"""Kingdom TCG over random legal playouts of whole matches, checked after every event (chapter 3): each seat's 30
strategy cards in exactly one of deck, hand, used pile and stack; no hand above 7 when a turn ends; no name used twice
by one player in one turn; every combatant in one place; every match ends, and its export verifies."""
from __future__ import annotations

import random
import uuid

import pytest

from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.match import Match
from domain.matches import event_record
from replays import verify
from replays.export import export_lines


def play_out(seed: int) -> Match:
    chooser = random.Random(seed)
    match = Match.create(uuid.uuid4(), "kingdom_tcg", ["Ana", "Bo"], ["a", "b"], {"referee": "", "seats": []},
                         bytes([seed]) * 32)
    match.start()
    while (seat := match.game.awaiting(match.state)) is not None:
        assert match.game.legal_moves(match.state, 1 - seat) == []
        match.play(seat, chooser.choice(match.game.legal_moves(match.state, seat)))
    return match


def check(state: dict) -> None:
    on_stack = [item["card"] for item in state["stack"]["items"]]
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


def check_every_event(records: list[dict]) -> None:
    state = KINGDOM_TCG.new_state(records[0]["payload"])
    used_this_turn = {0: [], 1: []}
    for record in records[1:]:
        kind, payload = record["type"], record["payload"]
        KINGDOM_TCG.evolve(state, kind, payload)
        check(state)
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
    match = play_out(seed)
    assert match.finished and match.state["result"]["reason"] in ("coronado", "turn_limit")
    records = [event_record(e) for e in match.collect_events()]
    check_every_event(records)
    exported = export_lines(str(match.id), "kingdom_tcg", records)
    checks = []
    assert verify.verify(exported, (), checks.append), checks
