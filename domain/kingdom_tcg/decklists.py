"""A tournament's deck check for Kingdom TCG: chapter 3.1's limits on the strategy deck, and the combatant deck as the
notes give it, every violation named at once in a sentence (RULINGS KT1)."""
from __future__ import annotations

from collections import Counter

from .data import load_catalogue, load_decklist

STRATEGY_DECK = 30  # "debe contener obligatoriamente y como máximo 30 cartas"
ROYALTY = (5, 5)
STRATEGY = (15, 25)
THROW = (0, 10)
COPIES = 2  # "Máximo 2 cartas con el mismo nombre por mazo."
TROOPS_BY_LEVEL = {1: 12, 2: 12, 3: 6, 4: 3}  # from the notes, not chapter 3
TROOPS = sum(TROOPS_BY_LEVEL.values())
CATEGORY = {"realeza": "Royalty", "estrategia": "Strategy", "estrategia_primigenia": "Strategy", "arroje": "Throw"}


def _times(n: int) -> str:
    return f"{n} time{'s' if n != 1 else ''}"


def _cards(n: int, what: str) -> str:
    return f"{n} {what} card{'s' if n != 1 else ''}"


def check(decklist, catalogue=None) -> list[str]:
    """Every problem of a decklist, each a sentence naming the limit, the card and how many; [] if it is valid. The
    catalogue is the shipped one unless another is given (as the match option "catalogue" gives it)."""
    decklist = load_decklist(decklist)
    catalogue = load_catalogue(catalogue)
    cards = {card["name"].casefold(): card for card in catalogue["cards"]}
    problems = []
    coronado = cards.get(decklist["coronado"].casefold())
    if coronado is None or coronado["type"] != "coronado":
        problems.append(f"the Coronado '{decklist['coronado']}' is not a Coronado of the catalogue")
    problems += _combatants(decklist["combatants"], cards)
    problems += _strategy(decklist["strategy"], cards, coronado["name"] if coronado else decklist["coronado"])
    return problems


def _unknown(names: list[str], cards: dict, deck: str) -> list[str]:
    return [f"'{name}' in the {deck} is not in the catalogue" for name in dict.fromkeys(names)
            if name.casefold() not in cards]


def _combatants(names: list[str], cards: dict) -> list[str]:
    """The combatant deck (from the notes): 33 troops, 12, 12, 6 and 3 of levels 1 to 4, one of each."""
    problems = _unknown(names, cards, "combatant deck")
    known = [cards[name.casefold()] for name in names if name.casefold() in cards]
    problems += [f"'{card['name']}' is not a troop and cannot be in the combatant deck" for card in known
                 if card["type"] != "tropa"]
    troops = [card for card in known if card["type"] == "tropa"]
    if len(names) != TROOPS:
        problems.append(f"the combatant deck holds {len(names)} cards; it must hold {TROOPS} troops (from the notes)")
    levels = Counter(card["level"] for card in troops)
    problems += [f"the combatant deck holds {levels[level]} level-{level} troops; it must hold {wanted} (from the "
                 "notes)" for level, wanted in TROOPS_BY_LEVEL.items() if levels[level] != wanted]
    copies = Counter(card["name"] for card in troops)
    problems += [f"'{name}' is in the combatant deck {_times(n)}; it takes one of each troop (from the notes)"
                 for name, n in copies.items() if n > 1]
    return problems


def _strategy(names: list[str], cards: dict, coronado: str) -> list[str]:
    """Chapter 3.1: 30 cards; Royalty exactly 5 of distinct names serving the Coronado; Strategy 15-25 and Throw
    0-10, at most 2 of a name ("estrategia primigenia" counts as Strategy, RULINGS KT1)."""
    problems = _unknown(names, cards, "strategy deck")
    known = [cards[name.casefold()] for name in names if name.casefold() in cards]
    problems += [f"'{card['name']}' is a {'Coronado' if card['type'] == 'coronado' else 'troop'} and cannot be in "
                 "the strategy deck" for card in known if card["type"] not in CATEGORY]
    if len(names) != STRATEGY_DECK:
        problems.append(f"the strategy deck holds {len(names)} cards; it must hold {STRATEGY_DECK} (chapter 3.1: "
                        "\"debe contener obligatoriamente y como máximo 30 cartas\")")
    by_category = {category: [card for card in known if CATEGORY.get(card["type"]) == category]
                   for category in ("Royalty", "Strategy", "Throw")}
    for category, (low, high) in (("Royalty", ROYALTY), ("Strategy", STRATEGY), ("Throw", THROW)):
        count = len(by_category[category])
        if not low <= count <= high:
            wanted = f"exactly {low}" if low == high else f"{low} to {high}"
            problems.append(f"the strategy deck holds {_cards(count, category)}; it must hold {wanted}")
    royalty = Counter(card["name"] for card in by_category["Royalty"])
    problems += [f"'{name}' is among the Royalty cards {_times(n)}; each Royalty card must have a different name"
                 for name, n in royalty.items() if n > 1]
    problems += [f"'{name}' serves {cards[name.casefold()].get('crowned', 'no Coronado')}, not the decklist's "
                 f"Coronado {coronado}" for name in royalty
                 if cards[name.casefold()].get("crowned", "").casefold() != coronado.casefold()]
    for category in ("Strategy", "Throw"):
        copies = Counter(card["name"] for card in by_category[category])
        problems += [f"'{name}' is in the strategy deck {_times(n)}; at most {COPIES} {category} cards of a name"
                     for name, n in copies.items() if n > COPIES]
    return problems
