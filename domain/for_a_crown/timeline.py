"""Plain English sentences for For a Crown's events, written from what the viewer may see of them."""
from __future__ import annotations

from domain.adjudication import timed_outcome
from domain.events import describes

from .events import (
    BanditSent,
    BanditsReturned,
    CardRevealed,
    CoinGained,
    CoinsDealt,
    CostPaid,
    DieRolled,
    EffectChosen,
    EffectSkipped,
    EventsShuffled,
    FinalScored,
    HeirloomSold,
    LevelShuffled,
    MagesPaid,
    MercenariesTurnedUp,
    MercenaryRecruited,
    OfferDeclined,
    PlayerOut,
    PortraitMoved,
    PortraitsPlaced,
    RecruitPassed,
    RoundEnded,
    RoundStarted,
    RubiesLost,
    RubyGained,
    RubyTakenAway,
    SharedDeckShuffled,
)
from .state import cost

FACES = {"ruby": "a Ruby", "bandit": "a Masked Bandit", "steal_ruby": "a stolen Ruby", "die": "another roll",
         "coin": "a Coin", "portrait": "a Portrait"}
EFFECT_WORDS = {"ruby": "gain a Ruby", "bandit": "send a Masked Bandit", "steal_ruby": "make another lose a Ruby",
                "die": "roll the magic die", "coin": "gain a Coin", "portrait": "move a Portrait"}


def _family(state: dict, seat) -> str:
    return state["players"][seat]["family"]


def _money(coins: int, rubies: int) -> str:
    parts = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((coins, "Coin"), (rubies, "Ruby")) if n]
    return ", ".join(parts).replace("Rubys", "Rubies") or "nothing"


def _name(state: dict, card_id: int) -> str:
    card = state["cards"][card_id]
    return card["name"] if card["kind"] == "event" else f"a level-{card['level']} Mercenary ({card['name']})"


@describes(PortraitsPlaced)
def _placed(p, state, viewer):
    return "The Portraits were placed at random, most influential first: " + ", ".join(
        _family(state, s) for s in p["seats"]) + "."


@describes(CoinsDealt)
def _coins(p, state, viewer):
    return f"{_family(state, p['seat'])} took {p['coins']} Coins."


@describes(LevelShuffled)
def _level(p, state, viewer):
    return f"The level-{p['level']} Mercenaries were shuffled face down."


@describes(EventsShuffled)
def _events(p, state, viewer):
    return "The Events were shuffled into a face-down stack."


@describes(MercenariesTurnedUp)
def _turned(p, state, viewer):
    return f"Level {p['level']}: " + " and ".join(state["cards"][c]["name"] for c in p["cards"]) + " turned face up."


@describes(RoundStarted)
def _round(p, state, viewer):
    again = " recruits again" if p["round"] == state["round"] else f" {p['round']} began"
    return f"Round{again}: " + ", ".join(_family(state, s) for s in p["order"]) + " recruit in turn."


@describes(MercenaryRecruited)
def _recruited(p, state, viewer):
    what = _name(state, p["card"]) if "card" in p else f"the top level-{p['level']} card, unseen"
    if cost(state, p["level"]):
        return f"{_family(state, p['seat'])} chose {what}."
    return f"{_family(state, p['seat'])} recruited {what} for nothing."


@describes(CostPaid)
def _paid(p, state, viewer):
    level = state["cards"][state["steps"][0]["card"]]["level"]
    return (f"{_family(state, p['seat'])} recruited a level-{level} Mercenary for {p['coins'] + p['rubies']} "
            f"({_money(p['coins'], p['rubies'])}).")


@describes(RecruitPassed)
def _passed(p, state, viewer):
    return f"{_family(state, p['seat'])} could pay for no Mercenary and recruited none."


@describes(SharedDeckShuffled)
def _shuffled(p, state, viewer):
    return "The shared deck was shuffled for the reveal."


@describes(CardRevealed)
def _card_revealed(p, state, viewer):
    whose = "" if p["seat"] is None else f" of {_family(state, p['seat'])}"
    ignored = ", ignored: its family is out" if p["ignored"] else ""
    return f"Revealed: {_name(state, p['card'])}{whose}{ignored}."


@describes(EffectChosen)
def _chosen(p, state, viewer):
    return f"{_family(state, p['seat'])} chose to {EFFECT_WORDS[p['effects'][0]]}."


@describes(RubyGained)
def _ruby(p, state, viewer):
    why = {"most_influential": " for being the most influential", "most_coins": " for the most Coins"}
    if not p["count"]:
        return f"{_family(state, p['seat'])} gained no Ruby{why.get(p['reason'], '')}: the reserve has none left."
    return f"{_family(state, p['seat'])} gained a Ruby{why.get(p['reason'], '')}."


@describes(CoinGained)
def _coin(p, state, viewer):
    return f"{_family(state, p['seat'])} gained a Coin."


@describes(BanditSent)
def _bandit(p, state, viewer):
    return f"{_family(state, p['seat'])} sent a Masked Bandit to {_family(state, p['target'])}."


@describes(RubyTakenAway)
def _taken(p, state, viewer):
    return f"{_family(state, p['seat'])} made {_family(state, p['target'])} lose a Ruby."


@describes(RubiesLost)
def _lost(p, state, viewer):
    why = {"burglary": " to the Burglary", "scandal": " to the Scandal", "most_bandits": " for the most Bandits"}
    count = f"{p['count']} Rub{'y' if p['count'] == 1 else 'ies'}"
    return f"{_family(state, p['seat'])} lost {count}{why.get(p['reason'], '')}."


@describes(HeirloomSold)
def _heirloom(p, state, viewer):
    return f"{_family(state, p['seat'])} had no Ruby left and sold the Heirloom for {p['rubies']} Rubies."


@describes(PlayerOut)
def _out(p, state, viewer):
    return f"{_family(state, p['seat'])} had no Ruby and no Heirloom left: out of the game."


@describes(DieRolled)
def _die(p, state, viewer):
    return f"{_family(state, p['seat'])} rolled: the magic die showed {FACES[p['face']]}."


@describes(PortraitMoved)
def _moved(p, state, viewer):
    way = "right" if p["target"] > p["source"] else "left"
    return f"{_family(state, p['seat'])} moved the Portrait of {_family(state, p['portrait'])} {way}."


@describes(EffectSkipped)
def _skipped(p, state, viewer):
    return f"{_family(state, p['seat'])} could not {EFFECT_WORDS.get(p['effect'], p['effect'])}: {p['why']}."


@describes(BanditsReturned)
def _returned(p, state, viewer):
    paid = f" for {_money(p['coins'], p['rubies'])}" if p["coins"] or p["rubies"] else ""
    return f"{_family(state, p['seat'])} returned {p['count']} Masked Bandit{'s' if p['count'] != 1 else ''}{paid}."


@describes(MagesPaid)
def _mages(p, state, viewer):
    return f"{_family(state, p['seat'])} paid the Mercenary Mages {_money(p['coins'], p['rubies'])}."


@describes(OfferDeclined)
def _declined(p, state, viewer):
    what = "the Bribery" if p["event"] == "bribe" else "the Mercenary Mages"
    return f"{_family(state, p['seat'])} let {what} go by."


@describes(RoundEnded)
def _round_ended(p, state, viewer):
    return (f"Round {p['round']} ended: its cards and a new Event form the shared deck; the costs are now "
            + ", ".join("-" if c is None else str(c) for c in p["costs"]) + ".")


@describes(FinalScored)
def _final(p, state, viewer):
    if p["influence"] is None:
        return "Every family was out: nobody is left to win."
    return "The chests were opened: " + ", ".join(
        f"{_family(state, c['seat'])} {c['worth']}" for c in p["chests"] if c["worth"] is not None) + " Rubies."


def outcome(p: dict) -> str:
    """How a match ended, in words, from MatchFinished's payload."""
    return timed_outcome(p, "rubies", "Rubies") or (
        "the fourth round" if p["reason"] == "round4" else "the round in which a family went out")
