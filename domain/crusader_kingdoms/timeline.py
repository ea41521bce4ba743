"""Plain English sentences for Crusader Kingdoms' events, written from what the viewer may see of them."""
from __future__ import annotations

from domain.adjudication import timed_outcome
from domain.events import describes

from .events import (
    AreaConquered,
    ArmyRolled,
    AttackCardsDiscarded,
    AttackDeclared,
    AttackEnded,
    BonusChanged,
    BonusReset,
    CardCommitted,
    CardDiscarded,
    CardsDrawn,
    CardsRemoved,
    CardsRevealed,
    CardTaken,
    CastleFlipped,
    CastlesDeployed,
    CombatResolved,
    CommitClosed,
    DeckReshuffled,
    DeckShuffled,
    DiceRolled,
    EventAttackDeclared,
    EventPlayed,
    FlipsDone,
    IncursionMade,
    LeaderDone,
    LeaderPointAdded,
    MuslimAttackDeclared,
    MuslimCardRevealed,
    MuslimResponded,
    Passed,
    RandomCardDiscarded,
    ResponsePlaced,
    ResponsesDone,
    ResponsesOpened,
    RoundStarted,
    TurnEnded,
    TurnStarted,
    WallsBuilt,
)


def _name(state: dict, k) -> str:
    if k is None:
        return "the independent defenders"
    kingdom = state["kingdoms"][k]
    if kingdom["automated"]:
        return "the Muslims"
    return f"{state['players'][k]} ({kingdom['name']})"


def _area(state: dict, area) -> str:
    return state["map"]["areas"][str(area)]["name"]


def _card(p: dict, key: str = "card") -> str:
    c = p.get(key)
    return c["name"] if c else "a card"


def _cards(cards: list[dict]) -> str:
    return ", ".join(c["name"] for c in cards) if cards else "nothing"


def _who(p: dict, state: dict) -> str:
    return _name(state, p.get("seat")) if "seat" in p else ""


@describes(CardsRemoved)
def _cards_removed(p, state, viewer):
    return f"{len(p['cards'])} cards were removed from the {p['deck']} deck for this game."


@describes(DeckShuffled)
def _deck_shuffled(p, state, viewer):
    return f"The {p['deck']} deck was shuffled."


@describes(CastlesDeployed)
def _castles_deployed(p, state, viewer):
    who = _who(p, state)
    return f"{who} deployed in {', '.join(_area(state, a) for a in p['areas'])}."


@describes(TurnStarted)
def _turn_started(p, state, viewer):
    return f"Turn {p['turn']} began."


@describes(CardsDrawn)
def _cards_drawn(p, state, viewer):
    who = _who(p, state)
    return f"{who} drew {len(p['cards']) if 'cards' in p else p.get('count', 0)} cards."


@describes(BonusReset)
def _bonus_reset(p, state, viewer):
    return "Every card bonus went back to 0."


@describes(RoundStarted)
def _round_started(p, state, viewer):
    who = _who(p, state)
    return f"{who}'s round."


@describes(Passed)
def _passed(p, state, viewer):
    who = _who(p, state)
    return f"{who} passed."


@describes(CardDiscarded)
def _card_discarded(p, state, viewer):
    who = _who(p, state)
    return f"{who} discarded {_card(p)}."


@describes(IncursionMade)
def _incursion_made(p, state, viewer):
    who = _who(p, state)
    return (f"{who} made an incursion into {_name(state, p['target'])}, discarding a "
            f"{_card(p)} and rolling {p['random'][0]['result'][0]}"
            + (": a hit." if p["hit"] else ": no effect."))


@describes(RandomCardDiscarded)
def _random_card_discarded(p, state, viewer):
    who = _who(p, state)
    return f"{who} discarded {_card(p)} at random."


@describes(EventPlayed)
def _event_played(p, state, viewer):
    who = _who(p, state)
    return (f"{who} played {_card(p)}"
            + (f" on {_name(state, p['target'])}" if "target" in p else "")
            + (f" at {_area(state, p['stack'])}" if "stack" in p else "") + ".")


@describes(BonusChanged)
def _bonus_changed(p, state, viewer):
    who = _who(p, state)
    return f"{who}'s card bonus went to {p['bonus']:+d}."


@describes(CastleFlipped)
def _castle_flipped(p, state, viewer):
    who = _who(p, state)
    return (f"{who} turned the castle in {_area(state, p['area'])} to its "
            f"{'+1' if p['plus'] else 'regular'} side.")


@describes(WallsBuilt)
def _walls_built(p, state, viewer):
    return f"The Muslims raised walls (a +1 castle) in {_area(state, p['area'])}."


@describes(CardTaken)
def _card_taken(p, state, viewer):
    who = _who(p, state)
    return f"{who} took {_card(p)} from {_name(state, p['from'])}."


def _attacked(p: dict, state: dict) -> str:
    held = f", held by {_name(state, p['defender'])}" if p["defender"] is not None else ""
    return f"{_who(p, state)} attacked {_area(state, p['area'])}{held}"


@describes(AttackDeclared, EventAttackDeclared)
def _attack_declared(p, state, viewer):
    return f"{_attacked(p, state)}."


@describes(MuslimAttackDeclared)
def _muslim_attack_declared(p, state, viewer):
    return f"{_attacked(p, state)}, with an army of {_cards(p['army'])}."


@describes(CardCommitted)
def _card_committed(p, state, viewer):
    who = _who(p, state)
    return f"{who} put {_card(p) if 'card' in p else 'a card'} face down for the attack."


@describes(CommitClosed)
def _commit_closed(p, state, viewer):
    who = _who(p, state)
    return f"{who} committed the attack."


@describes(MuslimResponded)
def _muslim_responded(p, state, viewer):
    return f"The Muslims answered with {_card(p)}."


@describes(ResponsesOpened)
def _responses_opened(p, state, viewer):
    return ("Responses: " + (", ".join(_name(state, k) for k in p["responders"])
            or "nobody") + ".")


@describes(ResponsePlaced)
def _response_placed(p, state, viewer):
    who = _who(p, state)
    return (f"{who} put {_card(p) if 'card' in p else 'a response card'} face down for the "
            f"{p['side']}.")


@describes(ResponsesDone)
def _responses_done(p, state, viewer):
    who = _who(p, state)
    return f"{who} added no more responses."


@describes(FlipsDone)
def _flips_done(p, state, viewer):
    who = _who(p, state)
    return f"{who} turned no more castles."


@describes(CardsRevealed)
def _cards_revealed(p, state, viewer):
    return f"Cards revealed: attack {_cards(p['attack'])}; defence {_cards(p['defence'])}."


@describes(DiceRolled)
def _dice_rolled(p, state, viewer):
    return (f"The {p['side']} rolled {p['count']} dice"
            + (f": {', '.join(map(str, p['random'][0]['result']))}" if p["random"] else "")
            + (" (rolled by the server)" if p["rolled_by"] == "server" else "") + ".")


@describes(LeaderPointAdded)
def _leader_point_added(p, state, viewer):
    who = _who(p, state)
    return f"{who}'s Leader raised a {p['side']} die to {p['value']}."


@describes(LeaderDone)
def _leader_done(p, state, viewer):
    who = _who(p, state)
    return f"{who}'s Leader added no more points."


@describes(CombatResolved)
def _combat_resolved(p, state, viewer):
    return f"{p['attack_hits']} hits against {p['defence_hits']}: the {p['winner']} won."


@describes(AreaConquered)
def _area_conquered(p, state, viewer):
    who = _who(p, state)
    return f"{who} conquered {_area(state, p['area'])}."


@describes(AttackCardsDiscarded)
def _attack_cards_discarded(p, state, viewer):
    return ("The attack's cards went to the discard piles"
            + (f"; {_card(p, 'returned')} stayed" if p["returned"] else "") + ".")


@describes(AttackEnded)
def _attack_ended(p, state, viewer):
    return "The attack is over."


@describes(MuslimCardRevealed)
def _muslim_card_revealed(p, state, viewer):
    return f"The Muslims revealed {_card(p)} ({p['placed']})."


@describes(ArmyRolled)
def _army_rolled(p, state, viewer):
    return (f"The Muslims rolled {p['die']} against their army of {p['strength']}"
            + (f" and attack {_area(state, p['area'])}." if p["area"] is not None else "."))


@describes(TurnEnded)
def _turn_ended(p, state, viewer):
    return f"Turn {p['turn']} ended."


@describes(DeckReshuffled)
def _deck_reshuffled(p, state, viewer):
    return f"The {p['deck']} deck was reshuffled for the next turn."


def outcome(p: dict) -> str:
    """How a match ended, in words, from MatchFinished's payload."""
    if "level" in p:
        return f"{p['vp']} victory points for the crusade, a {p['level'].replace('_', ' ')}"
    if p["reason"] == "sudden":
        return "a sudden victory"
    return timed_outcome(p, "castles", "castles on the map") or "the most castles after turn 3"
