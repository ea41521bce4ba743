"""How each For a Crown event changes the state, in place."""
from __future__ import annotations

from domain.events import evolves

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
from .state import cost, influence


def _pay(state: dict, seat: int, coins: int, rubies: int) -> None:
    player = state["players"][seat]
    player["coins"] -= coins
    player["rubies"] -= rubies
    state["reserve"]["coins"] += coins
    state["reserve"]["rubies"] += rubies


def _to_shared(state: dict, seat: int, card_id: int) -> None:
    state["shared"].append(card_id)
    state["sleeves"][str(card_id)] = seat
    state["recruits"] += 1


@evolves(PortraitsPlaced)
def _placed(state, p):
    start = state["board"]["gallery"]["start"]
    for offset, seat in enumerate(p["seats"]):
        state["gallery"][start - offset] = seat


@evolves(CoinsDealt)
def _coins_dealt(state, p):
    state["players"][p["seat"]]["coins"] += p["coins"]
    state["reserve"]["coins"] -= p["coins"]


@evolves(LevelShuffled)
def _level_shuffled(state, p):
    state["decks"][str(p["level"])] = list(p["random"][0]["result"])


@evolves(EventsShuffled)
def _events_shuffled(state, p):
    state["event_stack"] = list(p["random"][0]["result"])


@evolves(MercenariesTurnedUp)
def _turned_up(state, p):
    deck = state["decks"][str(p["level"])]
    if deck[:len(p["cards"])] != p["cards"]:
        raise ValueError("the cards turned up are not the top of the deck")
    del deck[:len(p["cards"])]
    state["face_up"][str(p["level"])] += p["cards"]


@evolves(RoundStarted)
def _round_started(state, p):
    if p["round"] != state["round"]:
        state["passes"] = 2 if p["round"] == 1 else 1
    state.update(round=p["round"], phase="recruit", order=list(p["order"]), recruits=0, current=p["order"][0])
    state["passes"] -= 1


@evolves(MercenaryRecruited)
def _recruited(state, p):
    level, card_id = str(p["level"]), p["card"]
    if p["source"] == "stack":
        state["stacks"][p["stack"]].remove(card_id)
    elif p["source"] == "face_up":
        state["face_up"][level].remove(card_id)
    else:
        state["decks"][level].remove(card_id)
        state["seen"][str(card_id)] = p["seat"]
    price = cost(state, p["level"])
    if price:
        state["steps"].insert(0, {"kind": "pay", "seat": p["seat"], "cost": price, "card": card_id})
    else:
        _to_shared(state, p["seat"], card_id)
        _next_recruiter(state)


def _next_recruiter(state: dict) -> None:
    order = state["order"]
    state["current"] = order[state["recruits"]] if state["recruits"] < len(order) else None


@evolves(CostPaid)
def _cost_paid(state, p):
    step = state["steps"].pop(0)
    _pay(state, p["seat"], p["coins"], p["rubies"])
    _to_shared(state, p["seat"], step["card"])
    _next_recruiter(state)


@evolves(RecruitPassed)
def _recruit_passed(state, p):
    state["recruits"] += 1
    _next_recruiter(state)


@evolves(SharedDeckShuffled)
def _shared_shuffled(state, p):
    state.update(shared=list(p["random"][0]["result"]), phase="reveal", current=None,
                 steps=[{"kind": "reveal"}])


@evolves(CardRevealed)
def _revealed(state, p):
    card_id = p["card"]
    if state["shared"][:1] != [card_id]:
        raise ValueError("the card revealed is not the top of the shared deck")
    state["shared"].pop(0)
    state["revealed"].append(card_id)
    state["seen"].pop(str(card_id), None)
    card = state["cards"][card_id]
    steps = []
    if card["kind"] == "mercenary" and not p["ignored"]:
        seat = p["seat"]
        if len(card["effects"]) == 2:
            steps = [{"kind": "choose", "seat": seat, "card": card_id}]
        else:
            steps = [{"kind": "effect", "seat": seat, "effect": e} for e in card["effects"][0]]
    elif card["kind"] == "event":
        order = influence(state)
        if card["event"] == "helping_hand":  # the least influential still in; nobody once every family is out (F9)
            steps = [{"kind": "effect", "seat": order[-1], "effect": "die"}] if order else []
        elif card["event"] == "bribery":
            steps = [{"kind": "bribe", "seat": s} for s in order if state["players"][s]["bandits"]]
        elif card["event"] == "mercenary_mages":
            steps = [{"kind": "mages", "seat": s} for s in order]
    state["steps"][:1] = [*steps, {"kind": "reveal"}]


@evolves(EffectChosen)
def _chosen(state, p):
    step = state["steps"].pop(0)
    state["steps"][:0] = [{"kind": "effect", "seat": step["seat"], "effect": e} for e in p["effects"]]


@evolves(RubyGained)
def _ruby_gained(state, p):
    state["players"][p["seat"]]["rubies"] += p["count"]
    state["reserve"]["rubies"] -= p["count"]
    if p["reason"] == "effect":
        state["steps"].pop(0)


@evolves(CoinGained)
def _coin_gained(state, p):
    state["players"][p["seat"]]["coins"] += p["count"]
    state["reserve"]["coins"] -= p["count"]
    state["steps"].pop(0)


@evolves(BanditSent)
def _bandit_sent(state, p):
    state["players"][p["target"]]["bandits"] += 1
    state["reserve"]["bandits"] -= 1
    state["steps"].pop(0)


@evolves(RubyTakenAway, EffectSkipped, OfferDeclined)
def _step_done(state, p):
    state["steps"].pop(0)


@evolves(RubiesLost)
def _rubies_lost(state, p):
    _pay(state, p["seat"], 0, p["count"])


@evolves(HeirloomSold)
def _heirloom_sold(state, p):
    state["players"][p["seat"]].update(heirloom="sold", rubies=state["players"][p["seat"]]["rubies"] + p["rubies"])
    state["reserve"]["rubies"] -= p["rubies"]


@evolves(PlayerOut)
def _player_out(state, p):
    seat = p["seat"]
    state["players"][seat].update(out=True, bandits=0)
    state["reserve"]["bandits"] += p["bandits"]
    state["gallery"][state["gallery"].index(seat)] = None
    state["steps"] = [s for s in state["steps"] if s.get("seat") != seat]
    state["out_this_round"] = True


@evolves(DieRolled)
def _die_rolled(state, p):
    step = state["steps"].pop(0)
    state["steps"].insert(0, {"kind": "effect", "seat": step["seat"], "effect": p["face"]})


@evolves(PortraitMoved)
def _portrait_moved(state, p):
    state["gallery"][p["source"]] = None
    state["gallery"][p["target"]] = p["portrait"]
    state["steps"].pop(0)


@evolves(BanditsReturned)
def _bandits_returned(state, p):
    state["players"][p["seat"]]["bandits"] -= p["count"]
    state["reserve"]["bandits"] += p["count"]
    _pay(state, p["seat"], p["coins"], p["rubies"])
    if state["steps"] and state["steps"][0]["kind"] == "bribe" and state["steps"][0]["seat"] == p["seat"]:
        state["steps"].pop(0)


@evolves(MagesPaid)
def _mages_paid(state, p):
    _pay(state, p["seat"], p["coins"], p["rubies"])
    state["steps"][0] = {"kind": "effect", "seat": p["seat"], "effect": "die"}


@evolves(RoundEnded)
def _round_ended(state, p):
    state["steps"].pop(0)
    state["event_stack"].remove(p["event"])
    state.update(shared=[*state["revealed"], p["event"]], revealed=[], costs=list(p["costs"]),
                 zero_tiles=state["zero_tiles"] - 1, phase="round_end")


@evolves(FinalScored)
def _final(state, p):
    state["steps"] = []
    state["phase"] = "over"
