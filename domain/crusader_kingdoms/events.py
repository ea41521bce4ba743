"""Crusader Kingdoms' events: one class per thing that happens at the table."""
from domain.events import GameEvent


class CardsRemoved(GameEvent):
    """Cards not used in the 1- and 2-player games were taken out of a deck before play."""


class DeckShuffled(GameEvent):
    """A deck was shuffled into its draw pile (a herald-fair-v1 shuffle)."""


class CastlesDeployed(GameEvent):
    """A kingdom placed one castle, regular side up, on each of its starting areas."""


class TurnStarted(GameEvent):
    """One of the three turns began."""


class CardsDrawn(GameEvent):
    """A kingdom drew its cards for the turn (secret): the table's number, plus or minus its bonus, less kept cards."""


class BonusReset(GameEvent):
    """Every card bonus marker went back to 0 after the draw."""


class RoundStarted(GameEvent):
    """A kingdom's round began: it takes one action (the automated Muslims play a card)."""


class Passed(GameEvent):
    """A player passed."""


class CardDiscarded(GameEvent):
    """A player discarded a card face down as its action."""


class IncursionMade(GameEvent):
    """A player discarded a troop card and rolled one die for an incursion into a bordering opponent."""


class RandomCardDiscarded(GameEvent):
    """A kingdom discarded a card drawn at random from its hand (a herald-fair-v1 choice)."""


class EventPlayed(GameEvent):
    """A player showed an event card and applied its text."""


class BonusChanged(GameEvent):
    """A kingdom's card bonus marker moved (within -2..+2)."""


class CastleFlipped(GameEvent):
    """A castle was turned to its +1 side or back to its regular side."""


class WallsBuilt(GameEvent):
    """The automated Muslims placed a castle on its +1 side in one of their areas (Walls)."""


class CardTaken(GameEvent):
    """A kingdom took a card at random from another kingdom's hand (a herald-fair-v1 choice)."""


class AttackDeclared(GameEvent):
    """An attack on an area was announced."""


class CardCommitted(GameEvent):
    """The attacker put a card face down for its attack."""


class CommitClosed(GameEvent):
    """The attacker finished putting cards down."""


class MuslimResponded(GameEvent):
    """The automated Muslims answered an attack of 3 or more dice with their first response card."""


class ResponsesOpened(GameEvent):
    """The players who may add response cards to the attack, in order."""


class ResponsePlaced(GameEvent):
    """A player put a response card face down for the attack or the defence."""


class ResponsesDone(GameEvent):
    """A player added no more response cards."""


class FlipsDone(GameEvent):
    """The defender turned no more +1 castles."""


class CardsRevealed(GameEvent):
    """The attacker's and the defender's cards were turned face up."""


class DiceRolled(GameEvent):
    """One side of a combat rolled its dice (a herald-fair-v1 dice draw)."""


class LeaderPointAdded(GameEvent):
    """A Leader added one point to one die."""


class LeaderDone(GameEvent):
    """A Leader's owner added no more points."""


class CombatResolved(GameEvent):
    """Hits were counted: the attacker wins only with more hits than the defender."""


class AreaConquered(GameEvent):
    """The attacker took the area: any castle there was removed and the attacker's placed (regular side)."""


class AttackCardsDiscarded(GameEvent):
    """The cards used in the attack went to their decks' discard piles."""


class AttackEnded(GameEvent):
    """The attack is over."""


class MuslimCardRevealed(GameEvent):
    """The automated Muslims revealed a card and played it by the rules of section 8.3."""


class ArmyRolled(GameEvent):
    """The automated Muslims rolled one die against their army's strength: lower attacks."""


class TurnEnded(GameEvent):
    """Every player passed: the turn is over."""


class DeckReshuffled(GameEvent):
    """A deck's draw pile, discards and persistent cards were shuffled together for the next turn."""


EVENTS = {
    cls.__name__: cls
    for cls in (CardsRemoved, DeckShuffled, CastlesDeployed, TurnStarted, CardsDrawn, BonusReset, RoundStarted,
                Passed, CardDiscarded, IncursionMade, RandomCardDiscarded, EventPlayed, BonusChanged, CastleFlipped,
                WallsBuilt, CardTaken, AttackDeclared, CardCommitted, CommitClosed, MuslimResponded,
                ResponsesOpened, ResponsePlaced, ResponsesDone, FlipsDone, CardsRevealed, DiceRolled,
                LeaderPointAdded, LeaderDone, CombatResolved, AreaConquered, AttackCardsDiscarded, AttackEnded,
                MuslimCardRevealed, ArmyRolled, TurnEnded, DeckReshuffled)
}
