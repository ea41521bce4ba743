"""Crusader Kingdoms rulebook sentences (the Crusader Kingdoms rulebook, Spanish) not cited elsewhere,
and the card texts docs/RULINGS.md C1 assumes for the cards the rulebook only names."""
from __future__ import annotations

import pytest

from domain.crusader_kingdoms import GAME as CRUSADER_KINGDOMS
from domain.crusader_kingdoms.data import RESPONSES, default_map
from domain.crusader_kingdoms.moves import attack_targets, awaiting, legal_moves
from domain.crusader_kingdoms.state import TURNS, castles_on_map, muslims, new_state
from domain.crusader_kingdoms.views import view
from domain.errors import IllegalMove
from tests.helpers.crusader import (
    A_ACRE,
    A_ALEPPO,
    A_ANTIOCH,
    A_BANIAS,
    A_EDESSA,
    A_HOMS,
    A_LATAKIA,
    A_SHAIZAR,
    ALEPPO,
    ANTIOCH,
    C_ANTIOCH,
    C_LATAKIA,
    DAMASCUS,
    JERUSALEM,
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

SPECTATOR = None


def rolled(events, side):
    return next(p for kind, p in events if kind == "DiceRolled" and p["side"] == side)


# ---------------------------------------------------------------- 1-2: players and components

def test_the_game_is_for_one_to_four_players():
    """§1 "Crusader Kingdoms es un juego para 1-4 jugadores"; §7 "El juego de 4 jugadores está ambientado en la
    2ª Cruzada, y el de 3 jugadores en la era de Saladino"; §8 "En la versión en solitario [...] 1ª Cruzada [...]
    La versión cooperativa de 2 jugadores está ambientada en la 3ª Cruzada." """
    modes = {1: ("solo", "1st and 3rd Crusades"), 2: ("coop", "1st and 3rd Crusades"),
             3: ("three", "Saladin and the 2nd Crusade"), 4: ("four", "Saladin and the 2nd Crusade")}
    for players, (mode, board) in modes.items():
        state, _ = table(players)
        assert (state["mode"], state["map"]["name"]) == (mode, board)
    for players in (0, 5):
        with pytest.raises(IllegalMove, match="1 to 4 players"):
            new_state({"players": [f"P{i}" for i in range(players)], "options": {}})


def test_two_decks_of_troop_event_and_response_cards():
    """§2.1 "Divididas en dos barajas: una musulmana (reverso verde) y otra cristiana (reverso rojo). Pueden ser
    de tres tipos: Eventos. [...] Tropas. Marcadas con un número que indica su fuerza. Respuesta." Each deck holds
    all three kinds, and a troop's number is the dice it rolls (§4.2)."""
    state, _ = table(4)
    for deck in ("christian", "muslim"):
        cards = [c for c in state["cards"] if c["deck"] == deck]
        kinds = {"troop" if c["effect"] == "troop" else "response" if c["effect"] in RESPONSES else "event"
                 for c in cards}
        assert kinds == {"troop", "event", "response"}
        assert all(c["value"] >= 1 for c in cards if c["effect"] == "troop")
    assert {c["deck"] for c in state["cards"]} == {"christian", "muslim"}


def test_a_response_is_played_in_its_owners_round_or_in_another_players():
    """§2.1 "Respuesta. Dependiendo del texto de la carta, se pueden jugar durante la ronda del jugador o durante
    la ronda de otros jugadores; y se pueden usar solas o en combinación con otras cartas de cualquier tipo." A
    Leader goes down with the owner's own troops, or alone into another player's attack."""
    state, rng = table(4)
    empty_hands(state)
    leader, other_leader = cards_of(state, "leader", "christian")
    two = troops(state, "christian", 2)[0]
    set_hand(state, ANTIOCH, [two, leader])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_SHAIZAR}, rng)
    assert {"type": "commit", "card": leader} in legal_moves(state, ANTIOCH)
    set_hand(state, JERUSALEM, [other_leader])
    play(state, ANTIOCH, {"type": "commit", "card": two}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": leader}, rng)
    play(state, ANTIOCH, {"type": "pass"}, rng)
    assert awaiting(state) == JERUSALEM
    assert {"type": "respond", "card": other_leader, "side": "attack"} in legal_moves(state, JERUSALEM)

def test_the_incursion_card_makes_a_chosen_player_discard_at_random():
    """§2.1, the Incursion card: "Elige a un jugador que deberá descartar una carta al azar." Any opponent may be
    chosen, bordering or not, and no die is rolled (docs/RULINGS.md C8)."""
    state, _ = table(4)
    incursion = named(state, "Incursion", "christian")
    set_hand(state, ANTIOCH, [incursion])
    set_round(state, ANTIOCH)
    targets = [m["target"] for m in legal_moves(state, ANTIOCH) if m["type"] == "play"]
    assert targets == [DAMASCUS, JERUSALEM, ALEPPO]  # Jerusalem does not border Antioch
    hand = list(state["kingdoms"][JERUSALEM]["hand"])
    events = play(state, ANTIOCH, {"type": "play", "card": incursion, "target": JERUSALEM}, Scripted(choices=[5]))
    assert types(events)[:2] == ["EventPlayed", "RandomCardDiscarded"] and "IncursionMade" not in types(events)
    lost = dict(events)["RandomCardDiscarded"]
    assert lost["seat"] == JERUSALEM and lost["card"]["id"] == hand[5] and lost["random"][0]["kind"] == "choice"
    assert state["kingdoms"][JERUSALEM]["hand"] == hand[:5] + hand[6:]
    assert {incursion, hand[5]} <= set(state["discards"]["christian"])


def test_turcopoles_add_two_dice_to_the_defence_of_a_castle():
    """§2.1, the Turcopoles card: "Añade 2 DADOS a la defensa de un castillo durante un ataque." Acre (defence 2)
    then rolls 4 dice; the card cannot go to the attack, nor to an independent area, which has no castle."""
    state, _ = table(4)
    empty_hands(state)
    troop = troops(state, "muslim", 2)[0]
    turcopoles = cards_of(state, "defence_dice", "christian")[0]
    set_area(state, A_BANIAS, DAMASCUS)
    set_hand(state, DAMASCUS, [troop])
    set_hand(state, JERUSALEM, [turcopoles])
    rng = Scripted(dice=[[1, 1], [1, 1, 1, 1]])
    set_round(state, DAMASCUS)
    play(state, DAMASCUS, {"type": "attack", "area": A_ACRE}, rng)
    play(state, DAMASCUS, {"type": "commit", "card": troop}, rng)
    play(state, DAMASCUS, {"type": "pass"}, rng)
    assert awaiting(state) == JERUSALEM
    assert legal_moves(state, JERUSALEM) == [{"type": "respond", "card": turcopoles, "side": "defence"},
                                             {"type": "pass"}]
    play(state, JERUSALEM, {"type": "respond", "card": turcopoles, "side": "defence"}, rng)
    events = play(state, JERUSALEM, {"type": "pass"}, rng)
    assert rolled(events, "defence")["count"] == state["map"]["areas"][str(A_ACRE)]["defence"] + 2 == 4
    assert turcopoles in state["discards"]["christian"]

    state, _ = table(4)
    empty_hands(state)
    set_hand(state, ANTIOCH, [troops(state, "christian", 2)[0]])
    set_hand(state, JERUSALEM, [turcopoles])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_SHAIZAR}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": state["kingdoms"][ANTIOCH]["hand"][0]}, rng)
    play(state, ANTIOCH, {"type": "pass"}, rng)
    assert legal_moves(state, JERUSALEM) == [{"type": "pass"}]


def test_castle_tokens_belong_to_one_kingdom_each_and_have_a_regular_and_a_plus_side():
    """§2.2 "Ubicadas en las áreas del mapa, indican quién domina la región. Son de cuatro colores diferentes -uno
    por jugador- y tienen dos caras: el lado regular y el marcado con +1"."""
    state, rng = table(4)
    for k, kingdom in enumerate(state["kingdoms"]):
        assert castles_on_map(state, k) + kingdom["supply"] == kingdom["castles"] == 7
        assert all(state["areas"][str(a)] == {"owner": k, "castle": True, "plus": False} for a in kingdom["start"])
    walls = named(state, "Walls", "christian")
    set_hand(state, ANTIOCH, [walls])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "play", "card": walls, "area": A_LATAKIA}, rng)
    assert state["areas"][str(A_LATAKIA)] == {"owner": ANTIOCH, "castle": True, "plus": True}
    assert castles_on_map(state, ANTIOCH) == 2 and state["kingdoms"][ANTIOCH]["supply"] == 5
    shown = {a["id"]: a for a in view(state, SPECTATOR)["map"]["areas"]}
    assert (shown[A_LATAKIA]["owner"], shown[A_LATAKIA]["plus"], shown[A_ANTIOCH]["plus"]) == (ANTIOCH, True, False)


def test_each_kingdom_has_the_colour_of_its_deployment_table():
    """§2.2 "Son de cuatro colores diferentes -uno por jugador-"; the colours of the tables in §7.1 (Damasco
    Amarillo, Jerusalén Azul, Antioquía Rojo, Alepo Verde; Saladino Verde) and §8.1 (Ricardo Corazón de León Rojo,
    Leopoldo V Azul, la 1ª Cruzada Rojo, Musulmanes Verde). A map file giving two kingdoms one colour is refused."""
    expected = {1: ["red", "green"], 2: ["red", "blue", "green"], 3: ["green", "blue", "red"],
                4: ["yellow", "blue", "red", "green"]}
    for players, colours in expected.items():
        state, _ = table(players)
        assert [k["colour"] for k in view(state, SPECTATOR)["kingdoms"]] == colours
    board = default_map(4)
    board["setups"]["4"][1]["colour"] = "yellow"
    with pytest.raises(IllegalMove, match="two kingdoms one colour"):
        new_state({"players": ["a", "b", "c", "d"], "options": {"map": board}})


def test_the_card_bonus_stays_between_minus_two_and_plus_two():
    """§2.3 "Su posición puede estar entre -2 y +2". An event moving it beyond either end leaves it there
    (Assassins lowering, Trade raising; a kingdom at +2 with no regular castle has nothing to exchange, C7)."""
    for start in range(-2, 3):
        state, rng = table(4)
        assassins = named(state, "Assassins")
        set_hand(state, ANTIOCH, [assassins])
        state["kingdoms"][DAMASCUS]["bonus"] = start
        set_round(state, ANTIOCH)
        play(state, ANTIOCH, {"type": "play", "card": assassins, "target": DAMASCUS}, rng)
        assert state["kingdoms"][DAMASCUS]["bonus"] == max(-2, start - 1)

        state, rng = table(4)
        trade = named(state, "Trade", "christian")
        set_hand(state, ANTIOCH, [trade])
        for area in (A_ANTIOCH, A_LATAKIA):
            set_area(state, area, ANTIOCH, plus=True)
        state["kingdoms"][ANTIOCH]["bonus"] = start
        set_round(state, ANTIOCH)
        play(state, ANTIOCH, {"type": "play", "card": trade}, rng)
        assert state["kingdoms"][ANTIOCH]["bonus"] == min(2, start + 1)


def test_the_card_bonus_gives_more_or_fewer_cards_next_turn():
    """§2.3 "Se utiliza para saber cuántas cartas de más o de menos robará el jugador al comienzo del siguiente
    turno"; §6 "robará las cartas indicadas en la tabla de despliegue, más/menos las indicadas por el marcador de
    Bonus." """
    state, rng = table(4)
    empty_hands(state)
    for k, bonus in enumerate((-2, -1, 1, 2)):
        state["kingdoms"][k]["bonus"] = bonus
    events = pass_all(state, rng)
    drawn = [len(p["cards"]) for kind, p in events if kind == "CardsDrawn"]
    assert drawn == [8 - 2, 8 - 1, 8 + 1, 8 + 2]


# ---------------------------------------------------------------- 4: the actions

def test_a_round_offers_one_of_attack_incursion_event_discard_or_pass():
    """§4 "La acción que cada jugador puede realizar durante su ronda puede ser una de las siguientes: Ataque [...]
    Incursión [...] Jugar un evento [...] Descartar [...] Pasar". One action, and the round passes on."""
    state, rng = table(4)
    troop, trade = troops(state, "christian", 1)[0], named(state, "Trade", "christian")
    set_hand(state, ANTIOCH, [troop, trade])
    set_round(state, ANTIOCH)
    moves = legal_moves(state, ANTIOCH)
    kinds = {"event" if m["type"] == "play" else m["type"] for m in moves}
    assert kinds == {"attack", "incursion", "event", "discard", "pass"}
    play(state, ANTIOCH, {"type": "play", "card": trade}, rng)
    assert awaiting(state) == ALEPPO


def test_an_event_is_shown_to_everyone():
    """§4 "Jugar un evento: el jugador muestra la carta de evento y procede de acuerdo con su texto." """
    state, rng = table(4)
    trade = named(state, "Trade", "christian")
    set_hand(state, ANTIOCH, [trade])
    set_round(state, ANTIOCH)
    events = play(state, ANTIOCH, {"type": "play", "card": trade}, rng)
    for viewer in (DAMASCUS, JERUSALEM, SPECTATOR):
        assert CRUSADER_KINGDOMS.redact(*events[0], viewer)["card"]["name"] == "Trade"
    assert types(events)[:2] == ["EventPlayed", "BonusChanged"]


# ---------------------------------------------------------------- 4.1: the attack's steps

def test_the_cards_are_revealed_and_then_the_combat_takes_place():
    """§4.1.5 "Las cartas del atacante y el defensor se revelan y el combate se lleva a cabo." Until then a third
    seat sees only that cards went down; the reveal shows both sides' cards to everyone, before any die."""
    state, _ = table(4)
    empty_hands(state)
    two, three = troops(state, "christian", 2, 3)
    leader = cards_of(state, "leader", "muslim")[0]
    set_hand(state, ANTIOCH, [two, three])
    set_hand(state, DAMASCUS, [leader])
    set_area(state, A_HOMS, DAMASCUS, plus=True)
    rng = Scripted(dice=[[1, 3, 4, 4, 6], [1, 1, 2, 3]])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_HOMS}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": two}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": three}, rng)
    play(state, ANTIOCH, {"type": "pass"}, rng)
    play(state, DAMASCUS, {"type": "respond", "card": leader, "side": "defence"}, rng)
    hidden = view(state, JERUSALEM)["attack"]
    assert hidden["attack"] == [{"owner": ANTIOCH, "hidden": True}] * 2
    assert hidden["defence"] == [{"owner": DAMASCUS, "hidden": True}]
    events = play(state, DAMASCUS, {"type": "pass"}, rng)
    assert types(events)[1:4] == ["CardsRevealed", "DiceRolled", "DiceRolled"]
    revealed = dict(events)["CardsRevealed"]
    assert [c["id"] for c in revealed["attack"]] == [two, three] and [c["id"] for c in revealed["defence"]] == [leader]
    for viewer in (JERUSALEM, SPECTATOR):
        shown = view(state, viewer)["attack"]
        assert [c["id"] for c in shown["attack"]] == [two, three] and shown["defence"][0]["name"] == "Leader"


def test_an_attack_may_roll_only_the_dice_of_a_face_up_card():
    """§4.2 "El atacante agrega el valor de sus cartas de tropa y lanza esa cantidad de dados"; §4.1.2 puts down
    "todas las cartas de Tropa de su mano que quiera"; §2.1 responses "se pueden usar solas" (RULINGS C2). Antioch,
    its Armed Pilgrims face up, holds only a Leader: it may attack Shaizar, stop at once with the Pilgrims' die,
    and its Leader turns a 3 into the winning hit. With no die it may not attack, and with no card in hand it may
    only pass (§4.6 "Los jugadores sin cartas solo pueden hacer esta acción"), face-up cards or not."""
    state, _ = table(4)
    empty_hands(state)
    pilgrims, leader = named(state, "Armed Pilgrims"), cards_of(state, "leader", "christian")[0]
    set_hand(state, ANTIOCH, [leader, pilgrims])
    set_round(state, ANTIOCH)
    assert [m for m in legal_moves(state, ANTIOCH) if m["type"] == "attack"] == []  # no die: no attack
    rng = Scripted(dice=[[3], [1, 1]])
    play(state, ANTIOCH, {"type": "play", "card": pilgrims}, rng)
    assert state["kingdoms"][ANTIOCH]["persistent"] == [pilgrims]
    attacks = [{"type": "attack", "area": a} for a in attack_targets(state, ANTIOCH)]
    set_round(state, ANTIOCH)
    assert {"type": "attack", "area": A_SHAIZAR} in attacks
    assert legal_moves(state, ANTIOCH) == attacks + [{"type": "discard", "card": leader}, {"type": "pass"}]
    set_hand(state, ANTIOCH, [])
    assert legal_moves(state, ANTIOCH) == [{"type": "pass"}]
    set_hand(state, ANTIOCH, [leader])
    play(state, ANTIOCH, {"type": "attack", "area": A_SHAIZAR}, rng)
    assert legal_moves(state, ANTIOCH) == [{"type": "commit", "card": leader}, {"type": "pass"}]
    play(state, ANTIOCH, {"type": "commit", "card": leader}, rng)
    events = play(state, ANTIOCH, {"type": "pass"}, rng)
    assert (rolled(events, "attack")["count"], rolled(events, "defence")["count"]) == (1, 2)
    events = play(state, ANTIOCH, {"type": "leader_point", "die": 0}, rng)
    events += play(state, ANTIOCH, {"type": "pass"}, rng)
    assert dict(events)["CombatResolved"]["attack_hits"] == 1 and dict(events)["AreaConquered"]["area"] == A_SHAIZAR


def test_a_conquered_castle_is_removed_and_the_attackers_goes_down_regular_side_up():
    """§4.1.6 "Si el atacante gana, cualquier castillo en el área se elimina y el atacante coloca uno de sus
    castillos por el lado regular (incluso si el defensor estaba por el lado +1)". The removed castle goes back to
    its kingdom's supply, the placed one comes from the attacker's."""
    state, _ = table(4)
    empty_hands(state)
    troop = troops(state, "christian", 4)[0]
    set_hand(state, ANTIOCH, [troop])
    set_area(state, A_ALEPPO, ALEPPO, plus=True)
    supplies = [k["supply"] for k in state["kingdoms"]]
    events = attack_with(state, ANTIOCH, A_ALEPPO, [troop], Scripted(dice=[[6, 6, 6, 6], [1, 1, 1, 1]]))
    conquered = dict(events)["AreaConquered"]
    assert conquered["removed"] == {"seat": ALEPPO, "plus": True} and conquered["placed"] is True
    assert state["areas"][str(A_ALEPPO)] == {"owner": ANTIOCH, "castle": True, "plus": False}
    assert state["kingdoms"][ALEPPO]["supply"] == supplies[ALEPPO] + 1
    assert state["kingdoms"][ANTIOCH]["supply"] == supplies[ANTIOCH] - 1


def test_the_leader_adds_three_points_in_all_to_the_dice_its_owner_chooses():
    """The Leader card (4.2 picture): "Puedes sumar un total de 3 puntos a repartir entre los dados que desees."
    A die at 6 cannot take a point; the third point ends the Leader and the combat is resolved (C6)."""
    state, _ = table(4)
    empty_hands(state)
    three = troops(state, "christian", 3)[0]
    leader = cards_of(state, "leader", "christian")[0]
    set_hand(state, ANTIOCH, [three, leader])
    rng = Scripted(dice=[[6, 2, 3], [1, 1]])
    events = attack_with(state, ANTIOCH, A_SHAIZAR, [three, leader], rng)
    assert rolled(events, "attack")["count"] == 3  # a Leader adds no die
    assert legal_moves(state, ANTIOCH) == [{"type": "leader_point", "die": 1},
                                           {"type": "leader_point", "die": 2}, {"type": "pass"}]
    play(state, ANTIOCH, {"type": "leader_point", "die": 2}, rng)
    play(state, ANTIOCH, {"type": "leader_point", "die": 1}, rng)
    assert state["attack"]["dice"]["attack"] == [6, 3, 4] and awaiting(state) == ANTIOCH
    events = play(state, ANTIOCH, {"type": "leader_point", "die": 1}, rng)
    assert types(events)[:2] == ["LeaderPointAdded", "CombatResolved"]
    assert dict(events)["CombatResolved"]["attack_hits"] == 3


def test_a_kingdom_gains_a_bonus_step_for_each_area_won_and_loses_one_for_each_area_lost():
    """§6 "Cada vez que un jugador gana un área, avanza el Bonus de carta en 1 (o gira un castillo a su lado +1),
    y cada vez que pierde un área, lo hace retroceder en 1." Two conquests of Aleppo's areas in one turn."""
    state, _ = table(4)
    empty_hands(state)
    four_a, four_b = troops(state, "christian", 4, 4)
    set_hand(state, ANTIOCH, [four_a, four_b])
    rng = Scripted(dice=[[6] * 4, [1] * 3, [6] * 4, [1] * 2])
    attack_with(state, ANTIOCH, A_ALEPPO, [four_a], rng)
    play(state, ANTIOCH, {"type": "reward_bonus"}, rng)
    assert (state["kingdoms"][ANTIOCH]["bonus"], state["kingdoms"][ALEPPO]["bonus"]) == (1, -1)
    attack_with(state, ANTIOCH, A_EDESSA, [four_b], rng)
    play(state, ANTIOCH, {"type": "reward_castle", "area": A_EDESSA}, rng)
    assert (state["kingdoms"][ANTIOCH]["bonus"], state["kingdoms"][ALEPPO]["bonus"]) == (1, -2)
    assert state["areas"][str(A_EDESSA)] == {"owner": ANTIOCH, "castle": True, "plus": True}


# ---------------------------------------------------------------- 8: the automated Muslims

def muslim_cards(state, cards):
    set_hand(state, len(state["players"]), cards)


def test_a_muslim_event_affects_the_crusader_whose_round_it_is():
    """§8.2 "Si los musulmanes atacan o juegan cualquier evento, afectará al jugador que hace esa ronda." The
    Muslims' Incursion after Leopold V's round makes Leopold V, not Richard, discard at random."""
    state, _ = table(2)
    raid = cards_of(state, "raid", "muslim")[0]
    richard, leopold = list(state["kingdoms"][0]["hand"]), list(state["kingdoms"][1]["hand"])
    muslim_cards(state, [raid])
    set_round(state, 1)
    events = play(state, 1, {"type": "discard", "card": leopold[0]}, Scripted(choices=[0]))
    assert dict(events)["MuslimCardRevealed"]["slot"] == 1
    assert dict(events)["RandomCardDiscarded"]["seat"] == 1
    assert state["kingdoms"][0]["hand"] == richard and len(state["kingdoms"][1]["hand"]) == len(leopold) - 2


def test_a_crusader_who_passes_carries_its_hand_to_the_next_turn():
    """§8.2 "Si un jugador pasa, ya no puede jugar y arrastra las cartas de su mano al siguiente turno siguiendo
    las reglas normales." §8.3 "Los musulmanes alternan rondas de juego con los cruzados como si fueran un
    jugador." """
    state, rng = table(1)
    kept = state["kingdoms"][0]["hand"][:3]
    set_hand(state, 0, kept)
    muslim_cards(state, cards_of(state, "leader", "muslim"))
    events = play(state, 0, {"type": "discard", "card": kept[0]}, rng)
    assert [p["seat"] for kind, p in events if kind == "RoundStarted"] == [1, 0]  # the Muslims', then the crusader's
    events = play(state, 0, {"type": "pass"}, rng)
    turn_one = types(events)[:types(events).index("TurnEnded")]
    assert turn_one == ["Passed", "RoundStarted", "MuslimCardRevealed"]  # the Muslims play on, the crusader is out
    drawn = next(p for kind, p in events if kind == "CardsDrawn" and p["seat"] == 0)
    assert state["turn"] == 2 and drawn["kept"] == 2 and len(drawn["cards"]) == 8 - 2
    assert set(kept[1:]) <= set(state["kingdoms"][0]["hand"]) and len(state["kingdoms"][0]["hand"]) == 8


@pytest.mark.parametrize("passed", [False, True])
def test_a_crusader_who_has_passed_plays_no_responses(passed):
    """§8.2 "Si un jugador pasa, ya no puede jugar" (RULINGS C15): Richard, holding a Leader, is asked to add
    responses to Leopold V's attack only while he has not passed."""
    state, rng = table(2)
    empty_hands(state)
    leader, troop = cards_of(state, "leader", "christian")[0], troops(state, "christian", 1)[0]
    set_hand(state, 0, [leader])
    set_hand(state, 1, [troop])
    state["kingdoms"][0]["passed"] = passed
    attack_with(state, 1, attack_targets(state, 1)[0], [troop], rng)
    asked = state["attack"] is not None and state["attack"]["stage"] == "respond" and awaiting(state) == 0
    assert asked is not passed
    assert state["kingdoms"][0]["hand"] == [leader]


def test_a_crusader_may_attack_its_ally_but_names_only_the_muslims_as_its_opponent():
    """§4.1.1 "El jugador selecciona un área fronteriza, que debe pertenecer a otro jugador o ser un reino
    independiente"; only §7.2, for three players, says "Cristianos no pueden hacerse entre ellos la acción de
    Ataque" (RULINGS C20). Richard, holding Latakia next to Leopold V's Antioch, may attack it. §4.3 has an
    incursion name "un oponente", and the ally in the co-operative game is none (C8): Richard's troop and his
    Incursion card name only the Muslims."""
    state, _ = table(2)
    empty_hands(state)
    troop, incursion = troops(state, "christian", 1)[0], named(state, "Incursion", "christian")
    set_hand(state, 0, [troop, incursion])
    set_area(state, C_LATAKIA, 0)
    set_round(state, 0)
    moves = legal_moves(state, 0)
    assert state["areas"][str(C_ANTIOCH)]["owner"] == 1 and {"type": "attack", "area": C_ANTIOCH} in moves
    assert C_ANTIOCH in attack_targets(state, 0) and C_LATAKIA in attack_targets(state, 1)
    assert {move["target"] for move in moves if move["type"] == "play"} == {muslims(state)}


def test_each_muslim_round_reveals_the_first_card_drawn_and_applies_an_event_at_once():
    """§8.3 "Cada ronda, revelan la primera carta de las que robaron ese turno, y la juegan siguiendo estas
    reglas: Eventos. Se aplican al instante." """
    state, rng = table(1)
    drawn = list(state["kingdoms"][1]["hand"])
    set_hand(state, 0, [])
    events = play(state, 0, {"type": "pass"}, rng)
    revealed = [p["card"]["id"] for kind, p in events if kind == "MuslimCardRevealed" and p["source"] == "turn"]
    assert revealed == drawn

    state, _ = table(1)
    trade, troop = cards_of(state, "bonus_up", "muslim")[0], troops(state, "muslim", 1)[0]
    muslim_cards(state, [trade, troop])
    set_round(state, 0)
    events = play(state, 0, {"type": "discard", "card": state["kingdoms"][0]["hand"][0]}, Scripted(dice=[[6]]))
    after = types(events)[types(events).index("MuslimCardRevealed"):]
    assert after[:3] == ["MuslimCardRevealed", "BonusChanged", "RoundStarted"]  # the event, at once, alone
    assert state["kingdoms"][1]["hand"] == [troop] and state["kingdoms"][1]["bonus"] == 1


def test_muslim_responses_wait_face_up_in_the_order_they_came_out():
    """§8.3 "Respuesta. Se dejan boca arriba en la mesa, si se acumulan se colocan en el orden en que han
    salido." The first of them answers a crusader attack of 3 or more dice."""
    state, _ = table(1)
    first, second = cards_of(state, "leader", "muslim")
    empty_hands(state)
    muslim_cards(state, [second, first])
    set_area(state, 13, 1, castle=False)
    play(state, 0, {"type": "pass"}, Scripted())
    assert state["kingdoms"][1]["queue"] == [second, first]
    assert [c["id"] for c in view(state, SPECTATOR)["kingdoms"][1]["responses"]] == [second, first]

    state, _ = table(1)
    empty_hands(state)
    state["kingdoms"][1]["queue"] += [second, first]
    three = troops(state, "christian", 3)[0]
    set_hand(state, 0, [three])
    events = attack_with(state, 0, 14, [three], Scripted(dice=[[1, 1, 1], [1, 1]]))
    assert dict(events)["MuslimResponded"]["card"]["id"] == second
    assert state["kingdoms"][1]["queue"] == [first]


def test_after_their_attack_the_muslims_discard_the_attacking_cards():
    """§8.3 "Tras resolver el ataque, descartan las cartas atacantes siguiendo las reglas normales." A conquered
    area becomes Muslim without a castle token: §8.1 "las fichas de castillo solo se usan cuando es necesario
    colocarlos por el lado +1" (C16)."""
    state, _ = table(1)
    two_a, two_b = troops(state, "muslim", 2, 2)
    empty_hands(state)
    state["kingdoms"][1]["army"].append(two_a)
    muslim_cards(state, [two_b])
    filler = troops(state, "christian", 1)[0]
    set_hand(state, 0, [filler])
    set_round(state, 0)
    supply = state["kingdoms"][0]["supply"]
    events = play(state, 0, {"type": "discard", "card": filler}, Scripted(dice=[[1], [6, 6, 6, 6], [1, 1]]))
    assert dict(events)["ArmyRolled"]["area"] == 13 and "TurnEnded" not in types(events)
    assert state["areas"]["13"] == {"owner": 1, "castle": False, "plus": False}
    assert state["kingdoms"][0]["supply"] == supply + 1 and state["kingdoms"][1]["supply"] == 7
    discarded = [c["id"] for c in dict(events)["AttackCardsDiscarded"]["cards"]]
    assert discarded == [two_a, two_b] and {two_a, two_b} <= set(state["discards"]["muslim"])
    assert state["kingdoms"][1]["army"] == []


def test_a_seduced_event_the_muslims_cannot_use_is_discarded():
    """§8.4 "Seducción. [...] Si es una carta de Evento y los musulmanes pueden jugarla a su favor, lo hacen
    inmediatamente, si no pueden la descartan." A Truce is of no use to them (C18)."""
    decks = {"christian": [{"name": "Knight", "effect": "troop", "value": 2, "count": 20},
                           {"name": "Truce", "effect": "truce", "count": 1}],
             "muslim": [{"name": "Mamluk", "effect": "troop", "value": 1, "count": 20},
                        {"name": "Seduction", "effect": "steal", "count": 1}]}
    state, _ = table(1, {"decks": decks})
    truce, seduction = named(state, "Truce"), named(state, "Seduction")
    knight = state["kingdoms"][0]["hand"][0]
    set_hand(state, 0, [truce, knight])
    muslim_cards(state, [seduction])
    set_round(state, 0)
    events = play(state, 0, {"type": "discard", "card": knight}, Scripted(choices=[0]))
    assert dict(events)["CardTaken"]["card"]["id"] == truce
    placed = [(p["card"]["id"], p["placed"], p["source"]) for kind, p in events if kind == "MuslimCardRevealed"]
    assert placed == [(seduction, "event", "turn"), (truce, "discard", "seduction")]
    assert truce in state["discards"]["christian"] and state["truces"] == []


# ---------------------------------------------------------------- the named cards (texts assumed, C1)

def test_joint_attack_lets_players_of_the_attackers_religion_add_troops():
    """§8.1 names "Ataque conjunto" (Joint Attack); C1 assumes it is an attack to which players of the
    attacker's religion may add troops. An event attack may start with no troop of the attacker's own (C2)."""
    state, _ = table(4)
    empty_hands(state)
    joint = named(state, "Joint Attack")
    two, three = troops(state, "christian", 2, 3)
    mamluk = troops(state, "muslim", 1)[0]
    set_hand(state, JERUSALEM, [joint, two])
    set_hand(state, ANTIOCH, [three])
    set_hand(state, ALEPPO, [mamluk])
    rng = Scripted(dice=[[1] * 5, [1, 1]])
    set_round(state, JERUSALEM)
    play(state, JERUSALEM, {"type": "play", "card": joint, "area": A_BANIAS}, rng)
    assert {"type": "pass"} in legal_moves(state, JERUSALEM)
    play(state, JERUSALEM, {"type": "commit", "card": two}, rng)
    play(state, JERUSALEM, {"type": "pass"}, rng)
    assert legal_moves(state, ANTIOCH) == [{"type": "respond", "card": three, "side": "attack"}, {"type": "pass"}]
    play(state, ANTIOCH, {"type": "respond", "card": three, "side": "attack"}, rng)
    play(state, ANTIOCH, {"type": "pass"}, rng)
    assert legal_moves(state, ALEPPO) == [{"type": "pass"}]  # a Muslim may not join
    events = play(state, ALEPPO, {"type": "pass"}, rng)
    assert rolled(events, "attack")["count"] == 5


def test_minor_campaign_is_an_attack_with_one_extra_die():
    """§4.4 "Algunos eventos resultan en un ataque"; C1 assumes Minor Campaign is an attack with 1 extra die."""
    state, _ = table(4)
    empty_hands(state)
    campaign, two = named(state, "Minor Campaign"), troops(state, "muslim", 2)[0]
    set_hand(state, DAMASCUS, [campaign, two])
    events = attack_with(state, DAMASCUS, A_BANIAS, [two], Scripted(dice=[[1, 1, 1], [1, 1]]), event=campaign)
    assert rolled(events, "attack")["count"] == 2 + 1


def test_mercenaries_add_a_die_to_each_attack_of_their_owner_that_turn():
    """§4.4 "Si el evento está marcado con 'P', se mantiene boca arriba para recordar que su efecto dura todo el
    turno"; C1 assumes Mercenaries and Armed Pilgrims ("P") add a die to each of their owner's attacks."""
    state, _ = table(4)
    empty_hands(state)
    mercenaries = named(state, "Mercenaries")
    one_a, one_b = troops(state, "muslim", 1, 1)
    set_hand(state, DAMASCUS, [mercenaries, one_a, one_b])
    rng = Scripted(dice=[[1, 1], [1, 1], [1, 1], [1, 1]])
    set_round(state, DAMASCUS)
    play(state, DAMASCUS, {"type": "play", "card": mercenaries}, rng)
    for troop in (one_a, one_b):
        events = attack_with(state, DAMASCUS, A_BANIAS, [troop], rng)
        assert rolled(events, "attack")["count"] == 1 + 1
    pass_all(state, rng)
    empty_hands(state)
    set_hand(state, DAMASCUS, [one_a])
    events = attack_with(state, DAMASCUS, A_BANIAS, [one_a], Scripted(dice=[[1], [1, 1]]))
    assert rolled(events, "attack")["count"] == 1  # the next turn, reshuffled away


def test_watchtowers_add_a_die_to_each_defence_of_their_owner():
    """C1 assumes Watchtowers ("P") add a die to each of their owner's defences that turn: Homs, defence 3,
    then rolls 4."""
    state, _ = table(4)
    empty_hands(state)
    watchtowers = named(state, "Watchtowers")
    two = troops(state, "christian", 2)[0]
    set_hand(state, DAMASCUS, [watchtowers])
    set_hand(state, ANTIOCH, [two])
    set_round(state, DAMASCUS)
    play(state, DAMASCUS, {"type": "play", "card": watchtowers}, Scripted())
    events = attack_with(state, ANTIOCH, A_HOMS, [two], Scripted(dice=[[1, 1], [1, 1, 1, 1]]))
    assert rolled(events, "defence")["count"] == 3 + 1


def test_a_truce_stops_both_kingdoms_attacking_each_other_for_the_turn():
    """§8.1 names "Tregua" (Truce); C1 and C12 assume it bars attacks between its player and a chosen opponent,
    both ways, for the rest of the turn, and nothing else."""
    state, rng = table(4)
    truce = named(state, "Truce")
    set_hand(state, DAMASCUS, [truce] + troops(state, "muslim", 1))
    set_hand(state, ANTIOCH, troops(state, "christian", 1))
    set_round(state, DAMASCUS)
    play(state, DAMASCUS, {"type": "play", "card": truce, "target": ANTIOCH}, rng)
    assert state["truces"] == [[DAMASCUS, ANTIOCH]] and state["kingdoms"][DAMASCUS]["persistent"] == [truce]
    set_round(state, ANTIOCH)
    moves = legal_moves(state, ANTIOCH)
    assert A_HOMS not in {m["area"] for m in moves if m["type"] == "attack"}
    assert {"type": "incursion", "card": state["kingdoms"][ANTIOCH]["hand"][0], "target": DAMASCUS} in moves
    set_round(state, DAMASCUS)
    assert A_LATAKIA not in {m["area"] for m in legal_moves(state, DAMASCUS) if m["type"] == "attack"}
    pass_all(state, rng)
    assert state["truces"] == [] and state["turn"] == 2


def test_spies_take_a_random_card_that_only_the_two_players_see():
    """§8.1 names "Espías" (Spies); C1 assumes they take a random card from a chosen opponent's hand."""
    state, _ = table(4)
    spies = named(state, "Spies")
    set_hand(state, ANTIOCH, [spies])
    hand = list(state["kingdoms"][DAMASCUS]["hand"])
    set_round(state, ANTIOCH)
    events = play(state, ANTIOCH, {"type": "play", "card": spies, "target": DAMASCUS}, Scripted(choices=[3]))
    taken = dict(events)["CardTaken"]
    assert taken["card"]["id"] == hand[3] and taken["random"][0]["kind"] == "choice"
    assert state["kingdoms"][ANTIOCH]["hand"] == [hand[3]] and hand[3] not in state["kingdoms"][DAMASCUS]["hand"]
    event = ("CardTaken", taken)
    assert "card" in CRUSADER_KINGDOMS.redact(*event, DAMASCUS) and "card" in CRUSADER_KINGDOMS.redact(*event, ANTIOCH)
    assert "card" not in CRUSADER_KINGDOMS.redact(*event, JERUSALEM) and "card" not in CRUSADER_KINGDOMS.redact(*event, SPECTATOR)


def test_a_players_walls_turn_one_of_its_regular_castles_to_plus_one():
    """§8.4 names "Murallas" (Walls); C1 assumes a player's Walls turns one of its regular castles to +1, which
    then adds a defence die (§4.2 "+1 si tiene un castillo +1")."""
    state, rng = table(4)
    walls = named(state, "Walls", "muslim")
    set_hand(state, DAMASCUS, [walls])
    set_round(state, DAMASCUS)
    options = [m for m in legal_moves(state, DAMASCUS) if m.get("card") == walls and m["type"] == "play"]
    assert [m["area"] for m in options] == [A_HOMS, 12]
    play(state, DAMASCUS, {"type": "play", "card": walls, "area": A_HOMS}, rng)
    assert state["areas"][str(A_HOMS)]["plus"] and walls in state["discards"]["muslim"]
    empty_hands(state)
    two = troops(state, "christian", 2)[0]
    set_hand(state, ANTIOCH, [two])
    events = attack_with(state, ANTIOCH, A_HOMS, [two], Scripted(dice=[[1, 1], [1, 1, 1, 1]]))
    assert rolled(events, "defence")["count"] == 3 + 1


# ---------------------------------------------------------------- 2.4, 3 and 5

def test_the_1_and_2_player_map_numbers_its_areas_1_to_14_with_victory_points():
    """§2.4: "En la versión de 1 y 2 jugadores, cada área también tiene un número de identificación del 1 al 14,
    y los puntos de victoria que los jugadores ganan al final de la partida." Every area also has its shield:
    "Cada una de ellas tiene un número dentro de un escudo que indica su valor defensivo."""
    for players in (1, 2):
        board = default_map(players)
        assert sorted(area["id"] for area in board["areas"]) == list(range(1, 15))
        assert all(area["vp"] >= 1 and area["defence"] >= 1 for area in board["areas"])
    assert all(area["defence"] >= 1 for area in default_map(4)["areas"])


def test_the_game_has_three_turns_and_the_marker_advances_when_everyone_has_passed():
    """§3: "El juego se divide en 3 turnos"; §5: "Las cartas se jugarán en el orden descrito hasta que todos los
    jugadores, consecutivamente, pasen. Luego, el marcador de turno avanza una posición"."""
    state, rng = table(4)
    seen = [state["turn"]]
    while state["status"] == "active":
        turn = state["turn"]
        pass_all(state, rng)
        assert state["turn"] == turn + 1 or state["status"] == "finished"
        seen.append(state["turn"])
    assert seen[0] == 1 and max(seen) == TURNS == 3
    assert state["status"] == "finished"
