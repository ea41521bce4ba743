"""Kingdom TCG's match options checked against each other at creation: what the cards option names on the board and
in the catalogue, refused (422) before a match exists rather than failing at a legal move."""
from __future__ import annotations

import json

from domain.kingdom_tcg.data import DATA
from tests.helpers.api import assert_problem


def shipped(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text())


def create(client, **options):
    return client.post("/matches", json={"game": "kingdom_tcg", "players": ["Ana", "Bo"], "options": options})


def refused(client, **options) -> str:
    """The reason a match with these options is refused (422), once it is checked that none was created."""
    listed = len(client.get("/matches").get_json())
    detail = assert_problem(create(client, **options), 422)["detail"]
    assert len(client.get("/matches").get_json()) == listed
    return detail


def test_a_throw_die_the_board_lacks_is_refused_at_creation(sqlite_client):
    """3.4: a Throw card attacks with its die, so a die the board lacks, named by the cards option or left out by
    the board option, is refused when the match is created (it was a 500 at the throw); the shipped files agree."""
    assert create(sqlite_client, cards=shipped("cards"), board=shipped("board")).status_code == 201
    cards = shipped("cards")
    thrown = next(name for name, card in cards["cards"].items() if card["effect"]["kind"] == "throw")
    cards["cards"][thrown]["effect"]["die"] = "no_such_die"
    detail = refused(sqlite_client, cards=cards)
    assert detail.startswith("the cards option is not valid") and "the board has no die named no_such_die" in detail
    assert json.dumps(thrown) in detail
    board = shipped("board")
    del board["dice"]["light"]
    assert "the board has no die named light" in refused(sqlite_client, board=board)


def test_a_throw_effect_on_a_card_without_a_level_is_refused_at_creation(sqlite_client):
    """3.4: a troop throws a Throw card of at most its level, so the cards option cannot give a throw effect to a
    card the catalogue gives no level (it was a 500 once a troop stood on the battlefield)."""
    catalogue = shipped("catalogue")
    unlevelled = next(card["name"] for card in catalogue["cards"] if card["type"] == "estrategia")
    cards = shipped("cards")
    cards["cards"][unlevelled] = {"turn": "own", "stages": ["movement"], "windows": ["after:move"],
                                  "effect": {"kind": "throw", "distance": 1, "die": "light"}}
    detail = refused(sqlite_client, cards=cards)
    assert f"a throw effect needs its card's level, and the catalogue gives {unlevelled} none" in json.loads(
        detail.removeprefix("the cards option is not valid: "))["cards"][unlevelled]["effect"]["level"]


def test_a_troop_without_a_level_is_refused_at_creation(sqlite_client):
    """A troop rolls its level's dice and is summoned by level, so the catalogue option must give each troop one (it
    was a 500 at the deck check)."""
    catalogue = shipped("catalogue")
    troop = next(card for card in catalogue["cards"] if card["type"] == "tropa")
    del troop["level"]
    detail = refused(sqlite_client, catalogue=catalogue)
    assert detail.startswith("the catalogue option is not valid") and f"the troop {troop['name']} needs a level" in detail
