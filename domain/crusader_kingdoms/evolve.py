"""How each Crusader Kingdoms event changes the state (3-8): one handler per event type, applied in place."""
from __future__ import annotations

from .state import LEADER_POINTS, SIDES, effect


def _from_hand(state: dict, k: int, card_id: int) -> None:
    state["kingdoms"][k]["hand"].remove(card_id)


def _to_discard(state: dict, card_id: int) -> None:
    state["discards"][state["cards"][card_id]["deck"]].append(card_id)


def _e_cards_removed(state, p):
    for c in p["cards"]:
        state["piles"][p["deck"]].remove(c["id"])
        state["removed"][p["deck"]].append(c["id"])


def _e_deck_shuffled(state, p):
    entry = p["random"][0]
    if sorted(entry["input"]) != sorted(state["piles"][p["deck"]]):
        raise ValueError("shuffle does not match the pile")
    state["piles"][p["deck"]] = list(entry["result"])
    state["status"] = "active"


def _e_castles_deployed(state, p):
    kingdom = state["kingdoms"][p["seat"]]
    for a in p["areas"]:
        state["areas"][str(a)] = {"owner": p["seat"], "castle": p["castles"], "plus": False}
        if p["castles"]:
            kingdom["supply"] -= 1


def _e_turn_started(state, p):
    state.update(turn=p["turn"], passes=0, truces=[], phase="draw", current=None, slot=None)
    for kingdom in state["kingdoms"]:
        kingdom["passed"] = False


def _e_cards_drawn(state, p):
    kingdom = state["kingdoms"][p["seat"]]
    pile = state["piles"][kingdom["religion"]]
    ids = [c["id"] for c in p["cards"]]
    if pile[:len(ids)] != ids:
        raise ValueError("event does not match the top of the pile")
    del pile[:len(ids)]
    kingdom["hand"] += ids


def _e_bonus_reset(state, p):
    for kingdom in state["kingdoms"]:
        kingdom["bonus"] = 0


def _e_round_started(state, p):
    state["current"] = p["seat"]
    state["slot"] = p["slot"]
    state["phase"] = "muslim" if state["kingdoms"][p["seat"]]["automated"] else "action"


def _e_passed(state, p):
    state["passes"] += 1
    state["kingdoms"][p["seat"]]["passed"] = True
    state["phase"] = "end_round"


def _e_card_discarded(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    _to_discard(state, p["card"]["id"])
    state["passes"] = 0
    state["phase"] = "end_round"


def _e_incursion(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    _to_discard(state, p["card"]["id"])
    state["passes"] = 0
    state["phase"] = "end_round"


def _e_random_card_discarded(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    _to_discard(state, p["card"]["id"])


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


def _e_bonus_changed(state, p):
    state["kingdoms"][p["seat"]]["bonus"] = p["bonus"]
    _gain_taken(state, p)


def _e_castle_flipped(state, p):
    state["areas"][str(p["area"])]["plus"] = p["plus"]
    if p["reason"] == "defence":
        state["attack"]["flipped"].append(p["area"])
    _gain_taken(state, p)


def _e_walls_built(state, p):
    state["areas"][str(p["area"])].update(owner=p["seat"], castle=True, plus=True)
    state["kingdoms"][p["seat"]]["supply"] -= 1


def _e_card_taken(state, p):
    _from_hand(state, p["from"], p["card"]["id"])
    state["kingdoms"][p["seat"]]["hand"].append(p["card"]["id"])


def _e_attack_declared(state, p):
    attack = {"attacker": p["seat"], "area": p["area"], "defender": p["defender"], "event": p.get("event"),
              "extra": p.get("extra", 0), "allies": p.get("allies", False), "attack": [], "defence": [],
              "flipped": [], "stage": "commit", "responders": [], "dice": {}, "leaders": [], "revealed": False,
              "won": None}
    if "army" in p:
        kingdom = state["kingdoms"][p["seat"]]
        attack["attack"] = [[p["seat"], c["id"]] for c in p["army"]]
        kingdom["army"] = []
        attack["stage"] = "auto"
    state["attack"] = attack
    state["phase"] = "attack"
    state["passes"] = 0


def _e_card_committed(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    state["attack"]["attack"].append([p["seat"], p["card"]["id"]])


def _e_commit_closed(state, p):
    state["attack"]["stage"] = "auto"


def _e_muslim_responded(state, p):
    state["kingdoms"][p["seat"]]["queue"].remove(p["card"]["id"])
    state["attack"]["defence"].append([p["seat"], p["card"]["id"]])


def _e_responses_opened(state, p):
    state["attack"]["responders"] = list(p["responders"])
    state["attack"]["stage"] = "respond" if p["responders"] else "flip"


def _e_response_placed(state, p):
    _from_hand(state, p["seat"], p["card"]["id"])
    state["attack"][p["side"]].append([p["seat"], p["card"]["id"]])


def _e_responses_done(state, p):
    attack = state["attack"]
    attack["responders"].pop(0)
    if not attack["responders"]:
        attack["stage"] = "flip"


def _e_flips_done(state, p):
    state["attack"]["stage"] = "reveal"


def _e_cards_revealed(state, p):
    state["attack"]["revealed"] = True
    state["attack"]["stage"] = "roll"


def _e_dice_rolled(state, p):
    attack = state["attack"]
    attack["dice"][p["side"]] = list(p["random"][0]["result"]) if p["random"] else []
    if p["side"] == "defence":
        attack["leaders"] = [[owner, side, c, LEADER_POINTS] for side in SIDES for owner, c in attack[side]
                             if effect(state, c) == "leader"]
        attack["stage"] = "leaders"


def _e_leader_point(state, p):
    attack = state["attack"]
    attack["dice"][p["side"]][p["die"]] = p["value"]
    attack["leaders"][0][3] -= 1
    if attack["leaders"][0][3] == 0:
        attack["leaders"].pop(0)


def _e_leader_done(state, p):
    state["attack"]["leaders"].pop(0)


def _e_combat_resolved(state, p):
    state["attack"]["won"] = p["winner"] == "attack"
    state["attack"]["stage"] = "resolved"


def _e_area_conquered(state, p):
    area = state["areas"][str(p["area"])]
    if p["removed"] is not None:
        state["kingdoms"][p["removed"]["seat"]]["supply"] += 1
    area.update(owner=p["seat"], castle=p["placed"], plus=False)
    if p["placed"]:
        state["kingdoms"][p["seat"]]["supply"] -= 1


def _e_attack_cards_discarded(state, p):
    attack = state["attack"]
    for c in p["cards"]:
        _to_discard(state, c["id"])
    if p["returned"] is not None:
        kingdom = state["kingdoms"][attack["attacker"]]
        (kingdom["army"] if kingdom["automated"] else kingdom["hand"]).append(p["returned"]["id"])
    attack["attack"], attack["defence"] = [], []
    attack["stage"] = "gain" if p["gain"] else "end"


def _e_attack_ended(state, p):
    state["attack"] = None
    state["phase"] = "end_round"


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


def _e_army_rolled(state, p):
    pass


def _e_turn_ended(state, p):
    state["phase"] = "turn_end"


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


def _e_match_finished(state, p):
    state.update(status="finished", phase="over", winner=p["winner"], winners=list(p["winners"]),
                 result={k: v for k, v in p.items() if k not in ("winner", "winners")})


EVOLVE = {
    "CardsRemoved": _e_cards_removed, "DeckShuffled": _e_deck_shuffled, "CastlesDeployed": _e_castles_deployed,
    "TurnStarted": _e_turn_started, "CardsDrawn": _e_cards_drawn, "BonusReset": _e_bonus_reset,
    "RoundStarted": _e_round_started, "Passed": _e_passed, "CardDiscarded": _e_card_discarded,
    "IncursionMade": _e_incursion, "RandomCardDiscarded": _e_random_card_discarded, "EventPlayed": _e_event_played,
    "BonusChanged": _e_bonus_changed, "CastleFlipped": _e_castle_flipped, "WallsBuilt": _e_walls_built,
    "CardTaken": _e_card_taken, "AttackDeclared": _e_attack_declared, "CardCommitted": _e_card_committed,
    "CommitClosed": _e_commit_closed, "MuslimResponded": _e_muslim_responded,
    "ResponsesOpened": _e_responses_opened, "ResponsePlaced": _e_response_placed,
    "ResponsesDone": _e_responses_done, "FlipsDone": _e_flips_done, "CardsRevealed": _e_cards_revealed,
    "DiceRolled": _e_dice_rolled, "LeaderPointAdded": _e_leader_point, "LeaderDone": _e_leader_done,
    "CombatResolved": _e_combat_resolved, "AreaConquered": _e_area_conquered,
    "AttackCardsDiscarded": _e_attack_cards_discarded, "AttackEnded": _e_attack_ended,
    "MuslimCardRevealed": _e_muslim_card_revealed, "ArmyRolled": _e_army_rolled, "TurnEnded": _e_turn_ended,
    "DeckReshuffled": _e_deck_reshuffled, "MatchFinished": _e_match_finished,
}


def evolve(state: dict, type_: str, payload: dict) -> None:
    """Apply one event to the state, in place."""
    EVOLVE[type_](state, payload)
