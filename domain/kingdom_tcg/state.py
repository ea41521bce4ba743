"""Kingdom TCG's match state: a plain JSON-ready dict, evolved in place by events.

Strategy cards and combatants are ids into two lists fixed at creation (`cards`, `combatants`), built from each
seat's decklist. A combatant on the battlefield has `at` = [row, column]; the battlefield itself is read from them.
`steps` is the turn still to come, each the moment a chapter-3 window surrounds ("before" it happens, then "after");
a resolving Throw or draw card puts its own moments in front, and the window it interrupted waits in `suspended`.
"""
from __future__ import annotations

from domain.copying import copy_sharing
from domain.errors import IllegalMove
from domain.events import platform_state
from domain.stack import new_stack

from .data import check_cards, default_decklists, load_board, load_cards, load_catalogue
from .decklists import CATEGORY, check

HAND_LIMIT = 7  # "un máximo de siete (7) cartas ... en la mano al final de cada turno"
SEATS = [0, 1]


def new_state(created: dict) -> dict:
    """The state right after MatchCreated: each seat's decklist checked and laid out, nothing shuffled or drawn."""
    options = created.get("options") or {}
    catalogue = load_catalogue(options.get("catalogue"))
    rules, board = load_cards(options.get("cards")), load_board(options.get("board"))
    check_cards(rules, board, catalogue)
    decklists = options.get("decklists") or default_decklists()
    if not isinstance(decklists, list) or len(decklists) != len(created["players"]):
        raise IllegalMove(f"the decklists option needs one decklist per seat ({len(created['players'])})")
    for seat, decklist in enumerate(decklists):
        if not isinstance(decklist, dict):
            raise IllegalMove(f"seat {seat}'s decklist must be an object (coronado, combatants, strategy)")
        problems = check(decklist, options.get("catalogue"))
        if problems:
            raise IllegalMove(f"seat {seat}'s decklist is not valid: " + "; ".join(problems))
    named = {card["name"].casefold(): card for card in catalogue["cards"]}
    effects = {name.casefold(): card for name, card in rules["cards"].items()}
    cards, combatants, players = [], [], []
    for seat, (name, decklist) in enumerate(zip(created["players"], decklists)):
        deck = []
        for card_name in decklist["strategy"]:
            card = named[card_name.casefold()]
            if card_name.casefold() not in effects:
                raise IllegalMove(f"no effect is known for '{card['name']}': pass its rules in the cards option")
            deck.append(len(cards))
            cards.append({"id": len(cards), "owner": seat, "name": card["name"], "category": CATEGORY[card["type"]],
                          **{k: card[k] for k in ("level", "crowned") if k in card}, **effects[card_name.casefold()]})
        coronado = len(combatants)
        combatants.append({"id": coronado, "owner": seat, "name": named[decklist["coronado"].casefold()]["name"],
                           "level": None, "coronado": True, "at": None})
        reserve = []
        for troop in decklist["combatants"]:
            reserve.append(len(combatants))
            combatants.append({"id": len(combatants), "owner": seat, "name": named[troop.casefold()]["name"],
                               "level": named[troop.casefold()]["level"], "coronado": False, "at": None})
        players.append({"name": name, "coronado": coronado, "deck": deck, "hand": [], "used": [], "reserve": reserve,
                        "pit": [], "names_used": [], "defeated_levels": 0, "full_control": False})
    return {
        **platform_state("kingdom_tcg", created),
        "board": {k: v for k, v in board.items() if k not in ("known", "assumed")},
        "provisional": {"cards": rules["provisional"], "board": board["provisional"]},
        "cards": cards,
        "combatants": combatants,
        "players": players,
        "turn": 0,
        "stage": None,
        "steps": [],
        "window": None,  # the open window: {"trigger", "timing"}
        "stack": new_stack(),
        "suspended": [],  # the windows a card's own moments interrupted, each with its stack (and a Throw's combat)
        "roll": None,  # the last summoning or movement roll's value
        "roll_face": None,  # and the d6's face it kept
        "combat": None,  # the battle or Throw in progress: attacker, target, each side's roll and modifiers
    }


def copy_state(state: dict) -> dict:
    """A working copy that shares the card list and the board, which never change."""
    return copy_sharing(state, ("cards", "board"))


def other(seat: int) -> int:
    return 1 - seat


def occupied(state: dict) -> set[tuple[int, int]]:
    """The battlefield's spaces a combatant stands on."""
    return {tuple(c["at"]) for c in state["combatants"] if c["at"] is not None}


def on_field(state: dict, seat: int | None = None) -> list[dict]:
    return [c for c in state["combatants"] if c["at"] is not None and (seat is None or c["owner"] == seat)]


def distance(a, b) -> int | None:
    """Spaces between two spaces in one cross (same row or column); None off the cross."""
    if a[0] == b[0]:
        return abs(a[1] - b[1])
    if a[1] == b[1]:
        return abs(a[0] - b[0])
    return None


def die_of(state: dict, combatant: dict, roll: str) -> str:
    """The die a combatant rolls for an attack or a defence (RULINGS KT4)."""
    return f"coronado_{roll}" if combatant["coronado"] else f"level{combatant['level']}_{roll}"


COMBAT = ("attack_roll", "defence_roll", "combat", "defeat")  # a battle's moments after the naming, and a Throw's (3.4)
TURN = ("stage_start:summoning", "draw", "summoning_roll", "summon", "stage_start:movement", "movement_roll", "move",
        "stage_start:battle", "designation", "attack_roll", "defence_roll", "combat", "defeat", "end")


def turn_steps() -> list[dict]:
    """A turn's moments in order (RULINGS KT2): each is "before" until it happens, then "after"."""
    steps = []
    for entry in TURN:
        trigger, _, stage = entry.partition(":")
        steps.append({"trigger": trigger, "at": "before", **({"stage": stage} if stage else {})})
    return steps
