"""For a Crown's decisions: the setup, the events each legal move records, and every step the rules take alone
(refilling the Royal Square, revealing the shared deck, the Events, the end of a round and of the game)."""
from __future__ import annotations

from domain.errors import IllegalMove
from domain.events import MatchFinished
from domain.moves import compact
from domain.table import Table

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
from .moves import DIRECTIONS, explain, is_decision, legal_moves, step_moves
from .state import ROUNDS, copy_state, in_play, influence, next_free, section

FACE_UP = 2


def start(state: dict, rng) -> list[tuple[str, dict]]:
    """Setup 4-10: Portraits at random from the starred space leftwards, Coins by influence, levels 2-5 shuffled
    with 2 cards turned up, the Events stack shuffled; then round 1 begins."""
    table = Table(state, copy_state, rng)
    s = table.state
    order = rng.shuffle(list(range(len(s["players"]))))
    table.emit(PortraitsPlaced, seats=list(order["result"]), random=[order])
    ranked = influence(s)
    coins = s["board"]["starting_coins"]
    for seat in ranked:
        given = coins["most"] if seat == ranked[0] else coins["least"] if seat == ranked[-1] else coins["others"]
        table.emit(CoinsDealt, seat=seat, coins=min(given, s["reserve"]["coins"]))
    for level in range(2, 6):
        table.emit(LevelShuffled, level=level, random=[rng.shuffle(s["decks"][str(level)])])
    for level in range(2, 6):
        _turn_up(table, level)
    table.emit(EventsShuffled, random=[rng.shuffle(s["event_stack"])])
    table.emit(RoundStarted, round=1, order=influence(s))
    run(table)
    return table.events


def _turn_up(table: Table, level: int) -> None:
    s = table.state
    missing = FACE_UP - len(s["face_up"][str(level)])
    cards = s["decks"][str(level)][:max(missing, 0)]
    if cards:
        table.emit(MercenariesTurnedUp, level=level, cards=cards)


def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events that follow from a legal move, then every step the rules take alone; IllegalMove otherwise."""
    move = compact(move)
    if move not in legal_moves(state, seat):
        raise IllegalMove(explain(state, seat, move))
    table = Table(state, copy_state, rng)
    s = table.state
    kind = move["type"]
    step = s["steps"][0] if s["steps"] else None
    if kind == "recruit":
        _recruit(table, seat, move)
    elif kind == "pass":
        table.emit(RecruitPassed, seat=seat)
    elif kind == "pay":
        table.emit(CostPaid, seat=seat, coins=move["coins"], rubies=move["rubies"])
    elif kind == "choose_effect":
        table.emit(EffectChosen, seat=seat, card=step["card"], effects=[move["effect"]])
    elif kind == "choose_player" and step["effect"] == "bandit":
        table.emit(BanditSent, seat=seat, target=move["target"])
    elif kind == "choose_player":
        table.emit(RubyTakenAway, seat=seat, target=move["target"])
        lose_rubies(table, move["target"], 1, "steal_ruby")
    elif kind == "move_portrait":
        source = s["gallery"].index(move["portrait"])
        table.emit(PortraitMoved, seat=seat, portrait=move["portrait"], source=source,
                   target=next_free(s, move["portrait"], DIRECTIONS[move["direction"]]))
    elif kind == "bribe":
        paid = move["coins"] + move["rubies"]
        table.emit(BanditsReturned, seat=seat, count=paid, coins=move["coins"], rubies=move["rubies"])
    elif kind == "pay_mages":
        table.emit(MagesPaid, seat=seat, coins=move["coins"], rubies=move["rubies"])
    elif kind == "decline":
        table.emit(OfferDeclined, seat=seat, event=step["kind"])
    run(table)
    return table.events


def _recruit(table: Table, seat: int, move: dict) -> None:
    s = table.state
    level = move["level"]
    if level == 1:
        card, source = s["stacks"][move["stack"]][0], "stack"
        table.emit(MercenaryRecruited, seat=seat, level=1, source=source, card=card, stack=move["stack"])
        return
    card, source = (move["card"], "face_up") if "card" in move else (s["decks"][str(level)][0], "deck")
    table.emit(MercenaryRecruited, seat=seat, level=level, source=source, card=card)


def lose_rubies(table: Table, seat: int, count: int, reason: str) -> None:
    """A family puts Rubies back in the reserve; with none left it sells its Heirloom and pays on, or, the Heirloom
    already sold, it is out (Pamiątka rodowa; RULINGS F3)."""
    s = table.state
    player = s["players"][seat]
    while count and not player["out"]:
        if player["rubies"]:
            paid = min(count, player["rubies"])
            table.emit(RubiesLost, seat=seat, count=paid, reason=reason)
            count -= paid
        elif player["heirloom"] == "held":
            table.emit(HeirloomSold, seat=seat, rubies=min(s["board"]["heirloom_rubies"], s["reserve"]["rubies"]))
            if not player["rubies"]:
                return
        else:
            table.emit(PlayerOut, seat=seat, bandits=player["bandits"])


def run(table: Table) -> None:
    """Run every step the rules take alone until a seat must decide or the match is over."""
    s = table.state
    for _ in range(100000):
        if s["status"] != "active":
            return
        if s["steps"]:
            step = s["steps"][0]
            if is_decision(s, step) and step_moves(s, step):
                return
            _resolve(table, step)
        elif s["phase"] == "recruit":
            if s["current"] is not None:
                return
            _after_recruitment(table)
        elif s["phase"] == "round_end":
            table.emit(RoundStarted, round=s["round"] + 1, order=influence(s))
        else:
            raise AssertionError(f"nothing to do in phase {s['phase']}")
    raise AssertionError("the rules did not settle")


def _after_recruitment(table: Table) -> None:
    """Refill the Royal Square; recruit again in round 1; then shuffle the shared deck and reveal."""
    s = table.state
    for level in range(2, 6):
        _turn_up(table, level)
    if s["passes"]:
        table.emit(RoundStarted, round=s["round"], order=influence(s))
    else:
        table.emit(SharedDeckShuffled, random=[table.rng.shuffle(s["shared"])])


def _resolve(table: Table, step: dict) -> None:
    """One step the rules resolve alone."""
    s = table.state
    kind = step["kind"]
    if kind == "reveal":
        _reveal(table)
        return
    seat, effect = step["seat"], step.get("effect")
    if kind != "effect" or effect in ("bandit", "steal_ruby", "portrait"):
        why = {"bandit": "no Masked Bandit is left in the reserve" if not s["reserve"]["bandits"] else
               "no other player is in the game", "steal_ruby": "no other player is in the game",
               "portrait": "no Portrait has a free space on either side"}.get(effect, "nothing to decide")
        table.emit(EffectSkipped, seat=seat, effect=effect or kind, why=why)
    elif effect in ("ruby", "coin"):
        store = "rubies" if effect == "ruby" else "coins"
        if s["reserve"][store]:
            table.emit(RubyGained if effect == "ruby" else CoinGained, seat=seat, count=1, reason="effect")
        else:
            table.emit(EffectSkipped, seat=seat, effect=effect, why=f"the reserve has no {store} left")
    elif effect == "die":
        entry = table.rng.choice(len(s["board"]["die"]))
        table.emit(DieRolled, seat=seat, face=s["board"]["die"][entry["result"]], random=[entry])


def _reveal(table: Table) -> None:
    """2. Reveal: the next card of the shared deck, resolved at once; the end of the round once none is left."""
    s = table.state
    if not s["shared"]:
        _end_of_round(table)
        return
    card_id = s["shared"][0]
    card = s["cards"][card_id]
    seat = s["sleeves"].get(str(card_id))
    table.emit(CardRevealed, card=card_id, seat=seat, ignored=seat is not None and s["players"][seat]["out"])
    if card["kind"] != "event":
        return
    if card["event"] == "burglary":
        most = max((s["players"][p]["bandits"] for p in in_play(s)), default=0)
        for p in [p for p in in_play(s) if most and s["players"][p]["bandits"] == most]:
            lose_rubies(table, p, 2, "burglary")
            if not s["players"][p]["out"]:
                table.emit(BanditsReturned, seat=p, count=s["players"][p]["bandits"], coins=0, rubies=0)
    elif card["event"] == "scandal":
        for p in influence(s):
            loss = s["board"]["gallery"]["scandal"][section(s, p)]
            if loss:
                lose_rubies(table, p, loss, "scandal")


def _end_of_round(table: Table) -> None:
    """3. End of the round (not after the 4th, nor after a player went out), or the end of the game."""
    s = table.state
    if s["round"] < ROUNDS and not s["out_this_round"] and s["event_stack"]:
        costs = [0 if s["zero_tiles"] else None, *s["costs"][:-1]]
        table.emit(RoundEnded, round=s["round"], event=s["event_stack"][0], costs=costs)
        return
    _end_of_game(table)


def standing(state: dict) -> dict:
    """Each family's Rubies as the end of the game would count them now, then its influence (rightmost Portrait
    highest), the tie-break (Koniec gry): the end of the game played out on a copy of the state, so the count is the
    end's own. None for a family out. How a position is scored when time is called (RULINGS F10)."""
    table = Table(state, copy_state)
    _end_of_game(table)
    _, finished = table.events[-1]  # the end's MatchFinished
    order = influence(table.state)
    return {"rubies": finished["rubies"],
            "influence": [len(order) - order.index(p) if p in order else None for p in range(len(state["players"]))]}


def _end_of_game(table: Table) -> None:
    """The end of the game: +1 Ruby to the most influential and to the most Coins, -1 to the most Bandits; chests
    opened, an unsold Heirloom worth 10; most Rubies wins, a tie to the most influential."""
    s = table.state
    playing = in_play(s)
    players = s["players"]
    if not playing:  # every family went out this round: nobody is left to win (RULINGS F9)
        table.emit(FinalScored, influence=None, coins=[], bandits=[],
                   chests=[{"seat": p, "rubies": players[p]["rubies"], "coins": players[p]["coins"],
                            "heirloom": players[p]["heirloom"], "worth": None} for p in range(len(players))])
        table.emit(MatchFinished, reason="out", winner=None, winners=[], rubies=[None] * len(players))
        return
    first = influence(s)[0]
    richest = max(players[p]["coins"] for p in playing)
    most_coins = [p for p in playing if players[p]["coins"] == richest]
    worst = max(players[p]["bandits"] for p in playing)
    most_bandits = [p for p in playing if worst and players[p]["bandits"] == worst]
    for seat, reason in [(first, "most_influential"), *((p, "most_coins") for p in most_coins)]:
        # a Ruby the reserve cannot give is skipped, and said (RULINGS F4): a RubyGained of 0
        table.emit(RubyGained, seat=seat, count=min(1, s["reserve"]["rubies"]), reason=reason)
    for seat in most_bandits:
        lose_rubies(table, seat, 1, "most_bandits")
    playing = in_play(s)
    worth = {p: players[p]["rubies"] + (s["board"]["heirloom_rubies"] if players[p]["heirloom"] == "held" else 0)
             for p in playing}
    table.emit(FinalScored, influence=first, coins=most_coins, bandits=most_bandits,
               chests=[{"seat": p, "rubies": players[p]["rubies"], "coins": players[p]["coins"],
                        "heirloom": players[p]["heirloom"], "worth": worth.get(p)} for p in range(len(players))])
    best = max(worth.values())
    winner = next(p for p in influence(s) if worth[p] == best)
    table.emit(MatchFinished, reason="out" if s["out_this_round"] else "round4", winner=winner, winners=[winner],
               rubies=[worth.get(p) for p in range(len(players))])
