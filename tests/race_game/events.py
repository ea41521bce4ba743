"""Race to 20's events: one GameEvent subclass per event name (their topics must never change once logged)."""
from domain.events import GameEvent


class ModifiersShuffled(GameEvent):
    """The nine modifier cards were shuffled face down (a herald-fair-v1 shuffle)."""


class FirstSeatChosen(GameEvent):
    """The seat that starts was chosen at random (a herald-fair-v1 choice)."""


class HandDealt(GameEvent):
    """A seat was dealt its secret hand of modifier cards from the stock."""


class TurnStarted(GameEvent):
    """A seat's turn began; it must roll first."""


class DieRolled(GameEvent):
    """The seat rolled its die (a herald-fair-v1 roll)."""


class ModifierPlayed(GameEvent):
    """The seat played one modifier card from its hand, face up, onto this turn's roll."""


class PointsScored(GameEvent):
    """The seat banked its roll plus its modifier; its turn ends."""


class ModifierDrawn(GameEvent):
    """The seat drew a secret replacement for the modifier it played, from the stock."""


EVENTS = {cls.__name__: cls for cls in (ModifiersShuffled, FirstSeatChosen, HandDealt, TurnStarted, DieRolled,
                                        ModifierPlayed, PointsScored, ModifierDrawn)}
