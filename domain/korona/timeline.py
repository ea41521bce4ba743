"""Plain English sentences for Korona's events, written from what the viewer may see of them."""
from __future__ import annotations

from domain.adjudication import timed_outcome
from domain.events import describes

from .cards import NAMES
from .events import (
    ActionCancelled,
    ActionCardPlayed,
    ActionTookEffect,
    CardDiscarded,
    CardGiven,
    CardHandedOver,
    CardMoved,
    CardPassed,
    CardPlaced,
    CardsDealt,
    CardsDrawn,
    CardTaken,
    DeckShuffled,
    FirstSeatChosen,
    HandLimitExceeded,
    JokerKept,
    JokerRepositioned,
    MarketRefilled,
    MarketRevealed,
    ReceivedCardPlaced,
    ResponsePassed,
    ShieldCountered,
    ShieldPlayed,
    StackPassed,
    StackStolen,
    TurnEnded,
    TurnStarted,
    VictoryDeclared,
)

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


def _names(state: dict) -> list[str]:
    return [player["name"] for player in state["players"]]


def _who(p: dict, state: dict) -> str:
    """The name of the event's seat."""
    return _names(state)[p["seat"]] if isinstance(p.get("seat"), int) else ""


@describes(DeckShuffled)
def _deck_shuffled(p, state, viewer):
    return "The 90 cards were shuffled into the draw pile."


@describes(FirstSeatChosen)
def _first_seat_chosen(p, state, viewer):
    names = _names(state)
    return f"{names[p['seat']]} was drawn at random to start."


@describes(CardsDealt)
def _cards_dealt(p, state, viewer):
    who = _who(p, state)
    dealt = f": {listing(p['cards'])}" if "cards" in p else ""
    return f"{who} was dealt {p.get('count', len(p.get('cards', [])))} cards{dealt}."


@describes(MarketRevealed)
def _market_revealed(p, state, viewer):
    return f"The market opened with {listing(p['cards'])}."


@describes(TurnStarted)
def _turn_started(p, state, viewer):
    who = _who(p, state)
    return f"Turn {p['turn']}: {who} to play" + (", with an empty hand." if p["empty_hand"] else ".")


@describes(CardsDrawn)
def _cards_drawn(p, state, viewer):
    who = _who(p, state)
    if p["source"] == "market":
        return f"{who} took {a(p['cards'][0]['name'])} from the market."
    drawn = f" ({listing(p['cards'])})" if "cards" in p else ""
    return f"{who} drew {p.get('count', len(p.get('cards', [])))} cards from the pile{drawn}."


@describes(MarketRefilled)
def _market_refilled(p, state, viewer):
    card = p.get("card")
    return f"{a(card['name']).capitalize()} refilled the market."


@describes(CardPlaced)
def _card_placed(p, state, viewer):
    who = _who(p, state)
    card = p.get("card")
    role = f" as {a(p['role'])}" if p.get("role") else ""
    return f"{who} placed {a(card['name'])}{role} {_stack(state, p['seat'], p.get('stack'))}."


@describes(CardDiscarded)
def _card_discarded(p, state, viewer):
    who = _who(p, state)
    card = p.get("card")
    why = " to meet the hand limit" if p["reason"] == "hand_limit" else ""
    return f"{who} discarded {a(card['name'])}{why}."


@describes(ActionCardPlayed)
def _action_card_played(p, state, viewer):
    names, who = _names(state), _who(p, state)
    card = p.get("card")
    target = f" on {names[p['target']]}" if "target" in p else ""
    zone = f", demanding a card from their {'hand' if p['zone'] == 'hand' else 'play area'}" if "zone" in p else ""
    return f"{who} played {title(card['name'])}{target}{zone}."


@describes(CardMoved)
def _card_moved(p, state, viewer):
    who = _who(p, state)
    card = p.get("card")
    role = f" as {a(p['role'])}" if p.get("role") else ""
    return f"{who} moved {a(card['name'])}{role} {_stack(state, p['seat'], p.get('stack'))}."


@describes(HandLimitExceeded)
def _hand_limit_exceeded(p, state, viewer):
    who = _who(p, state)
    return f"{who} must discard {p['excess']} to end the turn with 7 cards."


@describes(TurnEnded)
def _turn_ended(p, state, viewer):
    who = _who(p, state)
    return f"{who} ended their turn."


@describes(VictoryDeclared)
def _victory_declared(p, state, viewer):
    who = _who(p, state)
    return f"{who} completed the {p['combo'].title()} combo and won at once."


@describes(ShieldPlayed)
def _shield_played(p, state, viewer):
    who = _who(p, state)
    return f"{who} answered with a Shield."


@describes(ShieldCountered)
def _shield_countered(p, state, viewer):
    who = _who(p, state)
    return f"{who} countered with a Shield."


@describes(ResponsePassed)
def _response_passed(p, state, viewer):
    who = _who(p, state)
    return f"{who} let it stand."


@describes(ActionCancelled)
def _action_cancelled(p, state, viewer):
    names, who = _names(state), _who(p, state)
    card = p.get("card")
    return f"{names[p['by']]}'s Shield cancelled {who}'s {title(card['name'])}."


@describes(ActionTookEffect)
def _action_took_effect(p, state, viewer):
    who = _who(p, state)
    card = p.get("card")
    return f"{who}'s {title(card['name'])} took effect."


@describes(CardGiven)
def _card_given(p, state, viewer):
    names, who = _names(state), _who(p, state)
    card = p.get("card")
    given = a(card["name"]) if card else "a card"
    return f"{who} gave {names[p['to']]} {given} from their {'hand' if p['zone'] == 'hand' else 'play area'}."


@describes(CardTaken)
def _card_taken(p, state, viewer):
    names, who = _names(state), _who(p, state)
    card = p.get("card")
    resolving = state.get("resolving") or {}
    using = f" with {title(resolving['name'])}" if resolving.get("name") else ""
    area = state["players"][p["from"]]["area"]
    base = title(NAMES[area[p["from_stack"]][0]]) if p["from_stack"] < len(area) else "play area"
    verb = "stole" if resolving.get("name") == "sneak_attack" else "took"
    return f"{who} {verb} {a(card['name'])} from {names[p['from']]}'s {base}{using}."


@describes(CardHandedOver)
def _card_handed_over(p, state, viewer):
    names, who = _names(state), _who(p, state)
    card = p.get("card")
    return f"{who} gave {names[p['to']]} {a(card['name'])} in exchange."


@describes(ReceivedCardPlaced)
def _received_card_placed(p, state, viewer):
    names, who = _names(state), _who(p, state)
    card = p.get("card")
    role = f" as {a(p['role'])}" if p.get("role") else ""
    where = "in hand" if p.get("to") == "hand" else _stack(state, p["owner"], p.get("stack"))
    owner = "" if p["owner"] == p["seat"] else f" in {names[p['owner']]}'s play area"
    return f"{who} placed the {title(card['name'])}{role}{owner} {where}."


@describes(StackStolen)
def _stack_stolen(p, state, viewer):
    names, who = _names(state), _who(p, state)
    resolving = state.get("resolving") or {}
    using = f" with {title(resolving['name'])}" if resolving.get("name") else ""
    return f"{who} took {names[p['from']]}'s full stack ({listing(p['cards'])}){using}."


@describes(StackPassed)
def _stack_passed(p, state, viewer):
    names, who = _names(state), _who(p, state)
    return f"{who} had {names[p['from']]} pass {listing(p['cards'])} to {names[p['to']]} in the Revolt."


@describes(CardPassed)
def _card_passed(p, state, viewer):
    names, who = _names(state), _who(p, state)
    card = p.get("card")
    return f"{who} had {names[p['from']]} pass {a(card['name'])} to {names[p['to']]} in the Revolt."


@describes(JokerRepositioned)
def _joker_repositioned(p, state, viewer):
    who = _who(p, state)
    role = f" as {a(p['role'])}" if p.get("role") else ""
    return f"{who} repositioned the Joker{role} {_stack(state, p['seat'], p.get('stack'))} as a free action."


@describes(JokerKept)
def _joker_kept(p, state, viewer):
    who = _who(p, state)
    return f"{who} left the Joker where it was."


def outcome(p: dict) -> str:
    """How a match ended, in words, from MatchFinished's payload."""
    if p["reason"] == "combo":
        return "an instant-victory combo"
    return timed_outcome(p, "scores", "points") or f"the pile and the market run out, at {max(p['scores'])} points"
