"""Plain English sentences for Crusader Kingdoms' events, written from what the viewer may see of them."""
from __future__ import annotations


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


def describe(type_: str, p: dict, state: dict, viewer) -> str:
    """One sentence for one event; `p` is the payload as the viewer may see it, `state` the state before it."""
    who = _name(state, p.get("seat")) if "seat" in p else ""
    sentences = {
        "CardsRemoved": lambda: f"{len(p['cards'])} cards were removed from the {p['deck']} deck for this game.",
        "DeckShuffled": lambda: f"The {p['deck']} deck was shuffled.",
        "CastlesDeployed": lambda: f"{who} deployed in {', '.join(_area(state, a) for a in p['areas'])}.",
        "TurnStarted": lambda: f"Turn {p['turn']} began.",
        "CardsDrawn": lambda: f"{who} drew {len(p['cards']) if 'cards' in p else p.get('count', 0)} cards.",
        "BonusReset": lambda: "Every card bonus went back to 0.",
        "RoundStarted": lambda: f"{who}'s round.",
        "Passed": lambda: f"{who} passed.",
        "CardDiscarded": lambda: f"{who} discarded {_card(p)}.",
        "IncursionMade": lambda: f"{who} made an incursion into {_name(state, p['target'])}, discarding a "
                                 f"{_card(p)} and rolling {p['random'][0]['result'][0]}"
                                 + (": a hit." if p["hit"] else ": no effect."),
        "RandomCardDiscarded": lambda: f"{who} discarded {_card(p)} at random.",
        "EventPlayed": lambda: f"{who} played {_card(p)}"
                               + (f" on {_name(state, p['target'])}" if "target" in p else "")
                               + (f" at {_area(state, p['stack'])}" if "stack" in p else "") + ".",
        "BonusChanged": lambda: f"{who}'s card bonus went to {p['bonus']:+d}.",
        "CastleFlipped": lambda: f"{who} turned the castle in {_area(state, p['area'])} to its "
                                 f"{'+1' if p['plus'] else 'regular'} side.",
        "WallsBuilt": lambda: f"The Muslims raised walls (a +1 castle) in {_area(state, p['area'])}.",
        "CardTaken": lambda: f"{who} took {_card(p)} from {_name(state, p['from'])}.",
        "AttackDeclared": lambda: f"{who} attacked {_area(state, p['area'])}"
                                  + (f", held by {_name(state, p['defender'])}" if p["defender"] is not None else "")
                                  + (f", with an army of {_cards(p['army'])}" if "army" in p else "") + ".",
        "CardCommitted": lambda: f"{who} put {_card(p) if 'card' in p else 'a card'} face down for the attack.",
        "CommitClosed": lambda: f"{who} committed the attack.",
        "MuslimResponded": lambda: f"The Muslims answered with {_card(p)}.",
        "ResponsesOpened": lambda: "Responses: " + (", ".join(_name(state, k) for k in p["responders"])
                                                    or "nobody") + ".",
        "ResponsePlaced": lambda: f"{who} put {_card(p) if 'card' in p else 'a response card'} face down for the "
                                  f"{p['side']}.",
        "ResponsesDone": lambda: f"{who} added no more responses.",
        "FlipsDone": lambda: f"{who} turned no more castles.",
        "CardsRevealed": lambda: f"Cards revealed: attack {_cards(p['attack'])}; defence {_cards(p['defence'])}.",
        "DiceRolled": lambda: f"The {p['side']} rolled {p['count']} dice"
                              + (f": {', '.join(map(str, p['random'][0]['result']))}" if p["random"] else "")
                              + (" (rolled by the server)" if p["rolled_by"] == "server" else "") + ".",
        "LeaderPointAdded": lambda: f"{who}'s Leader raised a {p['side']} die to {p['value']}.",
        "LeaderDone": lambda: f"{who}'s Leader added no more points.",
        "CombatResolved": lambda: f"{p['attack_hits']} hits against {p['defence_hits']}: the {p['winner']} won.",
        "AreaConquered": lambda: f"{who} conquered {_area(state, p['area'])}.",
        "AttackCardsDiscarded": lambda: "The attack's cards went to the discard piles"
                                        + (f"; {_card(p, 'returned')} stayed" if p["returned"] else "") + ".",
        "AttackEnded": lambda: "The attack is over.",
        "MuslimCardRevealed": lambda: f"The Muslims revealed {_card(p)} ({p['placed']}).",
        "ArmyRolled": lambda: f"The Muslims rolled {p['die']} against their army of {p['strength']}"
                              + (f" and attack {_area(state, p['area'])}." if p["area"] is not None else "."),
        "TurnEnded": lambda: f"Turn {p['turn']} ended.",
        "DeckReshuffled": lambda: f"The {p['deck']} deck was reshuffled for the next turn.",
        "MatchFinished": lambda: _finished(p, state),
    }
    return sentences[type_]() if type_ in sentences else type_


def _finished(p: dict, state: dict) -> str:
    if "level" in p:
        return f"The crusade ended with {p['vp']} victory points: {p['level'].replace('_', ' ')}."
    winners = " and ".join(_name(state, k) for k in p["winners"])
    how = "a sudden victory" if p["reason"] == "sudden" else "the most castles after turn 3"
    return f"{winners} won with {how}."
