"""Crusader Kingdoms' events: one class per thing that happens at the table, each with its payload's keys and its role
for a take-back (domain/undo.py). Their evolve, sentence and redaction are given in evolve.py, timeline.py and views.py."""
from domain.events import GameEvent


class CardsRemoved(GameEvent):
    """Cards not used in the 1- and 2-player games were taken out of a deck before play."""

    fields = ("deck", "cards")
    undo = "random"


class DeckShuffled(GameEvent):
    """A deck was shuffled into its draw pile (a herald-fair-v1 shuffle)."""

    fields = ("deck", "random")
    undo = "random"


class CastlesDeployed(GameEvent):
    """A kingdom placed one castle, regular side up, on each of its starting areas."""

    fields = ("seat", "areas", "castles")
    undo = "random"


class TurnStarted(GameEvent):
    """One of the three turns began."""

    fields = ("turn",)
    undo = "turn"


class CardsDrawn(GameEvent):
    """A kingdom drew its cards for the turn (secret): the table's number, plus or minus its bonus, less kept cards."""

    fields = ("seat", "cards", "bonus", "kept", "wanted")
    undo = "reveals"


class BonusReset(GameEvent):
    """Every card bonus marker went back to 0 after the draw."""

    fields = ()
    undo = "turn"


class RoundStarted(GameEvent):
    """A kingdom's round began: it takes one action (the automated Muslims play a card)."""

    fields = ("seat", "slot")
    undo = "turn"


class Passed(GameEvent):
    """A player passed."""

    fields = ("seat",)
    undo = "action-start"


class CardDiscarded(GameEvent):
    """A player discarded a card face down as its action."""

    fields = ("seat", "card", "reason")
    undo = "action-start"


class IncursionMade(GameEvent):
    """A player discarded a troop card and rolled one die for an incursion into a bordering opponent."""

    fields = ("seat", "card", "target", "hit", "random")
    undo = "action-start"


class RandomCardDiscarded(GameEvent):
    """A kingdom discarded a card drawn at random from its hand (a herald-fair-v1 choice)."""

    fields = ("seat", "card", "random")
    undo = "random"


class EventPlayed(GameEvent):
    """A player showed an event card and applied its text."""

    fields = ("seat", "card")
    optional = ("target", "stack")
    undo = "action-start"


class BonusChanged(GameEvent):
    """A kingdom's card bonus marker moved (within -2..+2)."""

    fields = ("seat", "delta", "bonus", "reason")
    undo = "turn"


class CastleFlipped(GameEvent):
    """A castle was turned to its +1 side or back to its regular side."""

    fields = ("seat", "area", "plus", "reason")
    undo = "turn"


class WallsBuilt(GameEvent):
    """The automated Muslims placed a castle on its +1 side in one of their areas (Walls)."""

    fields = ("seat", "area")
    undo = "turn"


class CardTaken(GameEvent):
    """A kingdom took a card at random from another kingdom's hand (a herald-fair-v1 choice)."""

    fields = ("seat", "from", "card", "random")
    undo = "random"


class AttackDeclared(GameEvent):
    """A player attacked an area as its action."""

    fields = ("seat", "area", "defender")
    undo = "action-start"


class EventAttackDeclared(GameEvent):
    """An event card began an attack on an area (taken back with its EventPlayed): its extra dice and its allies."""

    name = "AttackDeclared"
    fields = ("seat", "area", "defender", "event", "extra", "allies")
    undo = "action"


class MuslimAttackDeclared(GameEvent):
    """The automated Muslims attacked an area with their army's cards (8.3)."""

    name = "AttackDeclared"
    fields = ("seat", "area", "defender", "army")
    undo = "turn"


class CardCommitted(GameEvent):
    """The attacker put a card face down for its attack."""

    fields = ("seat", "card")
    undo = "action"


class CommitClosed(GameEvent):
    """The attacker finished putting cards down."""

    fields = ("seat",)
    undo = "action"


class MuslimResponded(GameEvent):
    """The automated Muslims answered an attack of 3 or more dice with their first response card."""

    fields = ("seat", "card")
    undo = "response"


class ResponsesOpened(GameEvent):
    """The players who may add response cards to the attack, in order."""

    fields = ("responders",)
    undo = "response"


class ResponsePlaced(GameEvent):
    """A player put a response card face down for the attack or the defence."""

    fields = ("seat", "card", "side")
    undo = "response"


class ResponsesDone(GameEvent):
    """A player added no more response cards."""

    fields = ("seat",)
    undo = "response"


class FlipsDone(GameEvent):
    """The defender turned no more +1 castles."""

    fields = ("seat",)
    undo = "response"


class CardsRevealed(GameEvent):
    """The attacker's and the defender's cards were turned face up."""

    fields = ("attack", "defence")
    undo = "reveals"


class DiceRolled(GameEvent):
    """One side of a combat rolled its dice (a herald-fair-v1 dice draw)."""

    fields = ("seat", "side", "count", "rolled_by", "random")
    undo = "random"


class LeaderPointAdded(GameEvent):
    """A Leader added one point to one die."""

    fields = ("seat", "side", "die", "value")
    undo = "response"


class LeaderDone(GameEvent):
    """A Leader's owner added no more points."""

    fields = ("seat", "side")
    undo = "response"


class CombatResolved(GameEvent):
    """Hits were counted: the attacker wins only with more hits than the defender."""

    fields = ("seat", "attack_hits", "defence_hits", "winner")
    undo = "turn"


class AreaConquered(GameEvent):
    """The attacker took the area: any castle there was removed and the attacker's placed (regular side)."""

    fields = ("seat", "area", "defender", "removed", "placed")
    undo = "turn"


class AttackCardsDiscarded(GameEvent):
    """The cards used in the attack went to their decks' discard piles."""

    fields = ("seat", "cards", "returned", "gain")
    undo = "turn"


class AttackEnded(GameEvent):
    """The attack is over."""

    fields = ("seat",)
    undo = "turn"


class MuslimCardRevealed(GameEvent):
    """The automated Muslims revealed a card and played it by the rules of section 8.3."""

    fields = ("seat", "slot", "card", "source", "placed")
    undo = "reveals"


class ArmyRolled(GameEvent):
    """The automated Muslims rolled one die against their army's strength: lower attacks."""

    fields = ("seat", "slot", "strength", "die", "area", "random")
    undo = "random"


class TurnEnded(GameEvent):
    """Every player passed: the turn is over."""

    fields = ("turn",)
    undo = "turn"


class DeckReshuffled(GameEvent):
    """A deck's draw pile, discards and persistent cards were shuffled together for the next turn."""

    fields = ("deck", "random")
    undo = "random"



EVENTS = (CardsRemoved, DeckShuffled, CastlesDeployed, TurnStarted, CardsDrawn, BonusReset, RoundStarted, Passed,
          CardDiscarded, IncursionMade, RandomCardDiscarded, EventPlayed, BonusChanged, CastleFlipped, WallsBuilt,
          CardTaken, AttackDeclared, EventAttackDeclared, MuslimAttackDeclared, CardCommitted, CommitClosed,
          MuslimResponded, ResponsesOpened, ResponsePlaced, ResponsesDone, FlipsDone, CardsRevealed, DiceRolled,
          LeaderPointAdded, LeaderDone, CombatResolved, AreaConquered, AttackCardsDiscarded, AttackEnded,
          MuslimCardRevealed, ArmyRolled, TurnEnded, DeckReshuffled)
