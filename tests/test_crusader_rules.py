"""Crusader Kingdoms, one test per rulebook sentence (the Crusader Kingdoms rulebook, Spanish, by section), each quoted."""
from __future__ import annotations

import pytest

from domain.crusader_kingdoms import GAME as CRUSADER_KINGDOMS
from domain.crusader_kingdoms import decide
from domain.crusader_kingdoms.combat import flippable
from domain.crusader_kingdoms.moves import awaiting, legal_moves
from domain.crusader_kingdoms.state import adjacent, new_state, owned
from domain.crusader_kingdoms.views import view
from domain.errors import IllegalMove
from tests.helpers.crusader import (
    A_ALEPPO,
    A_ANTIOCH,
    A_DAMASCUS,
    A_EDESSA,
    A_HOMS,
    A_JERUSALEM,
    A_LATAKIA,
    A_SHAIZAR,
    A_TRIPOLI,
    ALEPPO,
    ANTIOCH,
    DAMASCUS,
    JERUSALEM,
    Scripted,
    cards_of,
    empty_hands,
    pass_all,
    play,
    set_area,
    set_hand,
    set_round,
    table,
    troops,
    types,
)

# ---------------------------------------------------------------- 4.2: the worked combat example

def test_worked_combat_example_of_section_4_2():
    """4.2 "Antioquia lanza 5 dados en total, obteniendo los resultados 1, 3, 4, 4 y 6, que son un total de 3
    impactos. Damasco lanza 4 dados (3 por el valor defensivo del área, y +1 por el castillo), obteniendo los
    resultados 1, 1, 2 y 3, luego, gracias a la carta "Líder", agrega 2 puntos a la tirada 2, y 1 punto a la
    tirada de 3, terminando con un resultado de 1, 1, 4 y 4 que en total son 2 impactos. Damasco ha perdido el
    combate; el castillo +1 es reemplazado por un castillo del Principado de Antioquía (por su lado regular) y
    reduce su Bonus de Carta de 0 a -1. Antioquía aumenta su Bonus de 1 a 2"."""
    rng = Scripted(dice=[[1, 3, 4, 4, 6], [1, 1, 2, 3]])
    state, _ = table(4)
    empty_hands(state)
    two, three = troops(state, "christian", 2, 3)
    leader = cards_of(state, "leader", "muslim")[0]
    set_hand(state, ANTIOCH, [two, three])
    set_hand(state, DAMASCUS, [leader])
    set_area(state, A_HOMS, DAMASCUS, plus=True)
    state["kingdoms"][ANTIOCH]["bonus"] = 1
    set_round(state, ANTIOCH)
    assert A_LATAKIA in adjacent(state, A_HOMS)

    play(state, ANTIOCH, {"type": "attack", "area": A_HOMS}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": two}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": three}, rng)
    play(state, ANTIOCH, {"type": "pass"}, rng)
    assert awaiting(state) == DAMASCUS
    assert flippable(state) == []  # "No hay castillos +1 del defensor adyacentes a la zona atacada"
    play(state, DAMASCUS, {"type": "respond", "card": leader, "side": "defence"}, rng)
    events = play(state, DAMASCUS, {"type": "pass"}, rng)
    rolls = {p["side"]: p for kind, p in events if kind == "DiceRolled"}
    assert rolls["attack"]["count"] == 5 and rolls["attack"]["random"][0]["result"] == [1, 3, 4, 4, 6]
    assert rolls["defence"]["count"] == 4 and rolls["defence"]["random"][0]["result"] == [1, 1, 2, 3]
    assert awaiting(state) == DAMASCUS and state["attack"]["stage"] == "leaders"
    play(state, DAMASCUS, {"type": "leader_point", "die": 2}, rng)
    play(state, DAMASCUS, {"type": "leader_point", "die": 2}, rng)
    assert state["attack"]["dice"]["defence"] == [1, 1, 4, 3]
    events = play(state, DAMASCUS, {"type": "leader_point", "die": 3}, rng)
    resolved = dict(events)["CombatResolved"]
    assert (resolved["attack_hits"], resolved["defence_hits"], resolved["winner"]) == (3, 2, "attack")
    assert state["areas"][str(A_HOMS)] == {"owner": ANTIOCH, "castle": True, "plus": False}
    assert state["kingdoms"][DAMASCUS]["bonus"] == -1
    assert awaiting(state) == ANTIOCH
    assert {"type": "reward_bonus"} in legal_moves(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "reward_bonus"}, rng)
    assert state["kingdoms"][ANTIOCH]["bonus"] == 2
    # 4.1.7 "Las cartas utilizadas se pierden y van a la pila de descartadas."
    assert {two, three} <= set(state["discards"]["christian"]) and leader in state["discards"]["muslim"]


# ---------------------------------------------------------------- 6: the card bonus example

def test_card_bonus_example_of_section_6():
    """6 "Un jugador con el Bonus de carta en +1, que ha guardado dos cartas del turno anterior, robará 7 cartas
    en total (8 +1 Bonus, -2 que guardó). Comenzará con 9 cartas (7 que se ha robado +2 que había guardado
    anteriormente) y con el Bonus nuevamente en 0." """
    state, rng = table(4)
    kept = state["kingdoms"][JERUSALEM]["hand"][:2]
    set_hand(state, JERUSALEM, kept)
    state["kingdoms"][JERUSALEM]["bonus"] = 1
    events = pass_all(state, rng)
    drawn = next(p for kind, p in events if kind == "CardsDrawn" and p["seat"] == JERUSALEM)
    assert len(drawn["cards"]) == 7 and drawn["kept"] == 2
    assert len(state["kingdoms"][JERUSALEM]["hand"]) == 9
    assert set(kept) <= set(state["kingdoms"][JERUSALEM]["hand"])
    assert state["kingdoms"][JERUSALEM]["bonus"] == 0


# ---------------------------------------------------------------- 3: how a turn goes

def test_each_kingdom_draws_from_its_religions_deck():
    """3.1 "De acuerdo con la religión de su reino, cada jugador roba el número apropiado de cartas [...] de la
    baraja musulmana o cristiana." (7.1: 8 cards each, Saladin 12.)"""
    for players, counts in ((4, [8, 8, 8, 8]), (3, [12, 8, 8])):
        state, _ = table(players)
        for k, kingdom in enumerate(state["kingdoms"]):
            assert len(kingdom["hand"]) == counts[k]
            assert {state["cards"][c]["deck"] for c in kingdom["hand"]} == {kingdom["religion"]}


def test_bonus_markers_reset_after_the_draw():
    """3.2 "Los marcadores de Bonus de carta se ponen a 0." """
    state, rng = table(4)
    state["kingdoms"][DAMASCUS]["bonus"] = -2
    state["kingdoms"][ALEPPO]["bonus"] = 2
    events = pass_all(state, rng)
    assert types(events).index("BonusReset") > max(i for i, t in enumerate(types(events)) if t == "CardsDrawn")
    assert all(k["bonus"] == 0 for k in state["kingdoms"])


def test_rounds_start_with_the_first_player_of_the_table_and_follow_its_order():
    """3.3 "Comenzando con el primer jugador que aparece en la tabla de despliegue, y siguiendo ese orden, los
    jugadores pueden realizar una (y solo una) de las acciones enumeradas." """
    state, rng = table(4)
    assert state["current"] == DAMASCUS and state["kingdoms"][DAMASCUS]["name"] == "Emirate of Damascus"
    order = []
    for _ in range(4):
        order.append(awaiting(state))
        card_id = state["kingdoms"][order[-1]]["hand"][0]
        play(state, order[-1], {"type": "discard", "card": card_id}, rng)
    assert order == [DAMASCUS, JERUSALEM, ANTIOCH, ALEPPO] and awaiting(state) == DAMASCUS
    events = pass_all(state, rng)
    assert dict(events)["RoundStarted"] == {"seat": 0, "slot": 0}


def test_the_turn_ends_only_when_every_player_passes_consecutively():
    """3.4 "Los jugadores realizan acciones siguiendo el orden marcado en la tabla de despliegue hasta que,
    consecutivamente, todos han realizado la acción de Pasar." """
    state, rng = table(4)
    for seat in (0, 1, 2):
        play(state, seat, {"type": "pass"}, rng)
    play(state, 3, {"type": "discard", "card": state["kingdoms"][3]["hand"][0]}, rng)
    for seat in (0, 1, 2):
        play(state, seat, {"type": "pass"}, rng)
    assert state["turn"] == 1
    events = play(state, 3, {"type": "pass"}, rng)
    assert "TurnEnded" in types(events) and state["turn"] == 2


# ---------------------------------------------------------------- 4.1: attack

def test_attack_only_a_border_area_of_another_player_or_independent():
    """4 "Ataque: el jugador selecciona un área fronteriza (es decir, un área conectada a una que él controla)";
    4.1.1 "que debe pertenecer a otro jugador o ser un reino independiente". """
    state, _ = table(4)
    set_round(state, ANTIOCH)
    attacks = {m["area"] for m in legal_moves(state, ANTIOCH) if m["type"] == "attack"}
    border = {b for a in (A_ANTIOCH, A_LATAKIA) for b in adjacent(state, a)} - {A_ANTIOCH, A_LATAKIA}
    assert attacks == border
    with pytest.raises(IllegalMove, match="bordering"):
        decide.decide(state, ANTIOCH, {"type": "attack", "area": A_JERUSALEM}, Scripted())


def test_a_kingdom_without_areas_attacks_only_its_deployment_areas():
    """4.1.1 "(Si el jugador no controla ningún área, solo puede atacar una de sus áreas de despliegue)." """
    state, _ = table(4)
    set_area(state, A_ANTIOCH, ALEPPO)
    set_area(state, A_LATAKIA, None)
    set_round(state, ANTIOCH)
    attacks = {m["area"] for m in legal_moves(state, ANTIOCH) if m["type"] == "attack"}
    assert attacks == {A_ANTIOCH, A_LATAKIA}


def test_attack_cards_are_committed_face_down():
    """4.1.2 "Luego pondrá boca abajo sobre la mesa, todas las cartas de Tropa de su mano que quiera, y
    opcionalmente de Respuesta (siempre que el texto de la carta lo permita)." """
    state, rng = table(4)
    empty_hands(state)
    troop = troops(state, "christian", 2)[0]
    leader, turcopoles = cards_of(state, "leader", "christian")[0], cards_of(state, "defence_dice", "christian")[0]
    set_hand(state, ANTIOCH, [troop, leader, turcopoles])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_SHAIZAR}, rng)
    options = legal_moves(state, ANTIOCH)
    assert {"type": "commit", "card": leader} in options and {"type": "commit", "card": turcopoles} not in options
    assert {"type": "pass"} not in options  # no die yet: no troop down, no event, no face-up card (C2)
    play(state, ANTIOCH, {"type": "commit", "card": leader}, rng)
    assert {"type": "pass"} not in legal_moves(state, ANTIOCH)  # a Leader adds no die
    events = play(state, ANTIOCH, {"type": "commit", "card": troop}, rng)
    assert {"type": "pass"} in legal_moves(state, ANTIOCH)
    assert "card" not in CRUSADER_KINGDOMS.redact(*events[0], DAMASCUS) and "card" in CRUSADER_KINGDOMS.redact(*events[0], ANTIOCH)
    assert view(state, DAMASCUS)["attack"]["attack"] == [{"owner": ANTIOCH, "hidden": True}] * 2


def test_any_player_may_add_responses_to_either_side():
    """4.1.3 "Cualquier jugador (aunque generalmente será el propietario del área objetivo del ataque) puede
    colocar (boca abajo) las cartas de Respuesta que desee, tanto en ataque como en defensa del área." """
    state, rng = table(4)
    empty_hands(state)
    troop = troops(state, "christian", 2)[0]
    leader = cards_of(state, "leader", "christian")[0]
    set_hand(state, ANTIOCH, [troop])
    set_hand(state, JERUSALEM, [leader])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_ALEPPO}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": troop}, rng)
    play(state, ANTIOCH, {"type": "pass"}, rng)
    assert awaiting(state) == JERUSALEM
    options = legal_moves(state, JERUSALEM)
    assert {"type": "respond", "card": leader, "side": "attack"} in options
    assert {"type": "respond", "card": leader, "side": "defence"} in options


def test_the_defender_flips_adjacent_plus_castles_for_extra_dice():
    """4.1.4 "El defensor puede girar uno o más de sus castillos +1 adyacentes al área atacada, para obtener
    dados adicionales en defensa (1 dado por castillo girado)." 4.2 "+1 por cada castillo +1 adyacente que gire
    a su lado regular". """
    rng = Scripted(dice=[[1, 1], [1, 1, 1]])
    state, _ = table(4)
    empty_hands(state)
    troop = troops(state, "christian", 2)[0]
    set_hand(state, ANTIOCH, [troop])
    set_area(state, A_SHAIZAR, ALEPPO)
    set_area(state, A_ALEPPO, ALEPPO, plus=True)
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_SHAIZAR}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": troop}, rng)
    play(state, ANTIOCH, {"type": "pass"}, rng)
    assert awaiting(state) == ALEPPO
    assert legal_moves(state, ALEPPO) == [{"type": "turn_castle", "area": A_ALEPPO}, {"type": "pass"}]
    events = play(state, ALEPPO, {"type": "turn_castle", "area": A_ALEPPO}, rng)
    defence = next(p for kind, p in events if kind == "DiceRolled" and p["side"] == "defence")
    assert defence["count"] == 2 + 1  # Shaizar's defence 2 (its castle is regular) + 1 flipped castle
    assert state["areas"][str(A_ALEPPO)]["plus"] is False


def test_a_tie_goes_to_the_defender():
    """4.2 "Si el atacante hace más impactos que el defensor, el atacante gana. Si hace el mismo número o menos,
    gana el defensor." """
    rng = Scripted(dice=[[6, 1], [5, 1]])
    state, _ = table(4)
    empty_hands(state)
    a, b = troops(state, "christian", 1, 1)
    set_hand(state, ANTIOCH, [a, b])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_SHAIZAR}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": a}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": b}, rng)
    events = play(state, ANTIOCH, {"type": "pass"}, rng)
    assert dict(events)["CombatResolved"]["winner"] == "defence"
    assert state["areas"][str(A_SHAIZAR)]["owner"] is None
    assert state["kingdoms"][ANTIOCH]["bonus"] == 0


def test_the_server_rolls_for_an_independent_area():
    """4.2 "En el caso de un ataque a un área independiente (áreas vacías), cualquier jugador puede lanzar los
    dados por el defensor." The server rolls and records that it did."""
    state, rng = table(4)
    empty_hands(state)
    troop = troops(state, "christian", 3)[0]
    set_hand(state, ANTIOCH, [troop])
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_SHAIZAR}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": troop}, rng)
    events = play(state, ANTIOCH, {"type": "pass"}, rng)
    defence = next(p for kind, p in events if kind == "DiceRolled" and p["side"] == "defence")
    assert defence["rolled_by"] == "server" and defence["seat"] is None and defence["count"] == 2


def test_conquest_choice_and_bonus_clamping():
    """4.1.6 "elige entre avanzar en una posición su marcador de Bonus de carta, o girar un castillo a su lado
    +1. El defensor reduce su marcador de Bonus de carta en una posición." 6 "El Bonus no puede exceder de +2 o
    ser menos de -2 (las variaciones negativas fuera de este rango se ignoran, y las positivas se intercambian
    por castillos +1)." """
    rng = Scripted(dice=[[6, 6, 6], [1, 1, 1]])
    state, _ = table(4)
    empty_hands(state)
    troop = troops(state, "christian", 3)[0]
    set_hand(state, ANTIOCH, [troop])
    state["kingdoms"][ANTIOCH]["bonus"] = 2
    state["kingdoms"][ALEPPO]["bonus"] = -2
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": A_ALEPPO}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": troop}, rng)
    events = play(state, ANTIOCH, {"type": "pass"}, rng)
    assert state["kingdoms"][ALEPPO]["bonus"] == -2 and "BonusChanged" not in types(events)
    options = legal_moves(state, ANTIOCH)
    assert {"type": "reward_bonus"} not in options  # at +2 the advance becomes a +1 castle
    assert {m["area"] for m in options} == {A_ANTIOCH, A_LATAKIA, A_ALEPPO}
    play(state, ANTIOCH, {"type": "reward_castle", "area": A_LATAKIA}, rng)
    assert state["areas"][str(A_LATAKIA)]["plus"] and state["kingdoms"][ANTIOCH]["bonus"] == 2


def test_trade_at_plus_two_turns_a_castle_instead():
    """6 "las positivas se intercambian por castillos +1" (an event raising the bonus past +2)."""
    state, rng = table(4)
    trade = cards_of(state, "bonus_up", "christian")[0]
    set_hand(state, ANTIOCH, [trade])
    state["kingdoms"][ANTIOCH]["bonus"] = 2
    set_round(state, ANTIOCH)
    options = [m for m in legal_moves(state, ANTIOCH) if m.get("card") == trade and m["type"] == "play"]
    assert options == [{"type": "play", "card": trade, "area": A_ANTIOCH},
                       {"type": "play", "card": trade, "area": A_LATAKIA}]
    play(state, ANTIOCH, options[0], rng)
    assert state["areas"][str(A_ANTIOCH)]["plus"] and state["kingdoms"][ANTIOCH]["bonus"] == 2


# ---------------------------------------------------------------- 4.3-4.6

def test_incursion_discards_a_troop_and_rolls_one_die():
    """4.3 "El jugador selecciona un oponente con el que hace frontera (al menos un área conectada), y descarta
    una de sus cartas de Tropa a su elección, luego lanza un dado: con un resultado de 4, 5 o 6, el oponente
    descarta una carta al azar." """
    state, _ = table(4)
    troop = troops(state, "christian", 1)[0]
    set_hand(state, ANTIOCH, [troop])
    set_round(state, ANTIOCH)
    targets = {m["target"] for m in legal_moves(state, ANTIOCH) if m["type"] == "incursion"}
    assert targets == {DAMASCUS, ALEPPO}  # Latakia borders Homs; Antioch and Turbessel border Aleppo
    before = list(state["kingdoms"][ALEPPO]["hand"])
    events = play(state, ANTIOCH, {"type": "incursion", "card": troop, "target": ALEPPO}, Scripted(dice=[[4]],
                                                                                           choices=[2]))
    assert types(events)[:2] == ["IncursionMade", "RandomCardDiscarded"]
    lost = dict(events)["RandomCardDiscarded"]
    assert lost["card"]["id"] == before[2] and lost["random"][0]["kind"] == "choice"
    assert troop in state["discards"]["christian"]
    state2, _ = table(4)
    set_hand(state2, ANTIOCH, [troop])
    set_round(state2, ANTIOCH)
    events = play(state2, ANTIOCH, {"type": "incursion", "card": troop, "target": ALEPPO}, Scripted(dice=[[3]]))
    assert "RandomCardDiscarded" not in types(events)


def test_the_troop_paid_for_an_incursion_is_shown_to_every_seat():
    """RULINGS C8: 4.3's Troop, discarded "a su elección" as the incursion's price, is not put face down as 4.5's
    discard is ("El jugador descarta una de sus cartas boca abajo"): every seat and a spectator see which it was."""
    state, _ = table(4)
    troop = troops(state, "christian", 1)[0]
    set_hand(state, ANTIOCH, [troop])
    set_round(state, ANTIOCH)
    events = play(state, ANTIOCH, {"type": "incursion", "card": troop, "target": ALEPPO}, Scripted(dice=[[3]]))
    made = dict(events)["IncursionMade"]
    for viewer in (ALEPPO, DAMASCUS, None):
        assert CRUSADER_KINGDOMS.redact("IncursionMade", made, viewer)["card"]["id"] == troop


def test_persistent_events_stay_face_up_others_are_discarded():
    """4.4 "Si el evento está marcado con 'P', se mantiene boca arriba para recordar que su efecto dura todo el
    turno. Si no, lo descarta después de jugarlo." """
    state, rng = table(4)
    mercenaries = next(c["id"] for c in state["cards"] if c["name"] == "Mercenaries")
    trade = cards_of(state, "bonus_up", "muslim")[0]
    set_hand(state, DAMASCUS, [mercenaries, trade])
    set_round(state, DAMASCUS)
    play(state, DAMASCUS, {"type": "play", "card": mercenaries}, rng)
    assert state["kingdoms"][DAMASCUS]["persistent"] == [mercenaries]
    set_round(state, DAMASCUS)
    play(state, DAMASCUS, {"type": "play", "card": trade}, rng)
    assert trade in state["discards"]["muslim"] and state["kingdoms"][DAMASCUS]["bonus"] == 1


def test_an_event_can_lead_to_an_attack():
    """4.4 "Algunos eventos resultan en un ataque, en esos casos se procede como se describe en 4.1 Ataque." """
    state, rng = table(4)
    campaign = next(c["id"] for c in state["cards"] if c["name"] == "Minor Campaign")
    set_hand(state, DAMASCUS, [campaign])
    set_round(state, DAMASCUS)
    events = play(state, DAMASCUS, {"type": "play", "card": campaign, "area": 11}, rng)
    assert types(events) == ["EventPlayed", "AttackDeclared"]
    assert state["attack"]["extra"] == 1 and legal_moves(state, DAMASCUS) == [{"type": "pass"}]


def test_discard_is_face_down():
    """4.5 "El jugador descarta una de sus cartas boca abajo." """
    state, rng = table(4)
    card_id = state["kingdoms"][DAMASCUS]["hand"][0]
    events = play(state, DAMASCUS, {"type": "discard", "card": card_id}, rng)
    assert "card" not in CRUSADER_KINGDOMS.redact(*events[0], JERUSALEM) and CRUSADER_KINGDOMS.redact(*events[0], DAMASCUS)["card"]
    assert card_id in state["discards"]["muslim"]


def test_players_without_cards_can_only_pass():
    """4.6 "Los jugadores sin cartas solo pueden hacer esta acción." """
    state, _ = table(4)
    set_hand(state, DAMASCUS, [])
    assert legal_moves(state, DAMASCUS) == [{"type": "pass"}]


# ---------------------------------------------------------------- 5: end of turn

def test_end_of_turn_reshuffles_each_deck_and_kept_cards_carry_over():
    """5 "las cartas descartadas, no jugadas y 'P' se barajan juntas (barajas cristianas y musulmanas por
    separado)." "cuando termina el turno, algunos jugadores pueden tener cartas en la mano, que guardarán para
    el siguiente turno." """
    state, rng = table(4)
    mercenaries = next(c["id"] for c in state["cards"] if c["name"] == "Mercenaries")
    set_hand(state, DAMASCUS, [mercenaries] + state["kingdoms"][DAMASCUS]["hand"][:3])
    kept = list(state["kingdoms"][JERUSALEM]["hand"])
    play(state, DAMASCUS, {"type": "play", "card": mercenaries}, rng)
    events = pass_all(state, rng)
    shuffles = [p for kind, p in events if kind == "DeckReshuffled"]
    assert [p["deck"] for p in shuffles] == ["christian", "muslim"]
    muslim = shuffles[1]["random"][0]["input"]
    assert mercenaries in muslim and all(state["cards"][c]["deck"] == "muslim" for c in muslim)
    assert set(kept) <= set(state["kingdoms"][JERUSALEM]["hand"])
    assert state["kingdoms"][DAMASCUS]["persistent"] == []


# ---------------------------------------------------------------- 7: three and four players

def test_deployment_of_three_and_four_players():
    """7.1 "Los jugadores colocan uno de sus castillos disponibles (en su lado regular) en cada una de sus áreas
    de inicio. Las áreas vacías son reinos independientes." """
    state, _ = table(4)
    assert owned(state, DAMASCUS) == [A_HOMS, A_DAMASCUS]
    assert owned(state, ALEPPO) == [A_EDESSA, A_ALEPPO]
    assert state["kingdoms"][DAMASCUS]["supply"] == 5
    assert state["areas"][str(A_SHAIZAR)]["owner"] is None
    three, _ = table(3)
    assert owned(three, 0) == [A_EDESSA, A_ALEPPO, A_HOMS, A_DAMASCUS]
    assert three["kingdoms"][0]["castles"] == 9


def test_christians_may_not_attack_each_other_with_three_players():
    """7.2 "Cristianos no pueden hacerse entre ellos la acción de Ataque." """
    state, _ = table(3)
    set_area(state, A_TRIPOLI, 1)
    set_round(state, 2)
    assert A_TRIPOLI not in {m["area"] for m in legal_moves(state, 2) if m["type"] == "attack"}
    four, _ = table(4)
    set_area(four, A_TRIPOLI, JERUSALEM)
    set_round(four, ANTIOCH)
    assert A_TRIPOLI in {m["area"] for m in legal_moves(four, ANTIOCH) if m["type"] == "attack"}


def test_sudden_victory_with_every_castle_on_the_map():
    """7.3 "Victoria repentina, cuando un jugador tiene todos sus castillos iniciales colocados en el mapa, gana
    inmediatamente." """
    rng = Scripted(dice=[[6, 6, 6], [1, 1]])
    state, _ = table(4)
    empty_hands(state)
    troop = troops(state, "christian", 3)[0]
    set_hand(state, ANTIOCH, [troop])
    for area in (2, 6, 7, 8):
        set_area(state, area, ANTIOCH)
    assert state["kingdoms"][ANTIOCH]["supply"] == 1
    set_round(state, ANTIOCH)
    play(state, ANTIOCH, {"type": "attack", "area": 11}, rng)
    play(state, ANTIOCH, {"type": "commit", "card": troop}, rng)
    events = play(state, ANTIOCH, {"type": "pass"}, rng)
    finished = dict(events)["MatchFinished"]
    assert finished["reason"] == "sudden" and state["winner"] == ANTIOCH and state["status"] == "finished"


def test_most_castles_after_turn_three_tie_broken_by_bonus():
    """7.3 "Final del 3er turno, gana el jugador con más castillos en el mapa. En caso de empate, el jugador (o
    jugadores) con el nivel más alto de Bonus de carta." """
    state, rng = table(4)
    pass_all(state, rng)
    pass_all(state, rng)
    set_area(state, A_SHAIZAR, ANTIOCH)
    set_area(state, 18, JERUSALEM)
    state["kingdoms"][JERUSALEM]["bonus"] = 1
    events = pass_all(state, rng)
    finished = dict(events)["MatchFinished"]
    assert finished["castles"] == [2, 3, 3, 2] and state["winners"] == [JERUSALEM]
    state, rng = table(4)
    pass_all(state, rng)
    pass_all(state, rng)
    set_area(state, A_SHAIZAR, ANTIOCH)
    set_area(state, 18, JERUSALEM)
    pass_all(state, rng)
    assert state["winners"] == [JERUSALEM, ANTIOCH] and state["winner"] is None


# ---------------------------------------------------------------- 8: one and two players

def test_solo_and_coop_deployment_and_removed_cards():
    """8.1 "Las áreas vacías se consideran musulmanas"; "Baraja musulmana. Retirar una carta de tropa de valor 4
    y los eventos; Mercenarios, Campaña de menor, Judíos, Sucesión, Atalayas y Tregua. Baraja cristiana. Retirar
    las cartas; Ataque conjunto, Asesinos, Trovadores y Espías." """
    state, _ = table(1)
    assert owned(state, 0) == [13] and len(owned(state, 1)) == 13
    removed = sorted(state["cards"][c]["name"] for c in state["removed"]["muslim"])
    assert removed == sorted(["Troop 4", "Mercenaries", "Minor Campaign", "Jews", "Succession", "Watchtowers",
                              "Truce"])
    assert sorted(state["cards"][c]["name"] for c in state["removed"]["christian"]) == sorted(
        ["Joint Attack", "Assassins", "Troubadours", "Spies"])
    coop, _ = table(2)
    assert owned(coop, 0) == [5] and owned(coop, 1) == [10]
    assert [len(k["hand"]) for k in coop["kingdoms"]] == [8, 8, 8]


def test_coop_bonus_does_not_move_with_conquest():
    """8.2 "Bonus de carta. Solo se puede aumentar o reducir con cartas de Evento, y no conquistando o perdiendo
    áreas (tampoco se puede aplicar girando castillos a su lado +1)." """
    rng = Scripted(dice=[[6, 6, 6], [1, 1]])
    state, _ = table(1)
    empty_hands(state)
    troop = troops(state, "christian", 3)[0]
    set_hand(state, 0, [troop])
    set_round(state, 0)
    play(state, 0, {"type": "attack", "area": 14}, rng)
    play(state, 0, {"type": "commit", "card": troop}, rng)
    events = play(state, 0, {"type": "pass"}, rng)
    assert "AreaConquered" in types(events) and "BonusChanged" not in types(events)
    assert state["areas"]["14"]["owner"] == 0 and state["kingdoms"][0]["bonus"] == 0


def test_a_crusader_who_passes_is_out_but_the_muslims_play_on():
    """8.2 "Pasar. Si un jugador pasa, ya no puede jugar [...] Los musulmanes, sin embargo, continúan jugando
    todas sus cartas." """
    state, rng = table(1)
    set_hand(state, 0, [])
    events = play(state, 0, {"type": "pass"}, rng)
    revealed = [p for kind, p in events if kind == "MuslimCardRevealed" and p["source"] == "turn"]
    assert len(revealed) == 8 and state["turn"] == 2  # all of them, then the turn ended
    assert awaiting(state) == 0


def test_coop_muslim_round_follows_each_players_round():
    """8.2 "En la versión para 2 jugadores, cada jugador juega una ronda musulmana después de hacer su ronda
    (alternan rondas con cada jugador cristiano)." """
    state, rng = table(2)
    events = play(state, 0, {"type": "discard", "card": state["kingdoms"][0]["hand"][0]}, rng)
    rounds = [p for kind, p in events if kind == "RoundStarted"]
    assert rounds[0] == {"seat": 2, "slot": 0} and rounds[-1] == {"seat": 1, "slot": 1}
    events = play(state, 1, {"type": "discard", "card": state["kingdoms"][1]["hand"][0]}, rng)
    rounds = [p for kind, p in events if kind == "RoundStarted"]
    assert rounds[0] == {"seat": 2, "slot": 1} and rounds[-1] == {"seat": 0, "slot": 0}


def _muslim_hand(state, cards):
    set_hand(state, len(state["players"]), cards)


def muslim_round(state, cards, crusader_hand=(), rng=None):
    """The solo crusader discards (staying in play) and the Muslims play exactly these cards, one round."""
    filler = next(c["id"] for c in state["cards"] if c["deck"] == "christian" and c["id"] not in crusader_hand)
    set_hand(state, 0, [*crusader_hand, filler])
    _muslim_hand(state, cards)
    set_round(state, 0)
    return play(state, 0, {"type": "discard", "card": filler}, rng or Scripted())


def test_muslim_troops_form_an_army_that_attacks_on_a_low_roll():
    """8.3 "Tropa. Se dejan boca arriba en la mesa y se van uniendo a otras cartas de la Tropa (si las hay)
    formando un solo 'ejército'." "Después de jugar la carta, si tienen un 'ejército' en la mesa, lanzan un
    dado; si el resultado es menor que la suma de los puntos de la tropa del ejército, atacan el área adyacente
    (controlada por el jugador cruzado en ronda) con el número de identificación más bajo." """
    state, _ = table(2)
    two_a, two_b, other = troops(state, "muslim", 2, 2, 1)
    _muslim_hand(state, [two_b, other])
    state["kingdoms"][2]["army"].append(two_a)
    set_area(state, 9, 1)  # Leopold V holds Antioch (10) and Turbessel (9), as in the 8.3 example
    set_area(state, 1, 0)  # Richard holds Jerusalem, id 1, but it is not his round
    empty_hands(state)
    _muslim_hand(state, [two_b, other])
    set_round(state, 1)
    events = play(state, 1, {"type": "pass"}, Scripted(dice=[[3], [1, 1, 1, 1]]))
    army = next(p for kind, p in events if kind == "ArmyRolled")
    assert (army["strength"], army["die"], army["area"]) == (4, 3, 9)  # "ataca Turbessel": Turbessel (9)
    attack = next(p for kind, p in events if kind == "AttackDeclared")
    assert attack["defender"] == 1 and [c["id"] for c in attack["army"]] == [two_a, two_b]


def test_muslims_do_not_roll_when_christians_hold_no_area():
    """8.3 "Los musulmanes no tiran para activar su ejército si los cristianos no controlan ningún área." """
    state, _ = table(1)
    set_area(state, 13, 1, castle=False)
    troop = troops(state, "muslim", 3)[0]
    empty_hands(state)
    _muslim_hand(state, [troop])
    events = play(state, 0, {"type": "pass"}, Scripted())
    assert "MuslimCardRevealed" in types(events) and "ArmyRolled" not in types(events)


def test_muslims_respond_at_once_to_three_dice():
    """8.3 "Si los cruzados realizan un ataque en el que lanzan 3 o más dados, los musulmanes responden de
    inmediato con la primera carta de respuesta disponible y, una vez utilizada, la descartan." """
    state, _ = table(1)
    empty_hands(state)
    leader = cards_of(state, "leader", "muslim")[0]
    state["kingdoms"][1]["queue"].append(leader)
    three = troops(state, "christian", 3)[0]
    set_hand(state, 0, [three])
    set_round(state, 0)
    rng = Scripted(dice=[[4, 4, 1], [3, 2]])
    play(state, 0, {"type": "attack", "area": 14}, rng)
    play(state, 0, {"type": "commit", "card": three}, rng)
    events = play(state, 0, {"type": "pass"}, rng)
    assert dict(events)["MuslimResponded"]["card"]["id"] == leader
    points = [p for kind, p in events if kind == "LeaderPointAdded"]
    assert [p["value"] for p in points] == [4, 3, 4]  # the automated Leader makes the cheapest hits
    assert dict(events)["CombatResolved"]["winner"] == "defence"
    assert leader in state["discards"]["muslim"] and state["kingdoms"][1]["queue"] == []


def test_muslims_keep_table_cards_and_draw_without_the_kept_reduction():
    """8.3 "Si el turno termina y los musulmanes tienen cartas de Respuesta o Tropa boca arriba sobre la mesa que
    no han podido usar, las arrastran al siguiente turno. A diferencia de los jugadores, los musulmanes no reducen
    las cartas que roban por el número de cartas guardadas del turno anterior." """
    state, _ = table(1)
    leader = cards_of(state, "leader", "muslim")[0]
    state["kingdoms"][1]["queue"].append(leader)
    set_area(state, 13, 1, castle=False)
    events = play(state, 0, {"type": "pass"}, Scripted())
    drawn = next(p for kind, p in events if kind == "CardsDrawn" and p["seat"] == 1)
    assert len(drawn["cards"]) == 8 and drawn["kept"] == 0
    assert leader in state["kingdoms"][1]["queue"]


def test_muslim_leader_joins_an_army_or_waits_as_a_response():
    """8.4 "Líder. Si hay un ejército musulmán en la mesa, se le agrega, de lo contrario se juega como otras
    cartas de respuesta." """
    state, _ = table(1)
    leaders = cards_of(state, "leader", "muslim")
    set_area(state, 13, 1, castle=False)
    empty_hands(state)
    _muslim_hand(state, [leaders[0]])
    play(state, 0, {"type": "pass"}, Scripted())
    assert leaders[0] in state["kingdoms"][1]["queue"]
    state, _ = table(1)
    set_area(state, 13, 1, castle=False)
    empty_hands(state)
    state["kingdoms"][1]["army"].append(troops(state, "muslim", 1)[0])
    _muslim_hand(state, [leaders[1]])
    play(state, 0, {"type": "pass"}, Scripted())
    assert leaders[1] in state["kingdoms"][1]["army"]


def test_muslim_regrouping_keeps_the_strongest_troop():
    """8.4 "Reagrupamiento. Si hay un ejército musulmán en la mesa, se le agrega, de lo contrario se descarta.
    Después de un ataque, la carta de Tropa con el valor más alto permanecerá en la mesa." """
    state, _ = table(1)
    regroup = cards_of(state, "regroup", "muslim")
    one, three = troops(state, "muslim", 1, 3)
    empty_hands(state)
    muslim_round(state, [regroup[0]])
    assert regroup[0] in state["discards"]["muslim"]
    state, _ = table(1)
    empty_hands(state)
    state["kingdoms"][1]["army"] += [one, three]
    set_hand(state, 0, [])
    _muslim_hand(state, [regroup[1]])
    events = play(state, 0, {"type": "pass"}, Scripted(dice=[[1], [1, 1, 1, 1], [1, 1]]))
    assert "AttackDeclared" in types(events)
    assert dict(events)["AttackCardsDiscarded"]["returned"]["id"] == three
    assert one in [c["id"] for c in dict(events)["AttackCardsDiscarded"]["cards"]]
    assert three in state["kingdoms"][1]["army"]  # and it is carried over to the next turn
    assert state["turn"] == 2


def test_muslim_walls_go_to_the_lowest_muslim_area():
    """8.4 "Murallas. Se colocan en el área musulmana con el número de identificación más bajo posible." """
    state, _ = table(1)
    walls = cards_of(state, "walls", "muslim")[0]
    empty_hands(state)
    muslim_round(state, [walls])
    assert state["areas"]["1"] == {"owner": 1, "castle": True, "plus": True}
    assert state["kingdoms"][1]["supply"] == 6


def test_muslim_trade_raises_their_bonus():
    """8.4 "Comercio. Incrementa en 1 el Bonus de Carta musulmán y se descarta" """
    state, _ = table(1)
    trade = cards_of(state, "bonus_up", "muslim")[0]
    empty_hands(state)
    events = muslim_round(state, [trade])
    assert dict(events)["BonusChanged"] == {"seat": 1, "delta": 1, "bonus": 1, "reason": "event"}
    assert trade in state["discards"]["muslim"]


def test_muslim_seduction_deploys_a_christian_card():
    """8.4 "Seducción. Si la carta cristiana extraída es de Tropa o de Respuesta, se despliega inmediatamente
    sobre la mesa como si fuera una carta musulmana. Si es una carta de Evento y los musulmanes pueden jugarla a
    su favor, lo hacen inmediatamente, si no pueden la descartan." """
    state, _ = table(1)
    seduction = cards_of(state, "steal", "muslim")[0]
    troop = troops(state, "christian", 2)[0]
    empty_hands(state)
    events = muslim_round(state, [seduction], [troop], Scripted(choices=[0], dice=[[6]]))
    assert dict(events)["CardTaken"]["card"]["id"] == troop
    assert troop in state["kingdoms"][1]["army"] and dict(events)["ArmyRolled"]["strength"] == 2
    state, _ = table(1)
    trade = cards_of(state, "bonus_up", "christian")[0]
    empty_hands(state)
    events = muslim_round(state, [seduction], [trade], Scripted(choices=[0]))
    assert state["kingdoms"][1]["bonus"] == 1 and trade in state["discards"]["christian"]
    assert [p["placed"] for kind, p in events if kind == "MuslimCardRevealed"] == ["event", "event"]


def test_victory_points_and_levels():
    """8.5 "Al final del último turno, los cruzados ganan puntos de victoria por las áreas que controlan. También
    suman o restan tantos PVs como la diferencia entre su Bonus de carta y el de los musulmanes" — "15 o más
    PVs. Victoria", "11 a 14 PVs. Victoria marginal", "10 o menos PVs. Derrota". """
    for areas, bonus, level in (([1, 10, 2, 5], 0, "victory"), ([1, 10, 13], 1, "marginal_victory"),
                                ([1], 1, "defeat")):
        state, rng = table(1)
        for a in areas:
            set_area(state, a, 0)
        state["turn"] = 3
        state["kingdoms"][0]["bonus"] = bonus
        state["kingdoms"][1]["bonus"] = 0
        empty_hands(state)
        events = play(state, 0, {"type": "pass"}, rng)
        finished = dict(events)["MatchFinished"]
        vp = sum(state["map"]["areas"][str(a)]["vp"] for a in set(areas) | {13}) + bonus
        assert finished["vp"] == vp and finished["level"] == level
        assert state["winners"] == ([] if level == "defeat" else [0])


# ---------------------------------------------------------------- data files

def test_invalid_map_or_decks_are_refused_with_a_clear_message():
    """Maps and decks (pictures in the rulebook) are validated data: a broken file is refused, saying why."""
    created = {"players": ["a", "b", "c", "d"], "await_client_seeds": False}
    with pytest.raises(IllegalMove, match="borders 2 but not the other way round"):
        new_state({**created, "options": {"map": {"name": "x", "areas": [
            {"id": 1, "name": "A", "defence": 1, "adjacent": [2]}, {"id": 2, "name": "B", "defence": 1,
                                                                     "adjacent": []}], "setups": {}}}})
    with pytest.raises(IllegalMove, match="invalid Crusader Kingdoms decks"):
        new_state({**created, "options": {"decks": {"christian": [{"name": "X", "effect": "nope",
                                                                    "count": 1}], "muslim": []}}})
    with pytest.raises(IllegalMove, match="card ids run 0-89"):
        new_state({**created, "options": {"decks": {"christian": [{"name": "T", "effect": "troop",
                                                                    "value": 1, "count": 50}],
                                                    "muslim": [{"name": "T", "effect": "troop", "value": 1,
                                                                "count": 50}]}}})


def test_a_match_may_bring_its_own_decks():
    """options {"decks": {...}} replaces the provisional decks, validated the same way."""
    decks = {"christian": [{"name": "Knight", "effect": "troop", "value": 2, "count": 40}],
             "muslim": [{"name": "Mamluk", "effect": "troop", "value": 3, "count": 40}]}
    state, _ = table(4, {"decks": decks})
    assert {state["cards"][c]["name"] for c in state["kingdoms"][0]["hand"]} == {"Mamluk"}
    assert len(state["cards"]) == 80 and state["decks_provisional"] is False


def test_the_default_data_is_marked_provisional():
    """Data the rulebook only shows in pictures is marked "provisional": true."""
    state, _ = table(4)
    assert state["map"]["provisional"] and state["decks_provisional"]


def test_a_short_pile_deals_what_is_left_in_table_order():
    """6 "cada jugador robará las cartas indicadas en la tabla de despliegue [...]": with too few cards in a
    religion's pile, kingdoms draw in table order and the last takes what is left (docs/RULINGS.md C11)."""
    decks = {"christian": [{"name": "Knight", "effect": "troop", "value": 2, "count": 10}],
             "muslim": [{"name": "Mamluk", "effect": "troop", "value": 3, "count": 10}]}
    state, _ = table(4, {"decks": decks})
    hands = [len(state["kingdoms"][k]["hand"]) for k in (DAMASCUS, JERUSALEM, ANTIOCH, ALEPPO)]
    assert hands == [8, 8, 2, 2]
    assert state["piles"] == {"christian": [], "muslim": []}
