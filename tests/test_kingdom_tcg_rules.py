"""Kingdom TCG's chapter 3 (the strategy deck, Spanish), one test per sentence, quoted with an English reading:
3.1 (shuffle, used pile, use from the hand, windows, names, hand limit, empty deck, cards seen by mistake),
3.1.1 (resolution order), 3.1.2 (modifiers), 3.2 (Royalty), 3.3 (Strategy tabs), 3.4 (Throw cards). The decklist
limits of 3.1 are in test_kingdom_tcg_decklists.py."""
from __future__ import annotations

import pytest

from domain.errors import IllegalMove
from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.kingdom_tcg.moves import activations, legal_moves
from tests.helpers.kingdom_tcg import (
    FULL,
    Dice,
    at_stage,
    empty_hands,
    hand,
    onward,
    place,
    play,
    rules,
    run,
    strategy,
    table,
    throw_table,
    troop,
    types,
)

ATTACK = {"turn": "own", "stages": ["battle"], "windows": ["before:attack_roll"]}
DEFENCE = {"turn": "enemy", "stages": ["battle"], "windows": ["before:attack_roll", "before:defence_roll"]}


def increase(roll: str, amount: int) -> dict:
    return {**(ATTACK if roll == "attack" else DEFENCE), "effect": {"kind": "increase", "roll": roll, "amount": amount}}


def names(state: dict, seat: int) -> list[str]:
    return [state["cards"][c]["name"] for c in state["players"][seat]["deck"]]


def battle(state: dict, rng, hands: dict[int, list[int]], attack_die=None, defence_die=None):
    """Seat 0's level-1 troop attacks seat 1's, next to it, in seat 0's battle stage, with these hands."""
    empty_hands(state)
    for seat, cards in hands.items():
        hand(state, seat, *cards)
    attacker = place(state, troop(state, 0, 1), [3, 2])
    target = place(state, troop(state, 1, 1), [4, 2])
    if attack_die:
        state["board"]["dice"]["level1_attack"] = attack_die
    if defence_die:
        state["board"]["dice"]["level1_defence"] = defence_die
    at_stage(state, 0, "battle")
    run(state, rng)
    assert legal_moves(state, 0)[0] == {"type": "attack", "attacker": attacker, "target": target}
    return play(state, 0, {"type": "attack", "attacker": attacker, "target": target}, rng), attacker, target


def test_the_strategy_deck_is_shuffled_before_every_match():
    """3.1: "El mazo de estrategia se colocará boca abajo y debe mezclarse siempre antes de cada partida." Each deck
    is a seeded shuffle recorded in its event: the same seed gives the same order, another seed another."""
    state, _ = table()
    again, _ = table()
    assert [p["deck"] + p["hand"] for p in state["players"]] == [p["deck"] + p["hand"] for p in again["players"]]
    from domain import fair
    other, _ = table(rng=fair.Generator(b"another-seed-for-kingdom-tcg-001", "m", ["a", "b"]))
    assert [p["hand"] for p in state["players"]] != [p["hand"] for p in other["players"]]
    shown = KINGDOM_TCG.redact("StrategyDeckShuffled", {"seat": 0, "random": [
        {"kind": "shuffle", "input": [1, 2], "result": [2, 1], "nonce": 0}]}, 1)
    assert shown["random"][0]["result"] is None  # the order stays hidden


def test_a_used_card_goes_face_up_beside_the_deck_and_is_never_used_again():
    """3.1: "Las cartas del mazo de estrategia utilizadas deberán ubicarse en un lugar separado, al costado del mazo de
    estrategia boca arriba, y no podrán ser utilizadas nuevamente durante la partida." """
    state, rng = table()
    plus = rules(state, strategy(state, 0, 1)[0], **increase("attack", 2))
    battle(state, rng, {0: [plus]})
    play(state, 0, {"type": "activate", "card": plus}, rng)
    assert plus in state["players"][0]["used"] and plus not in state["players"][0]["hand"]
    view = KINGDOM_TCG.view(state, 1)
    assert plus in [c["id"] for c in view["players"][0]["used"]]  # face up: the other seat sees it
    assert all(m.get("card") != plus for seat in (0, 1) for m in legal_moves(state, seat))


def test_cards_are_used_from_the_hand_only_when_tab_turn_stage_and_window_fit():
    """3.1: "deben utilizarse directamente desde la mano ... cuando las condiciones ... se cumplan, y el jugador ...
    se encuentre en el turno y etapa/s del turno indicadas en la pestaña"; 3.3: "En cada carta se indica si pueden ser
    utilizadas en tu turno, en el turno enemigo o en ambos turnos, y también en qué etapas". legal-moves offers exactly
    the usable cards, to both players."""
    state, rng = table()
    a, b, c, d = strategy(state, 0, 4)
    own = rules(state, a, **increase("attack", 1))
    enemy = rules(state, b, **increase("defence", 1))  # for the enemy's turn: not now
    movement = rules(state, c, **{**increase("attack", 1), "stages": ["movement"]})  # another stage
    later = rules(state, d, **{**increase("attack", 1), "windows": ["after:defence_roll"]})  # another window
    e, f = strategy(state, 1, 2)
    theirs = rules(state, e, **increase("defence", 2))
    their_own = rules(state, f, **increase("attack", 2))  # seat 1's own turn only
    battle(state, rng, {0: [own, enemy, movement, later], 1: [theirs, their_own]})
    assert state["window"] == {"trigger": "attack_roll", "timing": "before"}
    assert legal_moves(state, 0) == [{"type": "activate", "card": own}, {"type": "pass"}, FULL]
    assert legal_moves(state, 1) == []  # not its decision yet
    play(state, 0, {"type": "pass"}, rng)
    assert legal_moves(state, 1) == [{"type": "activate", "card": theirs}, {"type": "pass"}, FULL]


def test_the_windows_are_the_listed_moments_before_and_after():
    """3.1: "La activación puede realizarse antes o después de cualquiera de los siguientes eventos del turno": a card
    for "after the attack roll" is offered once the roll is made, not before."""
    state, rng = table()
    after = rules(state, strategy(state, 0, 1)[0], **{**increase("attack", 1), "windows": ["after:attack_roll"]})
    events, _, _ = battle(state, rng, {0: [after]})
    assert state["window"] == {"trigger": "attack_roll", "timing": "after"}
    assert "DiceRolled" in types(events) and legal_moves(state, 0)[0] == {"type": "activate", "card": after}


def test_all_the_cards_a_player_uses_in_a_turn_have_different_names():
    """3.1: "todas las cartas que utilice cada jugador por turno deben tener obligatoriamente nombres distintos." """
    state, rng = table()
    name = next(n for n in names(state, 0) if names(state, 0).count(n) == 2)
    first, second = [c for c in state["players"][0]["deck"] if state["cards"][c]["name"] == name]
    third = next(c for c in strategy(state, 0, 3) if state["cards"][c]["name"] != name)
    for c in (first, second, third):
        rules(state, c, **increase("attack", 1))
    battle(state, rng, {0: [first, second, third]})
    play(state, 0, {"type": "activate", "card": first}, rng)
    assert legal_moves(state, 0) == [{"type": "activate", "card": third}, {"type": "pass"}, FULL]
    with pytest.raises(IllegalMove, match=f"already used a card named {name}"):
        KINGDOM_TCG.decide(state, 0, {"type": "activate", "card": second}, rng)
    assert state["players"][0]["names_used"] == [name]
    while state["turn"] == 1:
        seat = KINGDOM_TCG.awaiting(state)
        play(state, seat, onward(legal_moves(state, seat)), rng)
    assert state["players"][0]["names_used"] == []  # a new turn: the name may be used again


def test_at_most_seven_cards_at_the_end_of_a_turn_the_player_choosing_the_discards():
    """3.1: "Se puede tener un máximo de siete (7) cartas ... en la mano al final de cada turno. Si al finalizar el
    turno, el jugador posee más ..., deberá seleccionar y descartar tantas cartas ... como sean necesarias"."""
    state, rng = table()
    nine = state["players"][0]["deck"][:9]
    hand(state, 0, *nine)
    hand(state, 1)
    at_stage(state, 0, "battle")
    run(state, rng)  # nobody to attack: the battle is skipped, the turn is ending
    assert legal_moves(state, 0) == [*({"type": "discard", "card": c} for c in nine), FULL]
    play(state, 0, {"type": "discard", "card": nine[4]}, rng)
    assert state["turn"] == 1 and len(legal_moves(state, 0)) == 8 + 1
    events = play(state, 0, {"type": "discard", "card": nine[0]}, rng)
    assert "TurnEnded" in types(events) and len(state["players"][0]["hand"]) == 7
    assert {nine[4], nine[0]} <= set(state["players"][0]["used"])


def test_an_empty_strategy_deck_stays_empty_to_the_end():
    """3.1: "Si el mazo de estrategia se queda sin cartas, el jugador deberá continuar la partida con normalidad. El
    mazo de estrategia permanecerá sin cartas hasta el final de la partida." """
    state, rng = table()
    player = state["players"][0]
    player["used"] += player["deck"]
    player["deck"] = []
    at_stage(state, 0, "summoning")
    state["steps"].insert(0, {"trigger": "stage_start", "at": "before", "stage": "summoning"})
    events = run(state, rng)
    drawn = [p for kind, p in events if kind == "CardsDrawn"]
    assert drawn == [{"seat": 0, "count": 0, "cards": []}] and player["deck"] == []
    while state["status"] == "active" and state["turn"] < 6:
        seat = KINGDOM_TCG.awaiting(state)
        play(state, seat, onward(legal_moves(state, seat)), rng)
    assert player["deck"] == []  # never reshuffled from the used pile


def test_the_last_card_activated_resolves_first():
    """3.1.1: "Siempre la última carta del mazo de estrategia activada será la primera en resolver su acción"; "su
    carta pasará a ocupar el primer lugar en la pila de resolución, y su efecto se resolverá antes que el de la tuya."
    A activates, B responds, A answers: A's answer resolves, then B's response, then A's card."""
    state, rng = table()
    a1, a2 = strategy(state, 0, 2)
    rules(state, a1, **increase("attack", 1))
    rules(state, a2, **increase("attack", 3))
    b1 = rules(state, strategy(state, 1, 1)[0], **increase("defence", 2))
    battle(state, rng, {0: [a1, a2], 1: [b1]})
    play(state, 0, {"type": "activate", "card": a1}, rng)
    assert state["stack"]["priority"] == 1  # the opponent is asked whether to respond
    play(state, 1, {"type": "activate", "card": b1}, rng)
    events = play(state, 0, {"type": "activate", "card": a2}, rng)
    assert [p["card"] for kind, p in events if kind == "CardResolved"] == [a2, b1, a1]
    assert KINGDOM_TCG.view(state, "referee")["stack"] == []


def test_a_card_alone_resolves_at_once():
    """3.1.1: "Si solo uno de los jugadores activa una carta ... y no se produce ninguna respuesta, su efecto será
    activado y resuelto de forma inmediata"."""
    state, rng = table()
    plus = rules(state, strategy(state, 0, 1)[0], **increase("attack", 2))
    battle(state, rng, {0: [plus]})
    events = play(state, 0, {"type": "activate", "card": plus}, rng)
    assert types(events)[:3] == ["CardActivated", "PriorityPassed", "PriorityPassed"]
    assert types(events)[3] == "CardResolved" and dict(events)["CombatResolved"]["attack"]["increase"] == 2


def test_a_card_whose_action_was_made_impossible_is_left_without_effect():
    """3.1.1: "En caso de resolver un efecto anterior que impide que la acción actual pueda cumplirse, la carta actual
    quedará sin efecto y se pasará a la siguiente." B's cancel resolves first; A's card is then without effect."""
    state, rng = table()
    a = rules(state, strategy(state, 0, 1)[0], **increase("attack", 4))
    cancel = rules(state, strategy(state, 1, 1)[0], turn="both", stages=["battle"], windows=["before:attack_roll"],
                   effect={"kind": "cancel"})
    battle(state, rng, {0: [a], 1: [cancel]})
    play(state, 0, {"type": "activate", "card": a}, rng)
    events = play(state, 1, {"type": "activate", "card": cancel}, rng)
    resolved = [(kind, p["card"]) for kind, p in events if kind in ("CardResolved", "CardWithoutEffect")]
    assert resolved == [("CardResolved", cancel), ("CardWithoutEffect", a)]
    assert dict(events)["CombatResolved"]["attack"]["increase"] == 0 and a in state["players"][0]["used"]


def test_any_number_of_responses_within_the_names_rule():
    """3.1.1: "Podrán utilizarse a modo de respuesta tantas cartas ... como se deseen y sean posibles teniendo en
    cuenta los límites establecidos por turno." """
    state, rng = table()
    mine = strategy(state, 0, 3)
    for amount, c in enumerate(mine, 1):
        rules(state, c, **increase("attack", amount))
    battle(state, rng, {0: mine})
    for c in mine[:2]:
        play(state, 0, {"type": "activate", "card": c}, rng)
    events = play(state, 0, {"type": "activate", "card": mine[2]}, rng)
    assert [p["card"] for kind, p in events if kind == "CardResolved"] == list(reversed(mine))


def test_of_two_increases_only_the_highest_applies():
    """3.1.2, example: "Una carta aplica un modificador de ataque +2 y otra carta un modificador de ataque +4. El
    combatiente quedará solamente con el modificador de aumento +4." """
    state, rng = table()
    plus2, plus4 = strategy(state, 0, 2)
    rules(state, plus2, **increase("attack", 2))
    rules(state, plus4, **increase("attack", 4))
    battle(state, rng, {0: [plus2, plus4]}, attack_die=[1] * 6, defence_die=[0] * 6)
    play(state, 0, {"type": "activate", "card": plus2}, rng)
    events = play(state, 0, {"type": "activate", "card": plus4}, rng)
    combat = dict(events)["CombatResolved"]
    assert combat["attack"] == {"combatant": combat["attack"]["combatant"], "raw": 1, "increase": 4, "reduced": False,
                                "result": 5}


def test_a_reduction_halves_the_roll_with_its_increase_rounded_down():
    """3.1.2, example: "si se obtiene 6 en una tirada con un modificador de aumento +1, el valor reducido será 3.
    (6 + 1) / 2 = 3.5 = 3" """
    state, rng = table()
    plus1 = rules(state, strategy(state, 0, 1)[0], **increase("attack", 1))
    halve = rules(state, strategy(state, 1, 1)[0], turn="enemy", stages=["battle"], windows=["after:attack_roll"],
                  effect={"kind": "reduction", "roll": "attack"})
    battle(state, rng, {0: [plus1], 1: [halve]}, attack_die=[6] * 6, defence_die=[3] * 6)
    play(state, 0, {"type": "activate", "card": plus1}, rng)
    assert state["window"] == {"trigger": "attack_roll", "timing": "after"} and KINGDOM_TCG.awaiting(state) == 1
    events = play(state, 1, {"type": "activate", "card": halve}, rng)
    combat = dict(events)["CombatResolved"]
    assert (combat["attack"]["raw"], combat["attack"]["increase"], combat["attack"]["result"]) == (6, 1, 3)
    assert combat["defeated"] is False  # 3 does not beat a defence of 3


def test_one_reduction_per_roll():
    """3.1.2: "Puede aplicarse un solo modificador de reducción al ataque y a la defensa de cada combatiente." A second
    reduction on the same roll is left without effect."""
    state, rng = table()
    first, second = strategy(state, 1, 2)
    for c in (first, second):
        rules(state, c, turn="enemy", stages=["battle"], windows=["after:attack_roll"],
              effect={"kind": "reduction", "roll": "attack"})
    battle(state, rng, {1: [first, second]}, attack_die=[5] * 6)
    play(state, 1, {"type": "activate", "card": first}, rng)
    events = play(state, 1, {"type": "activate", "card": second}, rng)
    fizzled = [p for kind, p in events if kind == "CardWithoutEffect"]
    assert [p["card"] for p in fizzled] == [first] and "one reduction" in fizzled[0]["why"]
    assert dict(events)["CombatResolved"]["attack"]["result"] == 2


def test_royalty_only_while_its_player_controls_the_coronado():
    """3.2: "Solo pueden utilizarse cuando controles al coronado especificado en la carta." """
    state, rng = table()
    royal = next(c for c in state["players"][0]["deck"] if state["cards"][c]["category"] == "Royalty")
    rules(state, royal, **increase("attack", 2))
    battle(state, rng, {0: [royal]})
    assert {"type": "activate", "card": royal} in legal_moves(state, 0)
    state["combatants"][state["players"][0]["coronado"]]["at"] = None  # the Coronado is no longer controlled
    assert {"type": "activate", "card": royal} not in legal_moves(state, 0)


def test_a_throw_needs_a_troop_of_the_minimum_level_and_hits_its_cross_at_exactly_the_distance():
    """3.4: "seleccionar una de sus tropas ... con un nivel igual o mayor al indicado en la carta"; "dentro de la cruz
    de la tropa seleccionada"; "una carta de arroje con distancia 2, no puede afectar a una tropa que se encuentre a 1
    espacio de distancia." """
    state, rng, throw, who = throw_table()
    run(state, rng)
    throws = [m for m in legal_moves(state, 0) if m["type"] == "activate"]
    assert throws == [{"type": "activate", "card": throw, "thrower": who["thrower"], "target": who["far"]}]
    state, _, throw, who = throw_table(level=3)  # only a level-2 troop on the battlefield
    state.update(stage="movement")
    assert activations(state, 0, "after:stage_start") == []


def test_a_throw_is_only_for_its_owners_turn_and_never_in_battle():
    """3.4: "Cada jugador puede utilizarlas solamente en su turno, y en cualquier etapa, menos durante la etapa de
    batalla." Even a card whose tab said otherwise is refused by the chapter."""
    state, _, throw, who = throw_table()
    rules(state, throw, turn="both", stages=["summoning", "movement", "battle"], windows=["after:stage_start"])
    aimed = {"type": "activate", "card": throw, "thrower": who["thrower"], "target": who["far"]}
    for current, stage, offered in ((0, "movement", [aimed]), (0, "summoning", [aimed]), (0, "battle", []),
                                    (1, "movement", [])):
        state.update(current=current, stage=stage)
        assert activations(state, 0, "after:stage_start") == offered, (current, stage)


def test_a_throw_that_kills_leaves_the_turn_going_on():
    """3.4: "Se realizará la tirada de ataque con el dado indicado en la carta de arroje, y la tropa enemiga deberá
    realizar una tirada de defensa"; "Si la tropa enemiga no supera su tirada de defensa, será derrotada, enviada al
    foso y el turno continuará con total normalidad"; "Las muertes provocadas por estas cartas no finalizan el turno." """
    state, _, throw, who = throw_table()
    dice = Dice(4, 0)  # heavy die face 4 (a 4) against a level-1 defence face 0 (a 0)
    run(state, dice)
    events = play(state, 0, {"type": "activate", "card": throw, "thrower": who["thrower"], "target": who["far"]},
                  dice)
    rolled = [(p["roll"], p["value"]) for kind, p in events if kind == "DiceRolled"][:2]
    assert rolled == [("attack", 4), ("defence", 0)]
    assert dict(events)["CombatantDefeated"]["combatant"] == who["far"] and who["far"] in state["players"][1]["pit"]
    assert state["turn"] == 1 and state["status"] == "active" and "TurnEnded" not in types(events)
    assert state["current"] == 0 and state["stage"] == "movement"
