"""Korona's events: one class per thing that happens at the table, each with its payload's keys and its role for a
take-back (domain/undo.py). Their evolve, sentence and redaction are given in evolve.py, timeline.py and views.py."""
from domain.events import GameEvent


class DeckShuffled(GameEvent):
    """The 90 cards were shuffled into the draw pile (a herald-fair-v1 shuffle)."""

    fields = ("random",)
    undo = "random"


class FirstSeatChosen(GameEvent):
    """The seat that starts was chosen at random (a herald-fair-v1 choice)."""

    fields = ("seat", "random")
    undo = "random"


class CardsDealt(GameEvent):
    """A seat was dealt its secret starting hand from the top of the pile."""

    fields = ("seat", "cards")
    undo = "random"


class MarketRevealed(GameEvent):
    """The top cards of the pile were turned face up as the market."""

    fields = ("cards",)
    undo = "random"


class TurnStarted(GameEvent):
    """A seat's turn began; it must draw first."""

    fields = ("seat", "turn", "empty_hand")
    undo = "draw"


class CardsDrawn(GameEvent):
    """A seat drew cards from the pile (secret) or from the market (public)."""

    fields = ("seat", "source", "cards", "step")
    optional = ("draws_left",)

    @classmethod
    def undo_role(cls, payload: dict) -> str:
        return "draw" if payload["step"] == "draw" else "reveals"


class MarketRefilled(GameEvent):
    """The top card of the pile replaced a card taken from the market."""

    fields = ("card",)
    undo = "reveals"


class CardPlaced(GameEvent):
    """A Build card went from a hand into its owner's play area."""

    fields = ("seat", "card", "stack", "role")
    undo = "action-start"


class CardDiscarded(GameEvent):
    """A card went from a hand to the discard pile."""

    fields = ("seat", "card", "reason")

    @classmethod
    def undo_role(cls, payload: dict) -> str:
        return "action-start" if payload["reason"] == "action" else "turn"


class ActionCardPlayed(GameEvent):
    """An Action card was played from a hand and put in the discard pile."""

    fields = ("seat", "card")
    optional = ("target", "zone", "thief", "stack", "stack_cards")
    undo = "action-start"


class CardMoved(GameEvent):
    """Internal Move: a Build card was repositioned within its owner's play area."""

    fields = ("seat", "card", "from_stack", "stack", "role")
    undo = "action"


class HandLimitExceeded(GameEvent):
    """The seat's actions are spent with more than 7 cards; it discards the excess."""

    fields = ("seat", "excess")
    undo = "turn"


class TurnEnded(GameEvent):
    """A seat's turn ended within the hand limit."""

    fields = ("seat",)
    undo = "turn"


class VictoryDeclared(GameEvent):
    """A seat completed an instant-victory combo."""

    fields = ("seat", "combo")
    undo = "turn"


class ShieldPlayed(GameEvent):
    """The targeted player answered an Action card with a Shield."""

    fields = ("seat", "card", "against")
    undo = "response"


class ShieldCountered(GameEvent):
    """The attacker answered a Shield with a Shield of its own."""

    fields = ("seat", "card", "against")
    undo = "response"


class ResponsePassed(GameEvent):
    """A player let the last card or Shield stand."""

    fields = ("seat", "shields")
    undo = "response"


class ActionCancelled(GameEvent):
    """An unanswered Shield cancelled the Action card; it stays in the discard pile."""

    fields = ("seat", "card", "by")
    undo = "response"


class ActionTookEffect(GameEvent):
    """No Shield stopped the Action card: its effect begins."""

    fields = ("seat", "card")
    undo = "response"


class CardGiven(GameEvent):
    """Donation: the target gave a card from its hand or the top of a stack."""

    fields = ("seat", "to", "zone", "card", "from_stack")
    undo = "response"


class CardTaken(GameEvent):
    """Tactical Swap or Sneak Attack took a card from the top of another player's partial stack."""

    fields = ("seat", "from", "from_stack", "card")
    undo = "response"


class CardHandedOver(GameEvent):
    """Tactical Swap: the swapper gave one of its cards in exchange."""

    fields = ("seat", "to", "from_stack", "card")
    undo = "response"


class ReceivedCardPlaced(GameEvent):
    """A card that changed play areas was placed in its new owner's area (or kept in hand if it fits nowhere)."""

    fields = ("seat", "owner", "card", "stack", "role", "to")
    undo = "response"


class StackStolen(GameEvent):
    """Glorious Attack took a full stack intact."""

    fields = ("seat", "from", "to", "stack", "step", "cards")
    undo = "response"


class StackPassed(GameEvent):
    """Revolt: a whole stack was passed to the next player."""

    fields = ("seat", "from", "to", "stack", "step", "cards")
    undo = "response"


class CardPassed(GameEvent):
    """Revolt: the top card of a stack was passed to the next player."""

    fields = ("seat", "from", "to", "stack", "card")
    undo = "response"


class JokerRepositioned(GameEvent):
    """A Joker from a stolen or passed Ruler pair was repositioned as a free action."""

    fields = ("seat", "card", "from_stack", "stack", "role")
    undo = "response"


class JokerKept(GameEvent):
    """The Joker of a stolen or passed Ruler pair stayed where it was."""

    fields = ("seat", "card")
    undo = "response"



EVENTS = (DeckShuffled, FirstSeatChosen, CardsDealt, MarketRevealed, TurnStarted, CardsDrawn, MarketRefilled, CardPlaced,
          CardDiscarded, ActionCardPlayed, CardMoved, HandLimitExceeded, TurnEnded, VictoryDeclared, ShieldPlayed,
          ShieldCountered, ResponsePassed, ActionCancelled, ActionTookEffect, CardGiven, CardTaken, CardHandedOver,
          ReceivedCardPlaced, StackStolen, StackPassed, CardPassed, JokerRepositioned, JokerKept)
