"""Crusader Kingdoms, the edges of rules the other tests cite only on their plain path: the card bonus in the 1- and
2-player games (8.2), the automated Muslims' answer and target (8.3), an attack on the ally (4.1.1), the victory
points (8.5) and turning two castles in one defence (4.1.4). Each test quotes its sentence of
the Crusader Kingdoms rulebook (Spanish)."""
from __future__ import annotations

import pytest

from domain.crusader_kingdoms import decide
from domain.crusader_kingdoms.moves import awaiting, legal_moves
from domain.crusader_kingdoms.state import TURNS, adjacent, humans, owned
from domain.errors import IllegalMove
from tests.helpers.crusader import (
    A_ALEPPO,
    A_SHAIZAR,
    ALEPPO,
    ANTIOCH,
    C_ANTIOCH,
    C_LATAKIA,
    C_MARAT,
    Scripted,
    attack_with,
    cards_of,
    empty_hands,
    named,
    pass_all,
    play,
    set_area,
    set_hand,
    set_round,
    table,
    troops,
    types,
)

A_HAMA = 7  # on the "Saladin and the 2nd Crusade" map, next to Shaizar and Aleppo
COOP_GAMES = pytest.mark.parametrize("players", [1, 2])
# in the 1- and 2-player games, the first crusader's start area and a Muslim area bordering it
HOME = {1: 13, 2: 5}
BORDER = {1: 14, 2: 4}


def muslim_army_round(state, rng):
    """The Muslims, with a Troop 2 army on the table, reveal another Troop 2 in the round after crusader 0 discards
    its only card."""
    muslims = len(state["players"])
    army, revealed = troops(state, "muslim", 2, 2)
    empty_hands(state)
    state["kingdoms"][muslims]["army"].append(army)
    set_hand(state, muslims, [revealed])
    filler = troops(state, "christian", 1)[0]
    set_hand(state, 0, [filler])
    set_round(state, 0)
    return play(state, 0, {"type": "discard", "card": filler}, rng)


def crusader_points(state):
    """The victory points of every area the crusaders hold (8.5)."""
    return sum(state["map"]["areas"][str(a)]["vp"] for k in humans(state) for a in owned(state, k))


def final(state, rng):
    """Play out the last turn with empty hands; the MatchFinished payload."""
    state["turn"] = TURNS
    empty_hands(state)
    return dict(pass_all(state, rng))["MatchFinished"]


# ---------------------------------------------------------------- 8.2: the card bonus in the 1- and 2-player games

@COOP_GAMES
def test_a_coop_conquest_offers_no_bonus_or_castle_reward(players):
    """§8.2 "Bonus de carta. Solo se puede aumentar o reducir con cartas de Evento, y no conquistando o perdiendo
    áreas (tampoco se puede aplicar girando castillos a su lado +1)." The crusader, at bonus 0 with a regular
    castle, wins the area and is offered neither the advance nor a castle to turn (4.1.6's choice)."""
    state, _ = table(players)
    empty_hands(state)
    three = troops(state, "christian", 3)[0]
    set_hand(state, 0, [three])
    events = attack_with(state, 0, BORDER[players], [three], Scripted(dice=[[6, 6, 6]]))
    assert dict(events)["AreaConquered"]["area"] == BORDER[players]
    assert dict(events)["AttackCardsDiscarded"]["gain"] is False and state["attack"] is None
    seat = awaiting(state)
    assert [m for m in legal_moves(state, seat) if m["type"] in ("reward_bonus", "reward_castle")] == []
    assert "CastleFlipped" not in types(events) and not state["areas"][str(HOME[players])]["plus"]
    assert state["kingdoms"][0]["bonus"] == 0


@COOP_GAMES
def test_a_coop_trade_at_plus_two_turns_no_castle(players):
    """§8.2 "Bonus de carta. Solo se puede aumentar o reducir con cartas de Evento, y no conquistando o perdiendo
    áreas (tampoco se puede aplicar girando castillos a su lado +1)." Trade at +2 names no castle (as §6 "las
    positivas se intercambian por castillos +1" would in 3-4 players) and changes nothing."""
    state, rng = table(players)
    empty_hands(state)
    trade = named(state, "Trade", "christian")
    set_hand(state, 0, [trade])
    state["kingdoms"][0]["bonus"] = 2
    set_round(state, 0)
    assert [m for m in legal_moves(state, 0) if m.get("card") == trade and m["type"] == "play"] == [
        {"type": "play", "card": trade}]
    events = play(state, 0, {"type": "play", "card": trade}, rng)
    assert "CastleFlipped" not in types(events) and "BonusChanged" not in types(events)
    assert not state["areas"][str(HOME[players])]["plus"] and state["kingdoms"][0]["bonus"] == 2


@COOP_GAMES
def test_a_crusader_keeps_its_bonus_when_the_muslims_take_its_area(players):
    """§8.2 "Bonus de carta. Solo se puede aumentar o reducir con cartas de Evento, y no conquistando o perdiendo
    áreas". The Muslim army wins the crusader's start area: neither its bonus nor the Muslims' moves."""
    state, _ = table(players)
    state["kingdoms"][0]["bonus"] = 1
    events = muslim_army_round(state, Scripted(dice=[[1], [6, 6, 6, 6]]))
    assert dict(events)["AreaConquered"]["area"] == HOME[players]
    assert state["areas"][str(HOME[players])]["owner"] == players
    assert "BonusChanged" not in types(events)
    assert (state["kingdoms"][0]["bonus"], state["kingdoms"][players]["bonus"]) == (1, 0)


@COOP_GAMES
def test_a_crusaders_trade_raises_its_bonus(players):
    """§8.2 "Bonus de carta. Solo se puede aumentar o reducir con cartas de Evento". The crusader's own Trade
    raises its bonus from 0 to 1."""
    state, rng = table(players)
    empty_hands(state)
    trade = named(state, "Trade", "christian")
    set_hand(state, 0, [trade])
    set_round(state, 0)
    events = play(state, 0, {"type": "play", "card": trade}, rng)
    assert dict(events)["BonusChanged"] == {"seat": 0, "delta": 1, "bonus": 1, "reason": "event"}
    assert state["kingdoms"][0]["bonus"] == 1


# ---------------------------------------------------------------- 8.3: the automated Muslims

@COOP_GAMES
def test_muslims_do_not_respond_to_an_attack_of_two_dice(players):
    """§8.3 "Si los cruzados realizan un ataque en el que lanzan 3 o más dados, los musulmanes responden de
    inmediato con la primera carta de respuesta disponible y, una vez utilizada, la descartan." A Troop 2 rolls 2
    dice: the Leader waiting face up stays in the Muslims' row."""
    state, rng = table(players)
    empty_hands(state)
    leader = cards_of(state, "leader", "muslim")[0]
    state["kingdoms"][players]["queue"].append(leader)
    two = troops(state, "christian", 2)[0]
    set_hand(state, 0, [two])
    events = attack_with(state, 0, BORDER[players], [two], rng)
    assert next(p for kind, p in events if kind == "DiceRolled" and p["side"] == "attack")["count"] == 2
    assert "MuslimResponded" not in types(events) and dict(events)["CardsRevealed"]["defence"] == []
    assert state["kingdoms"][players]["queue"] == [leader]


def test_the_muslim_army_attacks_the_lowest_id_area_that_borders_them():
    """§8.3 "si el resultado es menor que la suma de los puntos de la tropa del ejército, atacan el área adyacente
    (controlada por el jugador cruzado en ronda) con el número de identificación más bajo." Richard holds Ascalon
    (3), whose only neighbour, Jerusalem (1), is Leopold V's: the army attacks Tripoli (5), next to Muslim Beirut."""
    state, _ = table(2)
    set_area(state, 3, 0)
    set_area(state, 1, 1)
    assert adjacent(state, 3) == [1] and 4 in adjacent(state, 5)
    events = muslim_army_round(state, Scripted(dice=[[1]]))
    assert (dict(events)["ArmyRolled"]["area"], dict(events)["AttackDeclared"]["area"]) == (5, 5)
    assert dict(events)["AttackDeclared"]["defender"] == 0


# ---------------------------------------------------------------- 4.1: an attack on the ally (2 players)

def test_an_attack_on_the_ally_runs_every_step_of_an_attack():
    """§4.1.1 "El jugador selecciona un área fronteriza, que debe pertenecer a otro jugador o ser un reino
    independiente" (RULINGS C20). Richard attacks Leopold V's Antioch from Latakia with a Troop 3. Leopold V adds
    Turcopoles (§4.1.3, C3) and turns his +1 castle in Marat (§4.1.4, C4). The Muslims' Leader stays in their row:
    §8.3 "los musulmanes responden" only in defence of their own areas (C17). Richard wins; Leopold V's castle goes
    back to his supply and §8.2 gives no bonus or castle for it (C7); the joint victory points do not change (C19)."""
    state, _ = table(2)
    empty_hands(state)
    three, turcopoles = troops(state, "christian", 3)[0], cards_of(state, "defence_dice", "christian")[0]
    leader = cards_of(state, "leader", "muslim")[0]
    set_hand(state, 0, [three])
    set_hand(state, 1, [turcopoles])
    state["kingdoms"][2]["queue"].append(leader)
    set_area(state, C_LATAKIA, 0)
    set_area(state, C_MARAT, 1, plus=True)
    supplies, points = [k["supply"] for k in state["kingdoms"]], crusader_points(state)
    rng = Scripted(dice=[[6, 6, 6], [1] * 6])
    events = attack_with(state, 0, C_ANTIOCH, [three], rng)
    assert dict(events)["AttackDeclared"]["defender"] == 1 and "MuslimResponded" not in types(events)
    assert legal_moves(state, 1) == [{"type": "respond", "card": turcopoles, "side": "defence"}, {"type": "pass"}]
    play(state, 1, {"type": "respond", "card": turcopoles, "side": "defence"}, rng)
    play(state, 1, {"type": "pass"}, rng)
    assert legal_moves(state, 1) == [{"type": "turn_castle", "area": C_MARAT}, {"type": "pass"}]
    events = play(state, 1, {"type": "turn_castle", "area": C_MARAT}, rng)
    assert next(p for kind, p in events if kind == "DiceRolled" and p["side"] == "defence")["count"] == 3 + 2 + 1
    assert dict(events)["AreaConquered"] == {"seat": 0, "area": C_ANTIOCH, "defender": 1,
                                             "removed": {"seat": 1, "plus": False}, "placed": True}
    assert dict(events)["AttackCardsDiscarded"]["gain"] is False and "BonusChanged" not in types(events)
    assert state["attack"] is None and awaiting(state) == 1
    assert state["kingdoms"][2]["queue"] == [leader]
    assert [k["supply"] for k in state["kingdoms"]] == [supplies[0] - 1, supplies[1] + 1, supplies[2]]
    assert [k["bonus"] for k in state["kingdoms"]] == [0, 0, 0] and crusader_points(state) == points


# ---------------------------------------------------------------- 8.5: victory points

def test_victory_points_subtract_the_muslims_bonus():
    """§8.5 "También suman o restan tantos PVs como la diferencia entre su Bonus de carta y el de los musulmanes
    (si lo hubiera)." Solo: Marat (1 PV) and Jerusalem (5), bonus +1 against the Muslims' +2, is 6 - 1 = 5. In the
    2-player game the score is joint and each crusader's bonus is set against the Muslims' (docs/RULINGS.md C19):
    Tripoli (3) and Antioch (4), bonuses +2 and -1 against +1, is 7 + (2 - 1) + (-1 - 1) = 6."""
    state, rng = table(1)
    set_area(state, 1, 0)
    state["kingdoms"][0]["bonus"], state["kingdoms"][1]["bonus"] = 1, 2
    finished = final(state, rng)
    assert (finished["area_vp"], finished["bonus_vp"], finished["vp"]) == (6, -1, 5)

    state, rng = table(2)
    for k, bonus in enumerate((2, -1, 1)):
        state["kingdoms"][k]["bonus"] = bonus
    finished = final(state, rng)
    assert (finished["area_vp"], finished["bonus_vp"], finished["vp"]) == (7, -1, 6)
    assert finished["level"] == "defeat" and state["winners"] == []


@pytest.mark.parametrize("areas, vp, level", [([1, 6, 10, 14], 15, "victory"), ([1, 6, 10], 14, "marginal_victory"),
                                              ([1, 6], 10, "defeat")])
def test_fifteen_points_is_a_victory_fourteen_marginal_and_ten_a_defeat(areas, vp, level):
    """§8.5 "15 o más PVs. Victoria" "11 a 14 PVs. Victoria marginal" "10 o menos PVs. Derrota". Marat (1 PV)
    with Jerusalem (5) and Damascus (4) is 10; Antioch (4) more is 14; Hama (1) more is 15."""
    state, rng = table(1)
    for a in areas:
        set_area(state, a, 0)
    finished = final(state, rng)
    assert (finished["vp"], finished["level"]) == (vp, level)
    assert state["winners"] == ([] if level == "defeat" else [0])


# ---------------------------------------------------------------- 4.1.4: turning castles

def test_the_defender_may_turn_two_adjacent_plus_castles_each_once():
    """§4.1.4 "El defensor puede girar uno o más de sus castillos +1 adyacentes al área atacada, para obtener
    dados adicionales en defensa (1 dado por castillo girado)." Aleppo defends Shaizar (defence 2) next to its +1
    castles in Aleppo and Hama: each may be turned once, and the two add 2 dice."""
    state, rng = table(4)
    empty_hands(state)
    two = troops(state, "christian", 2)[0]
    set_hand(state, ANTIOCH, [two])
    set_area(state, A_SHAIZAR, ALEPPO)
    set_area(state, A_ALEPPO, ALEPPO, plus=True)
    set_area(state, A_HAMA, ALEPPO, plus=True)
    attack_with(state, ANTIOCH, A_SHAIZAR, [two], rng)
    assert legal_moves(state, ALEPPO) == [{"type": "turn_castle", "area": A_ALEPPO},
                                          {"type": "turn_castle", "area": A_HAMA}, {"type": "pass"}]
    play(state, ALEPPO, {"type": "turn_castle", "area": A_ALEPPO}, rng)
    assert legal_moves(state, ALEPPO) == [{"type": "turn_castle", "area": A_HAMA}, {"type": "pass"}]
    with pytest.raises(IllegalMove):
        decide.decide(state, ALEPPO, {"type": "turn_castle", "area": A_ALEPPO}, rng)
    events = play(state, ALEPPO, {"type": "turn_castle", "area": A_HAMA}, rng)
    defence = next(p for kind, p in events if kind == "DiceRolled" and p["side"] == "defence")
    assert defence["count"] == 2 + 2
    assert not state["areas"][str(A_ALEPPO)]["plus"] and not state["areas"][str(A_HAMA)]["plus"]
