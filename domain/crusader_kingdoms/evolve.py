"""How each Crusader Kingdoms event changes the state (3-8): one handler per event type, applied in place."""
from __future__ import annotations

from domain.events import evolves

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
from .state import LEADER_POINTS, SIDES, effect


def _from_hand(state: dict, k: int, card_id: int) -> None:
    state["kingdoms"][k]["hand"].remove(card_id)


def _to_discard(state: dict, card_id: int) -> None:
    state["discards"][state["cards"][card_id]["deck"]].append(card_id)


@evolves(CardsRemoved)
def _e_cards_removed(state, p):
    for c in p["cards"]:
        state["piles"][p["deck"]].remove(c["id"])
        state["removed"][p["deck"]].append(c["id"])


@evolves(DeckShuffled)
def _e_deck_shuffled(state, p):
    entry = p["random"][0]
    if sorted(entry["input"]) != sorted(state["piles"][p["deck"]]):
        raise ValueError("shuffle does not match the pile")
    state["piles"][p["deck"]] = list(entry["result"])


@evolves(CastlesDeployed)
def _e_castles_deployed(state, p):
    kingdom = state["kingdoms"][p["seat"]]
    for a in p["areas"]:
        state["areas"][str(a)] = {"owner": p["seat"], "castle": p["castles"], "plus": False}
        if p["castles"]:
            kingdom["supply"] -= 1


@evolves(TurnStarted)
def _e_turn_started(state, p):
    state.update(turn=p["turn"], passes=0, truces=[], phase="draw", current=None, slot=None)
    for kingdom in state["kingdoms"]:
        kingdom["passed"] = False


@evolves(CardsDrawn)
def _e_cards_drawn(state, p):
    kingdom = state["kingdoms"][p["seat"]]
    pile = state["piles"][kingdom["religion"]]
    ids = [c["id"] for c in p["cards"]]
    if pile[:len(ids)] != ids:
        raise ValueError("event does not match the top of the pile")
    del pile[:len(ids)]
    kingdom["hand"] += ids


@evolves(BonusReset)
def _e_bonus_reset(state, p):
    for kingdom in state["kingdoms"]:
        kingdom["bonus"] = 0


@evolves(RoundStarted)
def _e_round_started(state, p):
    state["current"] = p["seat"]
    state["slot"] = p["slot"]
    state["phase"] = "muslim" if state["kingdoms"][p["seat"]]["automated"] else "action"


@evolves(Passed)
def _e_passed(state, p):
    state["passes"] += 1
    state["kingdoms"][p["seat"]]["passed"] = True
    state["phase"] = "end_round"


@evolves(CardDiscarded)
def _e_card_discarded(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    _to_discard(state, p["card"]["id"])
    state["passes"] = 0
    state["phase"] = "end_round"


@evolves(IncursionMade)
def _e_incursion(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    _to_discard(state, p["card"]["id"])
    state["passes"] = 0
    state["phase"] = "end_round"


@evolves(RandomCardDiscarded)
def _e_random_card_discarded(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    _to_discard(state, p["card"]["id"])


@evolves(EventPlayed)
def _e_event_played(state, p):
    card_id = p["card"]["id"]
    _from_hand(state, p["seat"], card_id)
    if state["cards"][card_id]["persistent"]:
        state["kingdoms"][p["seat"]]["persistent"].append(card_id)
    else:
        _to_discard(state, card_id)
    if state["cards"][card_id]["effect"] == "truce":
        state["truces"].append([p["seat"], p["target"]])
    state["passes"] = 0
    state["phase"] = "end_round"


def _gain_taken(state, p):
    attack = state["attack"]
    if p.get("reason") == "conquest" and attack and attack["stage"] == "gain":
        attack["stage"] = "end"


@evolves(BonusChanged)
def _e_bonus_changed(state, p):
    state["kingdoms"][p["seat"]]["bonus"] = p["bonus"]
    _gain_taken(state, p)


@evolves(CastleFlipped)
def _e_castle_flipped(state, p):
    state["areas"][str(p["area"])]["plus"] = p["plus"]
    if p["reason"] == "defence":
        state["attack"]["flipped"].append(p["area"])
    _gain_taken(state, p)


@evolves(WallsBuilt)
def _e_walls_built(state, p):
    state["areas"][str(p["area"])].update(owner=p["seat"], castle=True, plus=True)
    state["kingdoms"][p["seat"]]["supply"] -= 1


@evolves(CardTaken)
def _e_card_taken(state, p):
    _from_hand(state, p["from"], p["card"]["id"])
    state["kingdoms"][p["seat"]]["hand"].append(p["card"]["id"])


@evolves(AttackDeclared, EventAttackDeclared)
def _e_attack_declared(state, p):
    state["attack"] = {"attacker": p["seat"], "area": p["area"], "defender": p["defender"], "event": p.get("event"),
                       "extra": p.get("extra", 0), "allies": p.get("allies", False), "attack": [], "defence": [],
                       "flipped": [], "stage": "commit", "responders": [], "dice": {}, "leaders": [],
                       "revealed": False, "won": None}
    state["phase"] = "attack"
    state["passes"] = 0


@evolves(MuslimAttackDeclared)
def _e_muslim_attack_declared(state, p):
    _e_attack_declared(state, p)
    state["attack"].update(attack=[[p["seat"], c["id"]] for c in p["army"]], stage="auto")
    state["kingdoms"][p["seat"]]["army"] = []


@evolves(CardCommitted)
def _e_card_committed(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    state["attack"]["attack"].append([p["seat"], p["card"]["id"]])


@evolves(CommitClosed)
def _e_commit_closed(state, p):
    state["attack"]["stage"] = "auto"


@evolves(MuslimResponded)
def _e_muslim_responded(state, p):
    state["kingdoms"][p["seat"]]["queue"].remove(p["card"]["id"])
    state["attack"]["defence"].append([p["seat"], p["card"]["id"]])


@evolves(ResponsesOpened)
def _e_responses_opened(state, p):
    state["attack"]["responders"] = list(p["responders"])
    state["attack"]["stage"] = "respond" if p["responders"] else "flip"


@evolves(ResponsePlaced)
def _e_response_placed(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    state["attack"][p["side"]].append([p["seat"], p["card"]["id"]])


@evolves(ResponsesDone)
def _e_responses_done(state, p):
    attack = state["attack"]
    attack["responders"].pop(0)
    if not attack["responders"]:
        attack["stage"] = "flip"


@evolves(FlipsDone)
def _e_flips_done(state, p):
    state["attack"]["stage"] = "reveal"


@evolves(CardsRevealed)
def _e_cards_revealed(state, p):
    state["attack"]["revealed"] = True
    state["attack"]["stage"] = "roll"


@evolves(DiceRolled)
def _e_dice_rolled(state, p):
    attack = state["attack"]
    attack["dice"][p["side"]] = list(p["random"][0]["result"]) if p["random"] else []
    if p["side"] == "defence":
        attack["leaders"] = [[owner, side, c, LEADER_POINTS] for side in SIDES for owner, c in attack[side]
                             if effect(state, c) == "leader"]
        attack["stage"] = "leaders"


@evolves(LeaderPointAdded)
def _e_leader_point(state, p):
    attack = state["attack"]
    attack["dice"][p["side"]][p["die"]] = p["value"]
    attack["leaders"][0][3] -= 1
    if attack["leaders"][0][3] == 0:
        attack["leaders"].pop(0)


@evolves(LeaderDone)
def _e_leader_done(state, p):
    state["attack"]["leaders"].pop(0)


@evolves(CombatResolved)
def _e_combat_resolved(state, p):
    state["attack"]["won"] = p["winner"] == "attack"
    state["attack"]["stage"] = "resolved"


@evolves(AreaConquered)
def _e_area_conquered(state, p):
    area = state["areas"][str(p["area"])]
    if p["removed"] is not None:
        state["kingdoms"][p["removed"]["seat"]]["supply"] += 1
    area.update(owner=p["seat"], castle=p["placed"], plus=False)
    if p["placed"]:
        state["kingdoms"][p["seat"]]["supply"] -= 1


@evolves(AttackCardsDiscarded)
def _e_attack_cards_discarded(state, p):
    attack = state["attack"]
    for c in p["cards"]:
        _to_discard(state, c["id"])
    if p["returned"] is not None:
        kingdom = state["kingdoms"][attack["attacker"]]
        (kingdom["army"] if kingdom["automated"] else kingdom["hand"]).append(p["returned"]["id"])
    attack["attack"], attack["defence"] = [], []
    attack["stage"] = "gain" if p["gain"] else "end"


@evolves(AttackEnded)
def _e_attack_ended(state, p):
    state["attack"] = None
    state["phase"] = "end_round"


@evolves(MuslimCardRevealed)
def _e_muslim_card_revealed(state, p):
    kingdom = state["kingdoms"][p["seat"]]
    card_id = p["card"]["id"]
    kingdom["hand"].remove(card_id)
    placed = p["placed"]
    if placed == "army":
        kingdom["army"].append(card_id)
    elif placed == "responses":
        kingdom["queue"].append(card_id)
    elif placed == "persistent":
        kingdom["persistent"].append(card_id)
    else:
        _to_discard(state, card_id)


@evolves(ArmyRolled)
def _e_army_rolled(state, p):
    pass


@evolves(TurnEnded)
def _e_turn_ended(state, p):
    state["phase"] = "turn_end"


@evolves(DeckReshuffled)
def _e_deck_reshuffled(state, p):
    deck = p["deck"]
    entry = p["random"][0]
    gathered = list(state["piles"][deck]) + list(state["discards"][deck])
    for kingdom in state["kingdoms"]:
        mine = [c for c in kingdom["persistent"] if state["cards"][c]["deck"] == deck]
        gathered += mine
        kingdom["persistent"] = [c for c in kingdom["persistent"] if c not in mine]
    if sorted(gathered) != sorted(entry["result"]):
        raise ValueError("reshuffle does not match the cards gathered")
    state["piles"][deck] = list(entry["result"])
    state["discards"][deck] = []




