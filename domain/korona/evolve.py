"""How each of Korona's events changes the state.

The pile, market, discard pile, roles, each seat's cards in transit, each stack and each player are replaced, never
changed in place (a player's hand and area change on a copy of the player, `_player`), so that a copy of the state
shares them with the original (state.copy_state)."""
from __future__ import annotations

from domain.events import evolves

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
from .interactive import INTERACTIVE, effect_steps, respond_step, response_steps, settle
from .stacking import is_ruler_pair, lift, put
from .stacking import move as move_within
from .state import EMPTY_HAND_MARKET_DRAWS


def _give_role(state: dict, card_id: int, role: str | None) -> None:
    """A Joker placed or moved takes its role (a new roles map: a copy of the state shares the original's)."""
    if role:
        state["roles"] = {**state["roles"], str(card_id): role}


def _player(state: dict, seat: int) -> dict:
    """The seat's player with a hand and an area of its own, to change in place: the state's players now hold this
    copy, and any copy of the state made before still holds the player as it was."""
    player = state["players"][seat]
    own = state["players"][seat] = {**player, "hand": list(player["hand"]), "area": list(player["area"])}
    return own


def _take_from_pile(state: dict, cards: list[dict]) -> list[int]:
    ids = [c["id"] for c in cards]
    if state["pile"][:len(ids)] != ids:
        raise ValueError("event does not match the top of the pile")
    state["pile"] = state["pile"][len(ids):]
    return ids


@evolves(DeckShuffled)
def _deck_shuffled(state, p):
    state["pile"] = list(p["random"][0]["result"])


@evolves(FirstSeatChosen)
def _first_seat_chosen(state, p):
    state["current"] = p["seat"]


@evolves(CardsDealt)
def _cards_dealt(state, p):
    _player(state, p["seat"])["hand"] += _take_from_pile(state, p["cards"])


@evolves(MarketRevealed)
def _market_revealed(state, p):
    state["market"] = state["market"] + _take_from_pile(state, p["cards"])


@evolves(TurnStarted)
def _turn_started(state, p):
    state.update(current=p["seat"], turn=p["turn"], phase="draw", actions=0, empty_start=p["empty_hand"],
                 market_draws=EMPTY_HAND_MARKET_DRAWS if p["empty_hand"] else 1)


@evolves(CardsDrawn)
def _cards_drawn(state, p):
    hand = _player(state, p["seat"])["hand"]
    if p["source"] == "pile":
        hand += _take_from_pile(state, p["cards"])
    else:
        market = list(state["market"])  # a new market (a copy of the state shares the original's)
        for c in p["cards"]:
            market.remove(c["id"])  # ValueError, as before, for a card the market does not hold
            hand.append(c["id"])
        state["market"] = market
    if p["step"] == "draw":
        state["market_draws"] = p["draws_left"]
        if p["draws_left"] == 0:
            state["phase"] = "actions"


@evolves(MarketRefilled)
def _market_refilled(state, p):
    state["market"] = state["market"] + _take_from_pile(state, [p["card"]])


@evolves(CardPlaced)
def _card_placed(state, p):
    player = _player(state, p["seat"])
    card_id = p["card"]["id"]
    player["hand"].remove(card_id)
    put(player["area"], card_id, p.get("stack"))
    _give_role(state, card_id, p.get("role"))
    state["actions"] += 1


@evolves(CardDiscarded)
def _card_discarded(state, p):
    _player(state, p["seat"])["hand"].remove(p["card"]["id"])
    state["discard"] = [*state["discard"], p["card"]["id"]]
    if p["reason"] == "action":
        state["actions"] += 1


@evolves(ActionCardPlayed)
def _action_card_played(state, p):
    _card_discarded(state, {**p, "reason": "action"})
    if NAMES[p["card"]["id"]] in INTERACTIVE:
        on_played(state, {**p, "name": NAMES[p["card"]["id"]]})


@evolves(CardMoved)
def _card_moved(state, p):
    card_id = p["card"]["id"]
    move_within(_player(state, p["seat"])["area"], card_id, p["from_stack"], p.get("stack"))
    _give_role(state, card_id, p.get("role"))


@evolves(HandLimitExceeded)
def _hand_limit_exceeded(state, p):
    state["phase"] = "excess"


@evolves(TurnEnded)
def _turn_ended(state, p):
    state["phase"] = "ended"


@evolves(VictoryDeclared)
def _victory_declared(state, p):
    state["phase"] = "ended"



def _lift_top(area: list[list[int]], stack: int) -> int:
    card_id = area[stack][-1]
    lift(area, stack, card_id)
    return card_id


def _into_transit(state: dict, owner: int, card_id: int, placer: int) -> None:
    if str(card_id) in state["roles"]:
        state["roles"] = {k: v for k, v in state["roles"].items() if k != str(card_id)}
    state["transit"][owner] = [*state["transit"][owner], {"card": card_id, "placer": placer}]


def _consume(state: dict) -> None:
    state["steps"].pop(0)
    settle(state)


def on_played(state: dict, p: dict) -> None:
    """ActionCardPlayed for an interactive card: open its Shield window."""
    state["resolving"] = {key: p[key] for key in ("seat", "name", "target", "zone", "thief", "stack")
                          if p.get(key) is not None}
    state["resolving"]["card"] = p["card"]["id"]
    state["steps"] = response_steps(state, p, p["seat"])


@evolves(ShieldPlayed, ShieldCountered)
def on_shield(state: dict, p: dict) -> None:
    _player(state, p["seat"])["hand"].remove(p["card"]["id"])
    state["discard"] = [*state["discard"], p["card"]["id"]]
    head = state["steps"][0]
    other = head["attacker"] if p["seat"] == head["defender"] else head["defender"]
    state["steps"][0] = respond_step(other, head["attacker"], head["defender"], head["shields"] + 1)


@evolves(ResponsePassed)
def on_passed(state: dict, p: dict) -> None:
    state["steps"].pop(0)


@evolves(ActionCancelled)
def on_cancelled(state: dict, p: dict) -> None:
    state["steps"] = []
    state["resolving"] = None


@evolves(ActionTookEffect)
def on_took_effect(state: dict, p: dict) -> None:
    resolving = state["resolving"] = {**state["resolving"], "effect": True}
    if resolving.get("thief") is not None:
        area = _player(state, resolving["seat"])["area"]
        stack = next(i for i, s in enumerate(area) if s[-1] == resolving["thief"])
        _into_transit(state, resolving["target"], _lift_top(area, stack), resolving["seat"])
    state["steps"] = effect_steps(state, resolving)
    settle(state)


@evolves(CardGiven)
def on_given(state: dict, p: dict) -> None:
    giver, receiver = _player(state, p["seat"]), p["to"]
    card_id = p["card"]["id"]
    if p["zone"] == "hand":
        giver["hand"].remove(card_id)
        _player(state, receiver)["hand"].append(card_id)
    else:
        _lift_top(giver["area"], p["from_stack"])
        placer = p["seat"] if NAMES[card_id] == "thief" else receiver
        _into_transit(state, receiver, card_id, placer)
    _consume(state)


@evolves(CardTaken)
def on_taken(state: dict, p: dict) -> None:
    card_id = _lift_top(_player(state, p["from"])["area"], p["from_stack"])
    _into_transit(state, p["seat"], card_id, p["seat"])
    _consume(state)


@evolves(CardHandedOver)
def on_handed_over(state: dict, p: dict) -> None:
    card_id = _lift_top(_player(state, p["seat"])["area"], p["from_stack"])
    placer = p["seat"] if NAMES[card_id] == "thief" else p["to"]
    _into_transit(state, p["to"], card_id, placer)
    _consume(state)


@evolves(ReceivedCardPlaced)
def on_received_placed(state: dict, p: dict) -> None:
    owner = p["owner"]
    card_id = p["card"]["id"]
    state["transit"][owner] = [w for w in state["transit"][owner] if w["card"] != card_id]
    if p.get("to") == "hand":
        _player(state, owner)["hand"].append(card_id)
    else:
        put(_player(state, owner)["area"], card_id, p.get("stack"))
        _give_role(state, card_id, p.get("role"))
    if not state["transit"][owner]:
        state["steps"].pop(0)
    settle(state)


@evolves(StackStolen, StackPassed)
def on_stack_moved(state: dict, p: dict) -> None:
    """StackStolen (Glorious Attack) or StackPassed (Revolt): a whole stack changes play areas intact."""
    area = _player(state, p["from"])["area"]
    stack = area.pop(p["stack"])
    receiver = _player(state, p["to"])["area"]
    receiver.append(stack)
    state["received"][p["to"]] = list(stack)
    if p.get("step"):
        state["steps"].pop(0)
    joker = next((c for c in stack if NAMES[c] == "joker"), None)
    if is_ruler_pair(stack, state["roles"]) and joker is not None:
        state["steps"].insert(0, {"kind": "reposition", "seat": p["to"], "joker": joker})
    settle(state)


@evolves(CardPassed)
def on_card_passed(state: dict, p: dict) -> None:
    card_id = _lift_top(_player(state, p["from"])["area"], p["stack"])
    placer = p["seat"] if NAMES[card_id] == "thief" else p["to"]
    _into_transit(state, p["to"], card_id, placer)
    state["received"][p["to"]] = [card_id]
    state["steps"][0] = {"kind": "place", "owner": p["to"]}
    settle(state)


@evolves(JokerRepositioned)
def on_repositioned(state: dict, p: dict) -> None:
    move_within(_player(state, p["seat"])["area"], p["card"]["id"], p["from_stack"], p.get("stack"))
    _give_role(state, p["card"]["id"], p.get("role"))
    _consume(state)


@evolves(JokerKept)
def on_joker_kept(state: dict, p: dict) -> None:
    _consume(state)



