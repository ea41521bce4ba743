"""A match whose position is scored now (domain/adjudication.py): time called in a tournament round, or a seat's clock
run out under on_timeout "lose". Each game's count is its ruling (RULINGS K20, C21, F10, KT8), the forfeit and the
ties are the platform's (RULINGS P1, P2); every payload is evolved into a finished match and placed as a tournament
places it (domain/tournaments/desk.py placements_of)."""
from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest
from jinja2 import Environment, FileSystemLoader

from domain.adjudication import adjudicated
from domain.crusader_kingdoms import GAME as CRUSADER_KINGDOMS
from domain.events import MatchFinished
from domain.for_a_crown import GAME as FOR_A_CROWN
from domain.for_a_crown.state import new_state as new_crown
from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.korona import GAME as KORONA
from domain.tournaments.desk import placements_of
from service.console.present import words
from tests.helpers import crusader, for_a_crown, kingdom_tcg, korona
from tests.helpers.crusader import A_SHAIZAR, ANTIOCH, JERUSALEM, set_area
from tests.helpers.for_a_crown import MONKEY, PENGUIN, RABBIT, place_portraits
from tests.helpers.korona import ANA, ARCHER, BO, CY, FARMER, FIELD, KNIGHT, STABLE, TOWER
from tests.race_game import GAME as RACE

NAMES = ["Ana", "Bo", "Cy", "Di"]


def finish(game, state: dict, reason: str, forfeited: int | None = None) -> dict:
    """The adjudicated payload, checked to leave the position alone, then evolved into the state: the match is over and
    nobody is asked to move."""
    before = copy.deepcopy(state)
    payload = adjudicated(game, state, reason, forfeited)
    assert state == before
    game.evolve(state, MatchFinished.name, payload)
    assert state["status"] == "finished" and game.awaiting(state) is None
    assert all(game.legal_moves(state, seat) == [] for seat in range(len(state["players"])))
    assert state["winners"] == payload["winners"] and state["result"]["reason"] == reason
    return payload


def placed(game, state: dict) -> list[list[str]]:
    """The finished match's placements as a tournament reads them, players named as NAMES."""
    match = SimpleNamespace(finished=True, state=state, game=game)
    return placements_of(match, NAMES[:len(state["players"])])


def told(game, payload: dict, seats: int) -> str:
    """The timeline's last sentence for the payload."""
    return MatchFinished.describe(payload, NAMES[:seats], game)


def table_html(game, state: dict) -> str:
    """The console's table of the state, as a spectator sees it."""
    env = Environment(loader=FileSystemLoader(game.table_templates))
    env.filters["words"] = words
    return env.get_template("table.html").render(view=game.view(state, None))


# ---------------------------------------------------------------- the platform (RULINGS P1, P2)

def race_table() -> dict:
    """Race to 20 (tests/race_game), a game without adjudicate, set up for Ana and Bo."""
    state = RACE.new_state({"players": NAMES[:2], "options": {}, "await_client_seeds": False})
    for kind, payload in RACE.start(state, korona.rng()):
        RACE.evolve(state, kind, payload)
    return state


def test_time_called_in_a_game_without_its_own_count_is_a_draw():
    """RULINGS P1: a game that declares no adjudication has nothing to count, so time called is a draw."""
    state = race_table()
    state["players"][ANA]["score"] = 15
    payload = finish(RACE, state, "time")
    assert payload == {"reason": "time", "winner": None, "winners": []}
    assert placed(RACE, state) == [["Ana", "Bo"]]
    assert told(RACE, payload, 2) == "The match ended with time called, with nothing to count: nobody won."


def test_a_clock_run_out_in_a_two_seat_game_gives_the_other_seat_the_win():
    """RULINGS P2: under on_timeout "lose" the seat whose clock ran out is placed last; at two seats the other wins."""
    state = race_table()
    payload = finish(RACE, state, "timeout", forfeited=ANA)
    assert payload == {"reason": "timeout", "winner": BO, "winners": [BO], "forfeited": ANA}
    assert placed(RACE, state) == [["Bo"], ["Ana"]]
    assert told(RACE, payload, 2) == "The match ended with a clock running out: Bo won."


def test_a_match_still_seating_has_no_position_to_count():
    """RULINGS P1: before every client seed is in, nothing was dealt (For a Crown has no Portrait in its Gallery)."""
    state = new_crown({"players": NAMES[:3], "options": {}, "await_client_seeds": True})
    assert adjudicated(FOR_A_CROWN, state, "time")["winners"] == []
    assert adjudicated(FOR_A_CROWN, state, "timeout", forfeited=0)["winners"] == [1, 2]


@pytest.mark.parametrize("reason, forfeited", [("time", 0), ("timeout", None), ("resigned", None)])
def test_a_forfeit_goes_with_a_clock_run_out_and_nothing_else(reason, forfeited):
    """The two reasons a position is scored now: time called (no seat forfeits) and a clock run out (one does)."""
    with pytest.raises(ValueError):
        adjudicated(RACE, race_table(), reason, forfeited)


# ---------------------------------------------------------------- Korona (RULINGS K20)

def korona_table() -> dict:
    """Ana 11 points with 2 Farmers (Knight on a Stable 9, a Field with 2 Farmers 2), Bo 7 (Archer on a Tower),
    Cy 11 with 1 Farmer (Archer on a Tower 7, a Field with a Farmer 1, a Stable 3): K1's scoring."""
    return korona.table([[], [], []], [
        [[STABLE[0], KNIGHT[0]], [FIELD[0], FARMER[0], FARMER[1]]],
        [[TOWER[1], ARCHER[1]]],
        [[TOWER[0], ARCHER[0]], [FIELD[1], FARMER[2]], [STABLE[1]]],
    ])


def test_korona_time_called_counts_the_points_a_tie_to_the_most_farmers():
    """Korona, End-game: "the player with the highest total score wins (in case of a tie, the player with the most
    Farmers wins)". RULINGS K20: the play areas are counted as if the Market had just run out."""
    state = korona_table()
    payload = finish(KORONA, state, "time")
    assert payload == {"reason": "time", "winner": ANA, "winners": [ANA], "scores": [11, 7, 11], "farmers": [2, 0, 1]}
    assert placed(KORONA, state) == [["Ana"], ["Cy"], ["Bo"]]
    assert told(KORONA, payload, 3) == "The match ended with time called, counted at 11, 11 and 7 points: Ana won."


def test_korona_seats_level_on_points_and_farmers_draw():
    """RULINGS K20 and P1: every seat tied on points and Farmers is a draw, and the table says so."""
    state = korona.table([[], []], [[[TOWER[0], ARCHER[0]]], [[TOWER[1], ARCHER[1]]]])
    payload = finish(KORONA, state, "time")
    assert payload["winners"] == [] and payload["scores"] == [7, 7]
    assert placed(KORONA, state) == [["Ana", "Bo"]]
    html = table_html(KORONA, state)
    assert "A draw: every player level on points and Farmers." in html and "Won by" not in html


def test_korona_a_clock_run_out_places_its_seat_last_whatever_its_points():
    """RULINGS P2: Ana leads, but her clock ran out: she is not counted and is placed last; Cy, then Bo."""
    state = korona_table()
    payload = finish(KORONA, state, "timeout", forfeited=ANA)
    assert payload["winners"] == [CY] and payload["scores"] == [None, 7, 11] and payload["farmers"] == [None, 0, 1]
    assert placed(KORONA, state) == [["Cy"], ["Bo"], ["Ana"]]
    assert told(KORONA, payload, 3) == "The match ended with a clock running out, the others counted at 11 to 7 " \
        "points: Cy won."


# ---------------------------------------------------------------- Crusader Kingdoms (RULINGS C21)

def crusader_table() -> dict:
    """Four players: Jerusalem and Antioch 3 castles on the map, Damascus and Aleppo 2; Jerusalem's card bonus 1."""
    state, _ = crusader.table(4)
    set_area(state, A_SHAIZAR, ANTIOCH)
    set_area(state, 18, JERUSALEM)
    state["kingdoms"][JERUSALEM]["bonus"] = 1
    return state


def test_crusader_kingdoms_time_called_counts_castles_a_tie_to_the_card_bonus():
    """Crusader Kingdoms 7.3: "gana el jugador con más castillos en el mapa. En caso de empate, el jugador (o jugadores)
    con el nivel más alto de Bonus de carta." RULINGS C21: counted as if the third turn had just ended."""
    state = crusader_table()
    payload = finish(CRUSADER_KINGDOMS, state, "time")
    assert payload == {"reason": "time", "winner": JERUSALEM, "winners": [JERUSALEM], "castles": [2, 3, 3, 2],
                       "bonus": [0, 1, 0, 0]}
    assert placed(CRUSADER_KINGDOMS, state) == [["Bo"], ["Cy"], ["Ana", "Di"]]
    assert told(CRUSADER_KINGDOMS, payload, 4) == \
        "The match ended with time called, counted at 3, 3, 2 and 2 castles on the map: Bo won."


def test_crusader_kingdoms_a_clock_run_out_leaves_the_others_counted():
    """RULINGS P2 and C21: Jerusalem's clock ran out; Antioch has the most castles of the others."""
    state = crusader_table()
    payload = finish(CRUSADER_KINGDOMS, state, "timeout", forfeited=JERUSALEM)
    assert payload["winners"] == [ANTIOCH] and payload["castles"] == [2, None, 3, 2]
    assert placed(CRUSADER_KINGDOMS, state) == [["Cy"], ["Ana", "Di"], ["Bo"]]


@pytest.mark.parametrize("players", [1, 2])
def test_crusader_kingdoms_time_called_in_the_crusade_against_the_muslims_is_a_draw(players):
    """Crusader Kingdoms 8.5 judges the crusade "al final del último turno". RULINGS C21: the crusaders play together
    against the automated Muslims, so time called before then is a draw."""
    state, _ = crusader.table(players)
    payload = finish(CRUSADER_KINGDOMS, state, "time")
    assert payload == {"reason": "time", "winner": None, "winners": []}
    assert placed(CRUSADER_KINGDOMS, state) == [NAMES[:players]]
    assert told(CRUSADER_KINGDOMS, payload, players) == \
        "The match ended with time called, with nothing to count: nobody won."


# ---------------------------------------------------------------- For a Crown (RULINGS F10)

def crown_table() -> dict:
    """Three families, Monkey's Portrait rightmost, then Penguin's, then Rabbit's; every Heirloom held (10 Rubies).
    Rabbit: 4 Rubies, the most Coins. Penguin: 5 Rubies, the most Bandits. Monkey: 4 Rubies."""
    state, _ = for_a_crown.table(3)
    place_portraits(state, {RABBIT: 0, PENGUIN: 1, MONKEY: 2})
    chests = {RABBIT: (4, 5, 0), PENGUIN: (5, 3, 2), MONKEY: (4, 3, 0)}
    for seat, (rubies, coins, bandits) in chests.items():
        state["players"][seat].update(rubies=rubies, coins=coins, bandits=bandits)
    return state


def test_for_a_crown_time_called_counts_the_rubies_as_the_end_of_the_game_would():
    """For a Crown, Koniec gry: the most influential +1 Ruby, the most Coins +1, the most Bandits -1; "Pamiątka rodowa
    jest warta 10 rubinów"; "W razie remisu wygrywa ten z remisujących graczy, który jest najbardziej wpływowy."
    RULINGS F10: Rabbit 4 + 1 + 10 = 15, Penguin 5 - 1 + 10 = 14, Monkey 4 + 1 + 10 = 15, Monkey more influential."""
    state = crown_table()
    payload = finish(FOR_A_CROWN, state, "time")
    assert payload == {"reason": "time", "winner": MONKEY, "winners": [MONKEY], "rubies": [15, 14, 15],
                       "influence": [1, 2, 3]}
    assert placed(FOR_A_CROWN, state) == [["Cy"], ["Ana"], ["Bo"]]
    assert state["players"][RABBIT]["rubies"] == 4  # counted on a copy: the chests are as they were
    assert told(FOR_A_CROWN, payload, 3) == "The match ended with time called, counted at 15, 15 and 14 Rubies: Cy won."


def test_for_a_crown_a_clock_run_out_leaves_the_others_counted():
    """RULINGS P2 and F10: Monkey's clock ran out; of the others Rabbit has the most Rubies."""
    state = crown_table()
    payload = finish(FOR_A_CROWN, state, "timeout", forfeited=MONKEY)
    assert payload["winners"] == [RABBIT] and payload["rubies"] == [15, 14, None]
    assert placed(FOR_A_CROWN, state) == [["Ana"], ["Bo"], ["Cy"]]


# ---------------------------------------------------------------- Kingdom TCG (RULINGS KT8)

def tcg_table(ana: int, bo: int) -> dict:
    """Ana and Bo at turn 1, with these levels of the other's troops defeated."""
    state, _ = kingdom_tcg.table()
    state["players"][ANA]["defeated_levels"], state["players"][BO]["defeated_levels"] = ana, bo
    return state


def test_kingdom_tcg_time_called_counts_the_levels_defeated():
    """RULINGS KT2's turn limit ("the player who defeated more troop levels wins, else a draw"), applied by KT8."""
    state = tcg_table(3, 1)
    payload = finish(KINGDOM_TCG, state, "time")
    assert payload == {"reason": "time", "winner": ANA, "winners": [ANA], "defeated": [3, 1]}
    assert placed(KINGDOM_TCG, state) == [["Ana"], ["Bo"]]
    assert told(KINGDOM_TCG, payload, 2) == \
        "The match ended with time called, counted at 3 to 1 troop levels defeated: Ana won."


def test_kingdom_tcg_as_many_levels_defeated_is_a_draw():
    """RULINGS KT8 and P1: equal levels defeated is a draw, and the table does not blame the turn limit."""
    state = tcg_table(2, 2)
    payload = finish(KINGDOM_TCG, state, "time")
    assert payload["winners"] == [] and payload["winner"] is None
    assert placed(KINGDOM_TCG, state) == [["Ana", "Bo"]]
    html = table_html(KINGDOM_TCG, state)
    assert "A draw: as many troop levels defeated each." in html and "turn limit" not in html


def test_kingdom_tcg_a_clock_run_out_loses_whatever_the_levels():
    """RULINGS P2: Ana defeated more, but her clock ran out: Bo wins."""
    state = tcg_table(3, 1)
    payload = finish(KINGDOM_TCG, state, "timeout", forfeited=ANA)
    assert payload["winners"] == [BO] and payload["defeated"] == [None, 1]
    assert placed(KINGDOM_TCG, state) == [["Bo"], ["Ana"]]
    assert told(KINGDOM_TCG, payload, 2) == "The match ended with a clock running out: Bo won."
