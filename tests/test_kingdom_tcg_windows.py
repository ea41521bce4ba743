"""Kingdom TCG: a window before and after every moment chapter 3.1 lists, whatever caused it. A Throw card's attack
roll, defence roll and defeat (3.4) and a draw made by a card's effect have theirs; modifiers apply to a Throw's rolls
(3.1.2); a seat in full control is asked at every window while it holds a card (RULINGS KT3, KT5)."""
from __future__ import annotations

from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.kingdom_tcg.moves import legal_moves
from tests.helpers.kingdom_tcg import FULL, Dice, hand, play, rules, run, strategy, throw_table, types

PASS = {"type": "pass"}
DRAW = {"kind": "draw", "count": 1}


def thrown(throw: int, who: dict) -> dict:
    return {"type": "activate", "card": throw, "thrower": who["thrower"], "target": who["far"]}


def passing(state: dict, rng, seat: int) -> list[tuple[str, dict]]:
    """The seat passes at every window it is asked at until another decision is pending; the events, in order."""
    events = []
    while KINGDOM_TCG.awaiting(state) == seat and state["window"]:
        events += play(state, seat, PASS, rng)
    return events


def windows(events) -> list[str]:
    return [f"{p['timing']}:{p['trigger']}" for kind, p in events if kind == "WindowOpened"]


def test_a_card_usable_after_a_defeat_is_offered_for_the_troop_a_throw_defeats():
    """3.1: a card may be used "antes o después de cualquiera de los siguientes eventos del turno", among them
    "Derrota de una tropa o coronado (propio o enemigo)"; 3.4: the Throw's target that "no supera su tirada de defensa,
    será derrotada". The defeated troop's owner is offered its after-defeat card, whose draw then has its own windows,
    and the turn goes on."""
    state, _, throw, who = throw_table()
    after = rules(state, strategy(state, 1, 1)[0], turn="enemy", stages=["movement"], windows=["after:defeat"],
                  effect=DRAW)
    hand(state, 1, after)
    dice = Dice(4, 0)  # the heavy die's 4 against a level-1 defence of 0
    run(state, dice)
    events = play(state, 0, thrown(throw, who), dice)
    assert types(events)[-4:] == ["CombatResolved", "CombatantDefeated", "WindowOpened", "PriorityPassed"]
    assert who["far"] in state["players"][1]["pit"] and state["window"] == {"trigger": "defeat", "timing": "after"}
    assert legal_moves(state, 1) == [{"type": "activate", "card": after}, PASS, FULL]
    events = play(state, 1, {"type": "activate", "card": after}, dice)
    assert ["CardResolved", "WindowSuspended", "CardsDrawn"] == [t for t in types(events) if t in (
        "CardResolved", "WindowSuspended", "CardsDrawn")][:3]
    assert after in state["players"][1]["used"] and len(state["players"][1]["hand"]) == 1
    assert state["turn"] == 1 and state["status"] == "active" and state["suspended"] == []


def test_windows_open_before_and_after_a_throws_rolls_and_defeat_and_around_a_draw_caused_by_a_card():
    """3.1 lists "Tirada de ataque (propia o enemiga)", "Tirada de defensa (propia o enemiga)", "Derrota de una tropa"
    and "Robo de cartas del mazo de estrategia"; 3.4: a Throw card makes "la tirada de ataque" and its target "una
    tirada de defensa". With the other seat holding a card in full control, each of those moments opens its window
    before and after, in order, inside the Throw's resolution and inside a draw card's."""
    state, _, throw, who = throw_table()
    card = strategy(state, 1, 1)[0]
    hand(state, 1, card)
    state["players"][1]["full_control"] = True
    dice = Dice(4, 0)
    run(state, dice)
    passing(state, dice, 1)  # before the movement stage starts: seat 1, in full control, is asked first
    events = play(state, 0, thrown(throw, who), dice)
    events += passing(state, dice, 1)
    inside = events[types(events).index("WindowSuspended"):types(events).index("WindowResumed")]
    assert windows(inside) == ["before:attack_roll", "after:attack_roll", "before:defence_roll", "after:defence_roll",
                               "before:defeat", "after:defeat"]
    assert [p["roll"] for kind, p in inside if kind == "DiceRolled"] == ["attack", "defence"]

    state, rng, draw_card, _ = throw_table()
    rules(state, draw_card, turn="own", stages=["movement"], windows=["after:stage_start"], effect=DRAW, level=1)
    hand(state, 1, card)
    state["players"][1]["full_control"] = True
    run(state, rng)
    passing(state, rng, 1)
    events = play(state, 0, {"type": "activate", "card": draw_card}, rng)
    events += passing(state, rng, 1)
    inside = events[types(events).index("WindowSuspended"):types(events).index("WindowResumed")]
    assert windows(inside) == ["before:draw", "after:draw"] and "CardsDrawn" in types(inside)
    assert state["window"] is None and state["suspended"] == []  # the window the card interrupted closed after


def test_a_defence_increase_is_offered_to_a_throws_target_and_changes_the_outcome():
    """3.1.2: "Algunas cartas del mazo de estrategia modifican los valores de las tirada de ataque y/o tirada de
    defensa de un combatiente"; 3.4: the Throw's target "deberá realizar una tirada de defensa". A +4 on the target's
    defence is offered before its roll, and turns a defeat (4 against 0) into a hold (4 against 4: a tie holds)."""
    outcomes = {}
    for use in (False, True):
        state, _, throw, who = throw_table()
        shield = rules(state, strategy(state, 1, 1)[0], turn="enemy", stages=["movement"],
                       windows=["before:defence_roll"], effect={"kind": "increase", "roll": "defence", "amount": 4})
        hand(state, 1, shield)
        dice = Dice(4, 0)
        run(state, dice)
        play(state, 0, thrown(throw, who), dice)
        assert state["window"] == {"trigger": "defence_roll", "timing": "before"}
        assert legal_moves(state, 1) == [{"type": "activate", "card": shield}, PASS, FULL]
        events = play(state, 1, {"type": "activate", "card": shield} if use else PASS, dice)
        combat = dict(events)["CombatResolved"]
        outcomes[use] = (combat["defence"]["result"], combat["defeated"], state["combatants"][who["far"]]["at"])
    assert outcomes[False] == (0, True, None)
    assert outcomes[True] == (4, False, [2, 4])


def test_a_seat_in_full_control_is_asked_at_every_window_and_passes_by_its_own_move():
    """3.1's list of moments, each a window; RULINGS KT3: a seat that chose full control (a move) is asked at every
    window while it holds a card, usable or not, so that the log's shape tells nothing of its hand; an empty hand, which
    everyone sees, still passes at once."""
    state, rng, _, _ = throw_table()
    unusable = rules(state, strategy(state, 1, 1)[0], turn="own", stages=["battle"], windows=["before:attack_roll"])
    hand(state, 1, unusable)
    hand(state, 0)
    state["players"][1]["full_control"] = True  # chosen by its own move earlier, as seat 0 chooses it below
    events, asked, chosen = run(state, rng), 0, []
    opened = windows(events)
    while state["turn"] == 1:
        seat = KINGDOM_TCG.awaiting(state)
        if state["window"]:
            assert seat == 1 and legal_moves(state, 1) == [PASS, {"type": "control", "full": False}]
            asked += 1
            events = play(state, 1, PASS, rng)
            assert events.pop(0) == ("PriorityPassed", {"seat": 1})
        elif not chosen:
            events = chosen = play(state, 0, FULL, rng)
            assert events == [("ControlSet", {"seat": 0, "full": True})]  # with an empty hand it is never asked
        else:
            moves = legal_moves(state, 0)
            events = play(state, 0, {"type": "skip"} if {"type": "skip"} in moves else moves[0], rng)
        opened += windows(events)
        assert all(p["seat"] == 0 for kind, p in events if kind == "PriorityPassed")  # seat 1 is never passed for
    assert state["window"] and KINGDOM_TCG.awaiting(state) == 1  # the next turn's first window, asked too
    assert asked + 1 == len(opened) >= 10 and state["players"][0]["full_control"]
    assert {"before:stage_start", "after:stage_start", "before:move", "after:move", "before:designation",
            "after:designation"} <= set(opened)
