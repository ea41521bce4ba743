"""Kingdom TCG's tables read by the d6's face rolled (RULINGS KT2, an Audacia face included) and its Throw cards kept
out of battle whatever their effect (chapter 3.4, RULINGS KT6): each failed before rules 3."""
from __future__ import annotations

import copy
import json

from domain.kingdom_tcg.data import DATA
from domain.kingdom_tcg.moves import legal_moves
from tests.helpers.kingdom_tcg import FULL, Dice, at_stage, empty_hands, hand, place, play, rules, run, table, troop

BOARD = json.loads((DATA / "board.json").read_text())


def _to_summon(state, rng):
    """Pass every window until seat `current` must summon."""
    while True:
        seat = state["stack"]["priority"] if state["window"] else state["current"]
        moves = legal_moves(state, seat)
        if any(m["type"] == "summon" for m in moves):
            return moves
        play(state, seat, {"type": "pass"}, rng)


def test_a_summoning_d6_with_an_audacia_face_does_not_crash_the_match():
    """RULINGS KT2/KT4 and the board option's schema ("each face is a number from 0 to 20 or \\"audacia\\"", for every
    die, d6 included; "the summoning and movement tables give one value per face of d6"): a board whose d6 has an
    Audacia face is accepted, so rolling it twice (kept as 0, KT4) must leave a playable match, not a ValueError in
    legal_moves/awaiting that refuses every move forever."""
    board = copy.deepcopy(BOARD)
    board["dice"]["d6"] = ["audacia", 1, 2, 3, 4, 5]
    # first player 0; summoning roll Audacia, rolled again: Audacia (kept as 0, face 0 -> summoning_levels[0] = 1)
    state, rng = table({"board": board}, rng=Dice(0, 0, 0))
    moves = _to_summon(state, rng)
    assert moves and all(state["combatants"][m["combatant"]]["level"] <= 1 for m in moves if m["type"] == "summon")


def test_the_summoning_table_is_read_by_the_face_rolled():
    """RULINGS KT2 ("the summoning roll (a d6: levels 1, 2, 2, 3, 3, 4 by face)") and the board schema ("the summoning
    and movement tables give one value per face of d6"): with a d6 whose faces repeat a number, the face rolled picks
    the level, not the first face showing the same number."""
    board = copy.deepcopy(BOARD)
    board["dice"]["d6"] = [1, 1, 2, 2, 3, 3]  # summoning_levels stay 1, 2, 2, 3, 3, 4
    state, rng = table({"board": board}, rng=Dice(0, 1))  # seat 0 first; the d6 shows its second face: level 2
    moves = _to_summon(state, rng)
    assert max(state["combatants"][m["combatant"]]["level"] for m in moves if m["type"] == "summon") == 2


def test_a_throw_card_is_never_used_in_battle_whatever_its_effect():
    """3.4: "Cartas de Arroje ... Cada jugador puede utilizarlas solamente en su turno, y en cualquier etapa, menos
    durante la etapa de batalla." RULINGS KT6: "Throw cards follow 3.4 whatever their tab says". The rule is the
    category's: a Throw card given another effect by the cards option (e.g. +2 to its thrower's attack) is still not
    usable in the battle stage."""
    state, rng = table()
    lanza = next(c for c in state["players"][0]["deck"] if state["cards"][c]["category"] == "Throw")
    rules(state, lanza, turn="own", stages=["battle"], windows=["before:attack_roll"],
          effect={"kind": "increase", "roll": "attack", "amount": 2})
    plus = next(c for c in state["players"][0]["deck"] if state["cards"][c]["category"] == "Strategy")
    rules(state, plus, turn="own", stages=["battle"], windows=["before:attack_roll"],
          effect={"kind": "increase", "roll": "attack", "amount": 1})  # a Strategy card: it keeps the window open
    empty_hands(state)
    hand(state, 0, lanza, plus)
    attacker = place(state, troop(state, 0, 1), [3, 2])
    target = place(state, troop(state, 1, 1), [4, 2])
    at_stage(state, 0, "battle")
    run(state, rng)
    play(state, 0, {"type": "attack", "attacker": attacker, "target": target}, rng)
    assert state["stage"] == "battle" and state["window"] == {"trigger": "attack_roll", "timing": "before"}
    assert legal_moves(state, 0) == [{"type": "activate", "card": plus}, {"type": "pass"}, FULL]
