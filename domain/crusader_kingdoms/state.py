"""Crusader Kingdoms' match state (2, 3, 7.1, 8.1): the constants, the state after MatchCreated, small queries."""
from __future__ import annotations

from domain.copying import copy_sharing
from domain.errors import IllegalMove
from domain.events import platform_state

from .data import RELIGIONS, map_and_decks

TURNS = 3
MAX_BONUS = 2
MIN_BONUS = -2
HIT = 4
LEADER_POINTS = 3
VICTORY = 15
MARGINAL = 11
SIDES = ("attack", "defence")
KINGDOM_LISTS = ("start", "hand", "persistent", "army", "queue")  # a kingdom's lists of card or area ids


def new_state(created: dict) -> dict:
    """The state right after MatchCreated: map, decks and kingdoms set, nothing shuffled yet."""
    players = list(created["players"])
    options = created.get("options") or {}
    count = len(players)
    if not 1 <= count <= 4:
        raise IllegalMove("Crusader Kingdoms is played by 1 to 4 players")
    board, decks = map_and_decks(options, count)
    kingdoms = []
    for index, k in enumerate(board["setups"][str(count)]):
        kingdoms.append({"name": k["name"], "religion": k["religion"], "colour": k["colour"],
                         "automated": k["automated"],
                         "seat": None if k["automated"] else index, "castles": k["castles"], "supply": k["castles"],
                         "draw": k["cards"], "start": list(k["start"]), "hand": [], "bonus": 0, "persistent": [],
                         "passed": False, "army": [], "queue": []})
    areas = {str(a["id"]): {"owner": None, "castle": False, "plus": False} for a in board["areas"]}
    cards = decks["cards"]
    return {
        **platform_state("crusader_kingdoms", created),
        "mode": {1: "solo", 2: "coop", 3: "three", 4: "four"}[count],
        "players": players,
        "map": {"name": board["name"], "provisional": board["provisional"],
                "areas": {str(a["id"]): a for a in board["areas"]}},
        "decks_provisional": decks["provisional"],
        "cards": cards,
        "kingdoms": kingdoms,
        "areas": areas,
        "piles": {deck: [c["id"] for c in cards if c["deck"] == deck] for deck in RELIGIONS},
        "discards": {deck: [] for deck in RELIGIONS},
        "removed": {deck: [] for deck in RELIGIONS},
        "turn": 0,
        "slot": None,
        "passes": 0,
        "phase": "setup",
        "attack": None,
        "truces": [],
    }


def copy_state(state: dict) -> dict:
    """A working copy deep enough for the rules to evolve without touching the original; the map and the card list,
    which never change, are shared, and a battle under way is copied whole."""
    copy = dict(state)
    copy["kingdoms"] = [{**k, **{key: list(k[key]) for key in KINGDOM_LISTS}} for k in state["kingdoms"]]
    copy["areas"] = {area: dict(held) for area, held in state["areas"].items()}
    for key in ("piles", "discards", "removed"):
        copy[key] = {deck: list(cards) for deck, cards in state[key].items()}
    copy["truces"] = [list(truce) for truce in state["truces"]]
    copy["players"], copy["winners"] = list(state["players"]), list(state["winners"])
    if state["attack"] is not None:
        copy["attack"] = copy_sharing(state["attack"])
    return copy


def coop(state: dict) -> bool:
    return state["mode"] in ("solo", "coop")


def humans(state: dict) -> list[int]:
    return [k for k, kingdom in enumerate(state["kingdoms"]) if not kingdom["automated"]]


def muslims(state: dict) -> int | None:
    """The automated Muslims' kingdom index in the 1- and 2-player games."""
    return len(state["players"]) if coop(state) else None


def card(state: dict, card_id: int) -> dict:
    c = state["cards"][card_id]
    return {"id": card_id, "name": c["name"], "deck": c["deck"], "effect": c["effect"], "value": c["value"]}


def effect(state: dict, card_id: int) -> str:
    return state["cards"][card_id]["effect"]


def value(state: dict, card_id: int) -> int:
    return state["cards"][card_id]["value"]


def owned(state: dict, k: int) -> list[int]:
    return sorted(int(a) for a, area in state["areas"].items() if area["owner"] == k)


def adjacent(state: dict, area: int) -> list[int]:
    return state["map"]["areas"][str(area)]["adjacent"]


def castles_on_map(state: dict, k: int) -> int:
    return sum(1 for area in state["areas"].values() if area["owner"] == k and area["castle"])


def regular_castles(state: dict, k: int) -> list[int]:
    return [a for a in owned(state, k) if state["areas"][str(a)]["castle"] and not state["areas"][str(a)]["plus"]]


def truce(state: dict, a: int, b) -> bool:
    return [a, b] in state["truces"] or [b, a] in state["truces"]
