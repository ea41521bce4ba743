"""Kingdom TCG's events: one class per thing that happens at the table, each with its payload's keys and its role for
a take-back (domain/undo.py). Their evolve, sentence and redaction are given in evolve.py, timeline.py and views.py."""
from domain.events import GameEvent


class StrategyDeckShuffled(GameEvent):
    """A seat's strategy deck was shuffled face down before the match (a herald-fair-v1 shuffle)."""

    fields = ("seat", "random")
    undo = "random"


class CoronadosPlaced(GameEvent):
    """Each Coronado stands on its home row; the first player was drawn at random."""

    fields = ("spaces", "first", "random")
    undo = "random"


class TurnStarted(GameEvent):
    """A seat's turn began: the summoning, movement and battle stages follow."""

    fields = ("turn", "seat")
    undo = "turn"


class StageStarted(GameEvent):
    """A stage of the turn began (summoning, movement or battle)."""

    fields = ("stage",)
    undo = "turn"


class CardsDrawn(GameEvent):
    """A seat drew strategy cards into its secret hand (fewer, or none, from a deck running out: it stays empty)."""

    fields = ("seat", "count", "cards")
    undo = "draw"


class DiceRolled(GameEvent):
    """A seeded roll: the summoning or movement d6, or a combatant's attack or defence die. An Audacia face was
    rolled again once and the second face kept (`faces` shows both)."""

    fields = ("seat", "roll", "die", "faces", "value", "random")
    optional = ("combatant",)
    undo = "random"


class TroopSummoned(GameEvent):
    """A troop of at most the rolled level came from the combatant deck onto the summoner's home row."""

    fields = ("seat", "combatant", "space")
    undo = "action-start"


class CombatantMoved(GameEvent):
    """A combatant moved in a straight line along its cross, through free spaces."""

    fields = ("seat", "combatant", "source", "target")
    undo = "action-start"


class StepSkipped(GameEvent):
    """The seat whose turn it is summoned, moved or attacked with nothing (by choice, or having no option)."""

    fields = ("seat", "step")
    undo = "action-start"


class AttackDeclared(GameEvent):
    """The main attacker and the main enemy were named (the enemy troop orthogonally next to the attacker)."""

    fields = ("seat", "attacker", "target")
    undo = "action-start"


class CombatResolved(GameEvent):
    """An attack roll met a defence roll: each side's raw value, its increase and reduction, and the result; the
    defender falls if the attack's result is higher (RULINGS KT5)."""

    fields = ("kind", "attack", "defence", "defeated")
    undo = "random"


class CombatantDefeated(GameEvent):
    """A combatant was defeated and went to its owner's pit; a Coronado's defeat ends the match."""

    fields = ("combatant", "owner")
    undo = "random"


class WindowOpened(GameEvent):
    """A moment when strategy cards may be used began (before or after one of chapter 3's listed events)."""

    fields = ("trigger", "timing")
    undo = "turn"


class WindowClosed(GameEvent):
    """Every player passed with nothing left on the stack: the turn goes on."""

    fields = ("trigger", "timing")
    undo = "turn"


class CardActivated(GameEvent):
    """A seat used a strategy card from its hand: it goes on the resolution stack, and the other may respond."""

    fields = ("seat", "card", "name")
    optional = ("combatant", "target", "thrower")
    undo = "response"


class PriorityPassed(GameEvent):
    """A seat let the stack be (no response); a seat holding no usable card passes at once (RULINGS KT3)."""

    fields = ("seat",)
    undo = "response"


class CardResolved(GameEvent):
    """The top card of the stack took effect (a modifier, a draw, a cancel, a throw), then went face up to its
    owner's used pile."""

    fields = ("seat", "card", "name", "effect")
    undo = "response"


class CardWithoutEffect(GameEvent):
    """The top card of the stack "quedará sin efecto": an earlier resolution made its action impossible; it goes to
    the used pile all the same."""

    fields = ("seat", "card", "name", "why")
    undo = "response"


class WindowSuspended(GameEvent):
    """A resolving card's own moments begin (a Throw's attack roll, defence roll and defeat, or a card's draw), each
    with its windows (3.1); the open window and its stack wait beneath until they are over (RULINGS KT3)."""

    fields = ("moment", "seat")
    optional = ("count", "thrower", "target", "die")
    undo = "response"


class WindowResumed(GameEvent):
    """A card's own moments are over: the window they interrupted is open again, its stack as it was."""

    fields = ("trigger", "timing")
    undo = "response"


class ThrowStopped(GameEvent):
    """A Throw's thrower or target left the battlefield before its rolls: the throw "quedará sin efecto" (3.1.1)."""

    fields = ("thrower", "target")
    undo = "response"


class ControlSet(GameEvent):
    """A seat chose full control (asked at every window while it holds a card) or gave it up (RULINGS KT3)."""

    fields = ("seat", "full")
    undo = "note"


class CardsDiscarded(GameEvent):
    """Cards went from a hand to the used pile unused: down to the hand limit of 7 at a turn's end, or a card drawn
    or seen by mistake (recorded by the referee)."""

    fields = ("seat", "cards", "reason")
    undo = "action"


class TurnEnded(GameEvent):
    """The turn is over; the names used in it may be used again."""

    fields = ("seat",)
    undo = "turn"


EVENTS = (StrategyDeckShuffled, CoronadosPlaced, TurnStarted, StageStarted, CardsDrawn, DiceRolled, TroopSummoned,
          CombatantMoved, StepSkipped, AttackDeclared, CombatResolved, CombatantDefeated, WindowOpened, WindowClosed,
          CardActivated, PriorityPassed, CardResolved, CardWithoutEffect, CardsDiscarded, TurnEnded, WindowSuspended,
          WindowResumed, ThrowStopped, ControlSet)
