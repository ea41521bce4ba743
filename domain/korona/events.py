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


EVENTS = {
    cls.__name__: cls
    for cls in (DeckShuffled, FirstSeatChosen, CardsDealt, MarketRevealed, TurnStarted, CardsDrawn,
                MarketRefilled, CardPlaced, CardDiscarded, ActionCardPlayed, CardMoved,
                HandLimitExceeded, TurnEnded, VictoryDeclared)
}
