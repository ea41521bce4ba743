"""Crusader Kingdoms rulebook sentences (shared/seeds/001_e197184e5cec8d37.txt, Spanish) not cited elsewhere."""
from __future__ import annotations

from domain.crusader_kingdoms import rules
from domain.crusader_kingdoms.data import default_map
from tests.test_crusader_helpers import pass_all, table


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
    assert seen[0] == 1 and max(seen) == rules.TURNS == 3
    assert state["status"] == "finished"
