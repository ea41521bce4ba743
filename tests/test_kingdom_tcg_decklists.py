"""Kingdom TCG's deck check (chapter 3.1 "¿Cómo se conforma?", and the combatant deck from the notes): each limit
alone and several at once, through the pure check, POST /decklists/check and match creation."""
from __future__ import annotations

import copy

import pytest

from domain.errors import IllegalMove
from domain.kingdom_tcg.data import default_decklists, load_catalogue
from domain.kingdom_tcg.decklists import check
from tests.helpers.api import assert_problem

CATALOGUE = load_catalogue()["cards"]


def deck() -> dict:
    return copy.deepcopy(default_decklists()[0])


def of(kind: str, **fields) -> list[str]:
    return [c["name"] for c in CATALOGUE if c["type"] == kind and all(c.get(k) == v for k, v in fields.items())]


def category(decklist: dict, kind: str) -> list[int]:
    """Positions in the strategy deck of the cards of one catalogue type."""
    types = {c["name"]: c["type"] for c in CATALOGUE}
    return [i for i, name in enumerate(decklist["strategy"]) if types[name] == kind]


def test_the_default_decklists_are_valid():
    """Both decklists Herald deals when a match brings none pass the check."""
    assert [check(d) for d in default_decklists()] == [[], []]


@pytest.mark.parametrize("decklist", [None, "deck", []])
def test_a_decklist_that_is_not_an_object_is_refused(decklist):
    """A decklist has no shipped default to stand in for a null: the check refuses anything but an object."""
    with pytest.raises(IllegalMove, match="the decklist option is not valid"):
        check(decklist)


def test_the_strategy_deck_must_hold_30_cards():
    """3.1: "El mazo de estrategia de cada jugador debe contener obligatoriamente y como máximo 30 cartas." (RULINGS
    KT1: "obligatoriamente y como máximo" is exactly 30.)"""
    d = deck()
    d["strategy"].remove(of("arroje")[0])  # 29 cards, every category still within its limits
    assert check(d) == [("the strategy deck holds 29 cards; it must hold 30 (chapter 3.1: \"debe contener "
                         "obligatoriamente y como máximo 30 cartas\")")]


def test_royalty_exactly_5_of_distinct_names():
    """3.1: "Cartas de Realeza (Obligatorias): Min: 5 – Max: 5. Cada carta debe tener un nombre distinto." """
    d = deck()
    royalty = category(d, "realeza")
    d["strategy"][royalty[0]] = d["strategy"][royalty[1]]
    assert check(d) == [(f"'{d['strategy'][royalty[1]]}' is among the Royalty cards 2 times; each Royalty card must "
                         "have a different name")]
    d = deck()
    d["strategy"][royalty[0]] = of("estrategia")[-1]
    assert check(d) == ["the strategy deck holds 4 Royalty cards; it must hold exactly 5"]


def test_royalty_serves_the_decklists_coronado():
    """3.2: "En cada carta se indica para cual coronado son válidas." A Royalty card of another Coronado is refused."""
    d = deck()
    d["strategy"][category(d, "realeza")[0]] = of("realeza", crowned="Nemea de Goldinfeit")[0]
    assert check(d) == [(f"'{of('realeza', crowned='Nemea de Goldinfeit')[0]}' serves Nemea de Goldinfeit, not the "
                         "decklist's Coronado VIGGO DE FAHRIDOR")]


def test_strategy_15_to_25_and_at_most_2_of_a_name():
    """3.1: "Cartas de Estrategia (Obligatorias): Min: 15 – Max: 25. Máximo 2 cartas con el mismo nombre por mazo." """
    d = deck()
    strategy = category(d, "estrategia") + category(d, "estrategia_primigenia")
    name = d["strategy"][strategy[0]]
    d["strategy"][strategy[2]] = name
    assert check(d) == [f"'{name}' is in the strategy deck 3 times; at most 2 Strategy cards of a name"]
    d = deck()
    spare = [n for n in of("arroje") if n not in d["strategy"]]
    for i, position in enumerate(strategy[:6]):
        d["strategy"][position] = spare[i // 2]
    assert check(d) == ["the strategy deck holds 14 Strategy cards; it must hold 15 to 25",
                        "the strategy deck holds 11 Throw cards; it must hold 0 to 10"]


def test_throw_0_to_10_and_at_most_2_of_a_name():
    """3.1: "Cartas de Arroje (Opcionales): Min: 0 – Max: 10. Máximo 2 cartas con el mismo nombre por mazo." """
    d = deck()
    throws = category(d, "arroje")
    name = d["strategy"][throws[0]]
    for position in throws[1:3]:
        d["strategy"][position] = name
    assert check(d) == [f"'{name}' is in the strategy deck 3 times; at most 2 Throw cards of a name"]
    d = deck()
    d["strategy"] = [n for n in d["strategy"] if n not in set(of("arroje"))]
    extra = [n for n in of("estrategia") if n not in d["strategy"]][:3]
    d["strategy"] += [n for n in extra for _ in range(2)][:5]
    assert check(d) == []  # no Throw card at all is allowed


def test_primigenia_counts_as_strategy():
    """RULINGS KT1: "estrategia primigenia" is not named by chapter 3; its cards are Strategy cards (15 to 25, at most
    2 of a name)."""
    d = deck()
    primigenia = category(d, "estrategia_primigenia")
    assert primigenia and check(d) == []
    d["strategy"][category(d, "estrategia")[0]] = d["strategy"][primigenia[0]]
    assert check(d) == [(f"'{d['strategy'][primigenia[0]]}' is in the strategy deck 3 times; at most 2 Strategy "
                         "cards of a name")]


def test_the_combatant_deck_from_the_notes():
    """The notes (not chapter 3): 33 troops, 12 of level 1, 12 of level 2, 6 of level 3, 3 of level 4, one of each,
    and the Coronado."""
    d = deck()
    d["combatants"][0] = d["combatants"][1]
    assert check(d) == [(f"'{d['combatants'][1]}' is in the combatant deck 2 times; it takes one of each troop (from "
                         "the notes)")]
    d = deck()
    d["combatants"][-1] = next(n for n in of("tropa", level=1) if n not in d["combatants"])
    assert check(d) == ["the combatant deck holds 13 level-1 troops; it must hold 12 (from the notes)",
                        "the combatant deck holds 2 level-4 troops; it must hold 3 (from the notes)"]
    d = deck()
    d["coronado"] = d["combatants"][0]
    assert check(d)[0] == f"the Coronado '{d['combatants'][0]}' is not a Coronado of the catalogue"


def test_every_problem_is_named_at_once():
    """Several violations in one decklist: each limit, card and count in its own sentence."""
    d = deck()
    d["combatants"] = d["combatants"][:30] + ["LANZA"]
    d["strategy"] = d["strategy"][:7] + ["NO SUCH CARD", "ALDEANO"]
    problems = check(d)
    for expected in ("'LANZA' is not a troop and cannot be in the combatant deck",
                     "the combatant deck holds 31 cards; it must hold 33 troops (from the notes)",
                     "'NO SUCH CARD' in the strategy deck is not in the catalogue",
                     "'ALDEANO' is a troop and cannot be in the strategy deck",
                     ("the strategy deck holds 9 cards; it must hold 30 (chapter 3.1: \"debe contener "
                      "obligatoriamente y como máximo 30 cartas\")"),
                     "the strategy deck holds 2 Strategy cards; it must hold 15 to 25"):
        assert expected in problems
    assert len(problems) >= 7


def test_the_deck_check_over_http(client):
    """POST /decklists/check answers 200 {valid, problems}; a referee may check against another catalogue; a game
    without decklists is 422; a match is created with a decklist per seat, an invalid one refused with the
    sentences (422) and nothing created, as is a seat's decklist that is not an object (null was a 500)."""
    ok = client.post("/decklists/check", json={"game": "kingdom_tcg", "decklist": deck()})
    assert ok.status_code == 200 and ok.get_json() == {"valid": True, "problems": []}
    bad = deck()
    bad["strategy"] = bad["strategy"][:29]
    answer = client.post("/decklists/check", json={"game": "kingdom_tcg", "decklist": bad}).get_json()
    assert answer["valid"] is False and answer["problems"] == check(bad)
    catalogue = {"cards": [c for c in CATALOGUE if c["name"] != deck()["strategy"][0]]}
    other = client.post("/decklists/check", json={"game": "kingdom_tcg", "decklist": deck(), "catalogue": catalogue})
    assert f"'{deck()['strategy'][0]}' in the strategy deck is not in the catalogue" in other.get_json()["problems"]
    assert_problem(client.post("/decklists/check", json={"game": "korona", "decklist": deck()}), 422)
    assert_problem(client.post("/decklists/check", json={"game": "kingdom_tcg", "decklist": {"coronado": 3}}), 422)
    assert_problem(client.post("/decklists/check", json={"game": "kingdom_tcg"}), 400)
    decklists = [deck(), copy.deepcopy(default_decklists()[1])]
    created = client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"],
                                            "options": {"decklists": decklists}})
    assert created.status_code == 201, created.get_json()
    listed = len(client.get("/matches").get_json())
    refused = client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"],
                                            "options": {"decklists": [deck(), bad]}})
    assert_problem(refused, 422)
    assert check(bad)[0] in refused.get_json()["detail"] and len(client.get("/matches").get_json()) == listed
    for missing in (None, "deck", 3):
        refused = client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"],
                                                "options": {"decklists": [deck(), missing]}})
        assert "seat 1's decklist must be an object" in assert_problem(refused, 422)["detail"]
    assert len(client.get("/matches").get_json()) == listed
    assert_problem(client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"],
                                                 "options": {"decklists": {"0": deck()}}}), 400)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_match_deals_from_each_seats_own_decklist(client, seat):
    """Each seat's strategy deck and combatant deck are its decklist's, by name."""
    decklists = [deck(), copy.deepcopy(default_decklists()[1])]
    body = client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"],
                                         "options": {"decklists": decklists}}).get_json()
    view = client.get(f"/matches/{body['match_id']}/view",
                      headers={"Authorization": f"Bearer {body['seats'][seat]['token']}"}).get_json()
    mine = view["players"][seat]
    assert mine["coronado"]["name"] == decklists[seat]["coronado"]
    assert sorted(c["name"] for c in mine["reserve"]) == sorted(decklists[seat]["combatants"])
    assert mine["deck_count"] + mine["hand_count"] == 30 and "hand" not in view["players"][1 - seat]
