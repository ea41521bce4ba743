"""Each game's table on the console's match page (issue 20): Crusader Kingdoms' areas, castles and attack, For a
Crown's Gallery, Royal Square and bandits, Kingdom TCG's battlefield and response stack. At points through a random
match, every seat's page offers exactly its legal moves as buttons and holds no card of another seat's hand (nor,
in For a Crown, another family's chest or unseen recruit); the spectator's holds none; the referee's shows all."""
from __future__ import annotations

import random
import re

import pytest

from tests.helpers.api import Table, page_as, play_random_moves, play_until
from tests.helpers.stores import seeded

GAMES = {"crusader_kingdoms": ["Ana", "Bo", "Cy"], "for_a_crown": ["Ana", "Bo", "Cy"], "kingdom_tcg": ["Ana", "Bo"]}


def secrets_of(view: dict, seat) -> set[str]:
    """The markers of what only `seat` (or the referee) may see, from the referee's view: hands, unseen recruits."""
    marks = set()
    for entry in view.get("players", []) + view.get("kingdoms", []):
        owner = entry.get("seat")
        if owner == seat:
            continue
        for card in entry.get("hand", []) + entry.get("unrevealed_recruits", []):
            marks.add(f'data-card="{card["id"]}"')
    return marks


def check_pages(client, table: Table, players: int) -> dict:
    """Every seat's, the spectator's and the referee's page at this moment; what each shows is checked."""
    ref = table.view()
    pages = {}
    for seat in range(players):
        shown = page_as(client, table, table.tokens[seat])
        for mark in secrets_of(ref, seat):
            assert mark not in shown, f"seat {seat}'s page shows another seat's hidden card ({mark})"
        assert shown.count('<button class="move">') == len(table.moves(seat))
        pages[seat] = shown
    spectator = page_as(client, table, None)
    for mark in secrets_of(ref, None):
        assert mark not in spectator
    pages["referee"] = page_as(client, table, table.referee)
    for mark in secrets_of(ref, None):
        assert mark in pages["referee"], "the referee sees every hand"
    pages[None] = spectator
    return pages


@pytest.mark.parametrize("game", GAMES)
def test_every_page_of_a_random_match_hides_what_it_must_and_offers_the_legal_moves(sqlite_client, game):
    """Rulebooks' hidden information (Korona-like hands; For a Crown: "Skrzynia" contents secret, a top-of-deck
    recruit seen by its recruiter alone; Kingdom TCG chapter 3: the hand secret) holds on the console's pages."""
    table = Table(sqlite_client, GAMES[game], game)
    chooser = random.Random(11)
    for _ in range(4):
        check_pages(sqlite_client, table, len(GAMES[game]))
        play_random_moves(table, chooser, 25)


def test_crusader_kingdoms_draws_its_areas_castles_and_the_attack(sqlite_client):
    """The map's areas with their owners and castles, each kingdom's castles, and an attack while one is on."""
    table = Table(sqlite_client, GAMES["crusader_kingdoms"], "crusader_kingdoms")
    view = play_until(table, random.Random(5), lambda v: v["attack"])
    assert view is not None
    shown = page_as(sqlite_client, table, None)
    area = next(a for a in view["map"]["areas"] if a["id"] == view["attack"]["area"])
    assert f"Attack: {view['kingdoms'][view['attack']['attacker']]['name']} on {area['name']}" in shown
    view = table.view()
    shown = page_as(sqlite_client, table, None)
    for area in view["map"]["areas"]:
        row = re.search(rf'<tr data-area="{area["id"]}">(.*?)</tr>', shown, re.DOTALL).group(1)
        owner = "nobody" if area["owner"] is None else view["kingdoms"][area["owner"]]["name"]
        assert area["name"] in row and owner in row and ("castle" in row) == area["castle"]
    for kingdom in view["kingdoms"]:
        assert f"Castles: {kingdom['castles_on_map']} on the map, {kingdom['castles_in_supply']} in supply" in shown


@pytest.mark.parametrize("players", [["Ana"], ["Ana", "Bo"]])
def test_crusader_kingdoms_names_the_muslims_when_they_play_a_round(sqlite_client, players, monkeypatch):
    """8.2 (RULINGS C15): in the 1- and 2-player game the automated Muslims, a kingdom without a seat, play a round
    after each crusader's; after every move of a whole random match each seat's and the spectator's page names the
    kingdom to play (the Muslims' round was a 500). Seeded: a random match may end before a Muslim round shows."""
    seeded(monkeypatch, 3)
    table = Table(sqlite_client, players, "crusader_kingdoms")
    chooser = random.Random(1)
    muslim_rounds = 0
    for _ in range(1000):
        view = table.view()
        current = view["current_seat"]
        for token in [*table.tokens, None]:
            shown = page_as(sqlite_client, table, token)
            assert current is None or f"{view['kingdoms'][current]['name']} to play" in shown
        muslim_rounds += current is not None and view["kingdoms"][current]["automated"]
        if view["status"] == "finished":
            break
        play_random_moves(table, chooser, 1)
    assert view["status"] == "finished" and muslim_rounds


def test_for_a_crown_draws_its_gallery_royal_square_and_bandits(sqlite_client):
    """The Gallery in order, the Royal Square's face-up Mercenaries and costs, each family's Bandits; a chest only
    to its owner."""
    table = Table(sqlite_client, GAMES["for_a_crown"], "for_a_crown")
    play_random_moves(table, random.Random(9), 40)
    view = table.view(table.tokens[0])
    shown = page_as(sqlite_client, table, table.tokens[0])
    gallery = [view["players"][s]["family"] for s in view["gallery"]["spaces"] if s is not None]
    positions = [shown.index(family, shown.index('aria-label="Gallery"')) for family in gallery]
    assert positions == sorted(positions)
    for column in view["royal_square"]:
        for card in column["face_up"]:
            assert f'data-card="{card["id"]}">{card["name"]}' in shown
    for p in view["players"]:
        section = shown[shown.index(f'data-seat="{p["seat"]}"'):]
        assert f'<span class="bandits">{p["bandits"]}</span>' in section
    chest = view["players"][0]["chest"]
    assert f"Chest: {chest['coins']} Coins, {chest['rubies']} Rubies." in shown
    assert shown.count("Chest: hidden.") == 2


def test_kingdom_tcg_draws_its_battlefield_and_the_response_stack_top_first(sqlite_client):
    """Chapter 3: "la última carta activada será la primera en resolverse": the stack is drawn top first; the
    battlefield's combatants in their spaces; the used pile face up."""
    for attempt in range(8):  # a random match may end before two responses are ever stacked: then another
        table = Table(sqlite_client, GAMES["kingdom_tcg"], "kingdom_tcg")
        view = play_until(table, random.Random(2 + attempt), lambda v: len(v["stack"]) >= 2, limit=1500)
        if view is not None:
            break
    assert view is not None
    shown = page_as(sqlite_client, table, None)
    section = shown[shown.index('aria-label="Response stack"'):]
    positions = [section.index(f'data-card="{item["id"]}"') for item in view["stack"]]
    assert positions == sorted(positions)
    play_random_moves(table, random.Random(3), 40)
    view = table.view()
    shown = page_as(sqlite_client, table, None)
    for space in view["battlefield"]["spaces"]:
        assert f'data-combatant="{space["combatant"]["id"]}">{space["combatant"]["name"]}' in shown
    for p in view["players"]:
        for card in p["used"]:
            assert f'data-card="{card["id"]}">{card["name"]}' in shown


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_finished_match_without_a_winner_is_not_said_won_by_no_one(sqlite_client, game):
    """A match can end with no winner (For a Crown when every family goes out, RULINGS F9; Kingdom TCG drawn at the
    turn limit, K6): no game's table says "Won by" then, nor "Won by ." with a winner."""
    from jinja2 import Environment, FileSystemLoader

    from domain.registry import GAMES as REGISTERED
    from service.console.present import words

    table = Table(sqlite_client, GAMES[game], game)
    env = Environment(loader=FileSystemLoader(REGISTERED[game].table_templates))
    env.filters["words"] = words
    view = table.view()
    def finished(winners: list[int]) -> str:
        return env.get_template("table.html").render(view={**view, "status": "finished", "winners": winners})

    assert "Won by" not in finished([])
    assert "Won by ." not in finished([0])
