"""Race to 20's events: each declares its payload's keys and its role for a take-back (domain/undo.py)."""
from domain.events import GameEvent


class ModifiersShuffled(GameEvent):
    """The nine modifier cards were shuffled face down (a herald-fair-v1 shuffle)."""

    fields = ("random",)
    undo = "random"


class FirstSeatChosen(GameEvent):
    """The seat that starts was chosen at random (a herald-fair-v1 choice)."""

    fields = ("seat", "random")
    undo = "random"


class HandDealt(GameEvent):
    """A seat was dealt its secret hand of modifier cards from the stock."""

    fields = ("seat", "cards")
    undo = "random"


class TurnStarted(GameEvent):
    """A seat's turn began; it must roll first."""

    fields = ("seat",)
    undo = "turn"


class DieRolled(GameEvent):
    """The seat rolled its die (a herald-fair-v1 roll)."""

    fields = ("seat", "die", "random")
    undo = "random"


class ModifierPlayed(GameEvent):
    """The seat played one modifier card from its hand, face up, onto this turn's roll."""

    fields = ("seat", "card", "value")
    undo = "action-start"


class PointsScored(GameEvent):
    """The seat banked its roll plus its modifier; its turn ends."""

    fields = ("seat", "die", "modifier", "points", "score")
    undo = "turn"


class ModifierDrawn(GameEvent):
    """The seat drew a secret replacement for the modifier it played, from the stock."""

    fields = ("seat", "cards")
    undo = "reveals"


EVENTS = (ModifiersShuffled, FirstSeatChosen, HandDealt, TurnStarted, DieRolled, ModifierPlayed, PointsScored,
          ModifierDrawn)
