"""Plain English sentences for Korona's events, written from what the viewer may see of them."""
from __future__ import annotations

from .cards import NAMES

TITLES = {"extra_draw": "Extra Draw", "internal_move": "Internal Move", "tactical_swap": "Tactical Swap",
          "sneak_attack": "Sneak Attack", "glorious_attack": "Glorious Attack"}


def title(name: str) -> str:
    return TITLES.get(name, name.replace("_", " ").title())


def a(name: str) -> str:
    word = title(name)
    return f"an {word}" if word[0] in "AEIOU" else f"a {word}"


def listing(cards: list[dict]) -> str:
    names = [title(c["name"]) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _stack(state: dict, seat: int, index) -> str:
    if index is None:
        return "as a new stack"
    area = state["players"][seat]["area"]
    if index >= len(area):
        return f"on stack {index}"
    return f"on the {title(NAMES[area[index][0]])}"


def describe(type_: str, p: dict, state: dict, viewer) -> str:
    """One sentence for one event; `p` is the payload as the viewer may see it, `state` the state before it."""
    names = [player["name"] for player in state["players"]]
    who = names[p["seat"]] if isinstance(p.get("seat"), int) else ""
    card = p.get("card")
    role = f" as {a(p['role'])}" if p.get("role") else ""
    resolving = state.get("resolving") or {}
    using = f" with {title(resolving['name'])}" if resolving.get("name") else ""
    if type_ == "DeckShuffled":
        return "The 90 cards were shuffled into the draw pile."
    if type_ == "FirstSeatChosen":
        return f"{names[p['seat']]} was drawn at random to start."
    if type_ == "CardsDealt":
        dealt = f": {listing(p['cards'])}" if "cards" in p else ""
        return f"{who} was dealt {p.get('count', len(p.get('cards', [])))} cards{dealt}."
    if type_ == "MarketRevealed":
        return f"The market opened with {listing(p['cards'])}."
    if type_ == "TurnStarted":
        return f"Turn {p['turn']}: {who} to play" + (", with an empty hand." if p["empty_hand"] else ".")
    if type_ == "CardsDrawn":
        if p["source"] == "market":
            return f"{who} took {a(p['cards'][0]['name'])} from the market."
        drawn = f" ({listing(p['cards'])})" if "cards" in p else ""
        return f"{who} drew {p.get('count', len(p.get('cards', [])))} cards from the pile{drawn}."
    if type_ == "MarketRefilled":
        return f"{a(card['name']).capitalize()} refilled the market."
    if type_ == "CardPlaced":
        return f"{who} placed {a(card['name'])}{role} {_stack(state, p['seat'], p.get('stack'))}."
    if type_ == "CardDiscarded":
        why = " to meet the hand limit" if p["reason"] == "hand_limit" else ""
        return f"{who} discarded {a(card['name'])}{why}."
    if type_ == "ActionCardPlayed":
        target = f" on {names[p['target']]}" if "target" in p else ""
        zone = f", demanding a card from their {'hand' if p['zone'] == 'hand' else 'play area'}" if "zone" in p else ""
        return f"{who} played {title(card['name'])}{target}{zone}."
    if type_ == "CardMoved":
        return f"{who} moved {a(card['name'])}{role} {_stack(state, p['seat'], p.get('stack'))}."
    if type_ == "HandLimitExceeded":
        return f"{who} must discard {p['excess']} to end the turn with 7 cards."
    if type_ == "TurnEnded":
        return f"{who} ended their turn."
    if type_ == "VictoryDeclared":
        return f"{who} completed the {p['combo'].title()} combo and won at once."
    if type_ == "MatchFinished":
        winners = " and ".join(names[s] for s in p["winners"])
        return f"The match ended ({p['reason']}): {winners} won with {max(p['scores'])} points."
    if type_ in ("ShieldPlayed", "ShieldCountered"):
        verb = "countered with" if type_ == "ShieldCountered" else "answered with"
        return f"{who} {verb} a Shield."
    if type_ == "ResponsePassed":
        return f"{who} let it stand."
    if type_ == "ActionCancelled":
        return f"{names[p['by']]}'s Shield cancelled {who}'s {title(card['name'])}."
    if type_ == "ActionTookEffect":
        return f"{who}'s {title(card['name'])} took effect."
    if type_ == "CardGiven":
        given = a(card["name"]) if card else "a card"
        return f"{who} gave {names[p['to']]} {given} from their {'hand' if p['zone'] == 'hand' else 'play area'}."
    if type_ == "CardTaken":
        area = state["players"][p["from"]]["area"]
        base = title(NAMES[area[p["from_stack"]][0]]) if p["from_stack"] < len(area) else "play area"
        verb = "stole" if resolving.get("name") == "sneak_attack" else "took"
        return f"{who} {verb} {a(card['name'])} from {names[p['from']]}'s {base}{using}."
    if type_ == "CardHandedOver":
        return f"{who} gave {names[p['to']]} {a(card['name'])} in exchange."
    if type_ == "ReceivedCardPlaced":
        where = "in hand" if p.get("to") == "hand" else _stack(state, p["owner"], p.get("stack"))
        owner = "" if p["owner"] == p["seat"] else f" in {names[p['owner']]}'s play area"
        return f"{who} placed the {title(card['name'])}{role}{owner} {where}."
    if type_ == "StackStolen":
        return f"{who} took {names[p['from']]}'s full stack ({listing(p['cards'])}){using}."
    if type_ == "StackPassed":
        return f"{who} had {names[p['from']]} pass {listing(p['cards'])} to {names[p['to']]} in the Revolt."
    if type_ == "CardPassed":
        return f"{who} had {names[p['from']]} pass {a(card['name'])} to {names[p['to']]} in the Revolt."
    if type_ == "JokerRepositioned":
        return f"{who} repositioned the Joker{role} {_stack(state, p['seat'], p.get('stack'))} as a free action."
    if type_ == "JokerKept":
        return f"{who} left the Joker where it was."
    return type_
