"""Korona's events: one class per thing that happens at the table."""
from domain.events import GameEvent


class DeckShuffled(GameEvent):
    """The 90 cards were shuffled into the draw pile (a herald-fair-v1 shuffle)."""


class FirstSeatChosen(GameEvent):
    """The seat that starts was chosen at random (a herald-fair-v1 choice)."""


class CardsDealt(GameEvent):
    """A seat was dealt its secret starting hand from the top of the pile."""


class MarketRevealed(GameEvent):
    """The top cards of the pile were turned face up as the market."""


class TurnStarted(GameEvent):
    """A seat's turn began; it must draw first."""


class CardsDrawn(GameEvent):
    """A seat drew cards from the pile (secret) or from the market (public)."""


class MarketRefilled(GameEvent):
    """The top card of the pile replaced a card taken from the market."""


class CardPlaced(GameEvent):
    """A Build card went from a hand into its owner's play area."""


class CardDiscarded(GameEvent):
    """A card went from a hand to the discard pile."""


class ActionCardPlayed(GameEvent):
    """An Action card was played from a hand and put in the discard pile."""


class CardMoved(GameEvent):
    """Internal Move: a Build card was repositioned within its owner's play area."""


class HandLimitExceeded(GameEvent):
    """The seat's actions are spent with more than 7 cards; it discards the excess."""


class TurnEnded(GameEvent):
    """A seat's turn ended within the hand limit."""


class VictoryDeclared(GameEvent):
    """A seat completed an instant-victory combo."""


class ShieldPlayed(GameEvent):
    """The targeted player answered an Action card with a Shield."""


class ShieldCountered(GameEvent):
    """The attacker answered a Shield with a Shield of its own."""


class ResponsePassed(GameEvent):
    """A player let the last card or Shield stand."""


class ActionCancelled(GameEvent):
    """An unanswered Shield cancelled the Action card; it stays in the discard pile."""


class ActionTookEffect(GameEvent):
    """No Shield stopped the Action card: its effect begins."""


class CardGiven(GameEvent):
    """Donation: the target gave a card from its hand or the top of a stack."""


class CardTaken(GameEvent):
    """Tactical Swap or Sneak Attack took a card from the top of another player's partial stack."""


class CardHandedOver(GameEvent):
    """Tactical Swap: the swapper gave one of its cards in exchange."""


class ReceivedCardPlaced(GameEvent):
    """A card that changed play areas was placed in its new owner's area (or kept in hand if it fits nowhere)."""


class StackStolen(GameEvent):
    """Glorious Attack took a full stack intact."""


class StackPassed(GameEvent):
    """Revolt: a whole stack was passed to the next player."""


class CardPassed(GameEvent):
    """Revolt: the top card of a stack was passed to the next player."""


class JokerRepositioned(GameEvent):
    """A Joker from a stolen or passed Ruler pair was repositioned as a free action."""


class JokerKept(GameEvent):
    """The Joker of a stolen or passed Ruler pair stayed where it was."""


EVENTS = {
    cls.__name__: cls
    for cls in (DeckShuffled, FirstSeatChosen, CardsDealt, MarketRevealed, TurnStarted, CardsDrawn,
                MarketRefilled, CardPlaced, CardDiscarded, ActionCardPlayed, CardMoved,
                HandLimitExceeded, TurnEnded, VictoryDeclared, ShieldPlayed, ShieldCountered, ResponsePassed,
                ActionCancelled, ActionTookEffect, CardGiven, CardTaken, CardHandedOver, ReceivedCardPlaced,
                StackStolen, StackPassed, CardPassed, JokerRepositioned, JokerKept)
}
