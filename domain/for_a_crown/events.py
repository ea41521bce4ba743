"""For a Crown's events: one class per thing that happens at the table, each with its payload's keys and its role for
a take-back (domain/undo.py). Their evolve, sentence and redaction are given in evolve.py, timeline.py and views.py."""
from domain.events import GameEvent


class PortraitsPlaced(GameEvent):
    """The Portraits were placed at random from the starred space leftwards (a herald-fair-v1 shuffle)."""

    fields = ("seats", "random")
    undo = "random"


class CoinsDealt(GameEvent):
    """A family took its starting Coins from the reserve: 3 the most influential, 5 the least, 4 the others."""

    fields = ("seat", "coins")
    undo = "random"


class LevelShuffled(GameEvent):
    """A level's Mercenaries (2 to 5) were shuffled face down (a herald-fair-v1 shuffle)."""

    fields = ("level", "random")
    undo = "random"


class EventsShuffled(GameEvent):
    """The Events that do not start in the shared deck were shuffled into a face-down stack."""

    fields = ("random",)
    undo = "random"


class MercenariesTurnedUp(GameEvent):
    """Cards from the top of a level's deck were turned face up beneath it (setup, or a refill)."""

    fields = ("level", "cards")
    undo = "reveals"


class RoundStarted(GameEvent):
    """A round began with its recruitment (twice in round 1), most influential first."""

    fields = ("round", "order")
    undo = "turn"


class MercenaryRecruited(GameEvent):
    """A family took a Mercenary: face up, from a level-1 stack, or (seen by it alone) from the top of a deck."""

    fields = ("seat", "level", "source", "card")
    optional = ("stack",)

    @classmethod
    def undo_role(cls, payload: dict) -> str:
        return "reveals" if payload["source"] == "deck" else "action-start"


class CostPaid(GameEvent):
    """The recruiter paid the cost into the reserve, in Coins and Rubies; the card went face down on the shared deck."""

    fields = ("seat", "coins", "rubies")
    undo = "action"


class RecruitPassed(GameEvent):
    """A family could not pay for any Mercenary on offer and recruited none."""

    fields = ("seat",)
    undo = "action-start"


class SharedDeckShuffled(GameEvent):
    """The shared deck was shuffled face down before the reveal (a herald-fair-v1 shuffle)."""

    fields = ("random",)
    undo = "random"


class CardRevealed(GameEvent):
    """The top card of the shared deck was turned face up: a family's Mercenary, or an Event."""

    fields = ("card", "seat", "ignored")
    undo = "reveals"


class EffectChosen(GameEvent):
    """The recruiter of a level-1 Mercenary chose one of its two effects."""

    fields = ("seat", "card", "effects")
    undo = "response"


class RubyGained(GameEvent):
    """A family took a Ruby from the reserve into its chest."""

    fields = ("seat", "count", "reason")
    undo = "response"


class CoinGained(GameEvent):
    """A family took a Coin from the reserve into its chest."""

    fields = ("seat", "count", "reason")
    undo = "response"


class BanditSent(GameEvent):
    """A family made another take a Masked Bandit from the reserve."""

    fields = ("seat", "target")
    undo = "response"


class RubyTakenAway(GameEvent):
    """A family made another lose a Ruby to the reserve (the loss itself follows as RubiesLost)."""

    fields = ("seat", "target")
    undo = "response"


class RubiesLost(GameEvent):
    """A family put Rubies from its chest back in the reserve."""

    fields = ("seat", "count", "reason")
    undo = "response"


class HeirloomSold(GameEvent):
    """A family with no Ruby left to pay sold its Heirloom, in public, for Rubies from the reserve; it is gone."""

    fields = ("seat", "rubies")
    undo = "response"


class PlayerOut(GameEvent):
    """A family with no Ruby and no Heirloom left is out: its Portrait and Bandits go; the round is played out."""

    fields = ("seat", "bandits")
    undo = "response"


class DieRolled(GameEvent):
    """A family rolled the magic die (a herald-fair-v1 roll); its face is an effect, applied at once."""

    fields = ("seat", "face", "random")
    undo = "random"


class PortraitMoved(GameEvent):
    """A family moved a Portrait to the next free Gallery space, left or right."""

    fields = ("seat", "portrait", "source", "target")
    undo = "response"


class EffectSkipped(GameEvent):
    """An effect could not be applied: nobody to choose, no free space, or an empty reserve."""

    fields = ("seat", "effect", "why")
    undo = "response"


class BanditsReturned(GameEvent):
    """A family put Masked Bandits back in the reserve (Burglary, Bribery, going out)."""

    fields = ("seat", "count", "coins", "rubies")
    undo = "response"


class MagesPaid(GameEvent):
    """Mercenary Mages: a family paid 1 Coin or 1 Ruby to roll the magic die."""

    fields = ("seat", "coins", "rubies")
    undo = "response"


class OfferDeclined(GameEvent):
    """A family let a Bribery or Mercenary Mages go by."""

    fields = ("seat", "event")
    undo = "response"


class RoundEnded(GameEvent):
    """The round's cards became the new face-down shared deck with a new Event from the stack, unseen, and a 0 cost
    tile slid in, pushing the others right."""

    fields = ("round", "event", "costs")
    undo = "turn"


class FinalScored(GameEvent):
    """The end of the game: the most influential +1 Ruby, the most Coins +1, the most Bandits -1; chests opened."""

    fields = ("influence", "coins", "bandits", "chests")
    undo = "turn"


EVENTS = (PortraitsPlaced, CoinsDealt, LevelShuffled, EventsShuffled, MercenariesTurnedUp, RoundStarted,
          MercenaryRecruited, CostPaid, RecruitPassed, SharedDeckShuffled, CardRevealed, EffectChosen, RubyGained,
          CoinGained, BanditSent, RubyTakenAway, RubiesLost, HeirloomSold, PlayerOut, DieRolled, PortraitMoved,
          EffectSkipped, BanditsReturned, MagesPaid, OfferDeclined, RoundEnded, FinalScored)
