"""Crusader Kingdoms' rules: the state, the legal moves, the events a move decides and how events evolve the state.

Kingdoms are indexed like seats; in the 1- and 2-player games the automated Muslims are the last kingdom
(index = number of players). Every die, shuffle and random card is a herald-fair-v1 draw recorded in its event.
"""
from __future__ import annotations

import copy

from domain import fair
from domain.errors import IllegalMove

from .data import RELIGIONS, default_decks, default_map, load_decks, load_map

TURNS = 3
MAX_BONUS = 2
MIN_BONUS = -2
HIT = 4
LEADER_POINTS = 3
VICTORY = 15
MARGINAL = 11
SIDES = ("attack", "defence")


# ---------------------------------------------------------------- state

def new_state(created: dict) -> dict:
    """The state right after MatchCreated: map, decks and kingdoms set, nothing shuffled yet."""
    players = list(created["players"])
    options = created.get("options") or {}
    count = len(players)
    if not 1 <= count <= 4:
        raise IllegalMove("Crusader Kingdoms is played by 1 to 4 players")
    board = load_map(options.get("map") or default_map(count), count)
    decks = load_decks(options.get("decks") or default_decks())
    kingdoms = []
    for index, k in enumerate(board["setups"][str(count)]):
        kingdoms.append({"name": k["name"], "religion": k["religion"], "colour": k["colour"],
                         "automated": k["automated"],
                         "seat": None if k["automated"] else index, "castles": k["castles"], "supply": k["castles"],
                         "draw": k["cards"], "start": list(k["start"]), "hand": [], "bonus": 0, "persistent": [],
                         "passed": False, "army": [], "queue": []})
    areas = {str(a["id"]): {"owner": None, "castle": False, "plus": False} for a in board["areas"]}
    cards = decks["cards"]
    return {
        "game": "crusader_kingdoms",
        "mode": {1: "solo", 2: "coop", 3: "three", 4: "four"}[count],
        "players": players,
        "map": {"name": board["name"], "provisional": board["provisional"],
                "areas": {str(a["id"]): a for a in board["areas"]}},
        "decks_provisional": decks["provisional"],
        "cards": cards,
        "kingdoms": kingdoms,
        "areas": areas,
        "piles": {deck: [c["id"] for c in cards if c["deck"] == deck] for deck in RELIGIONS},
        "discards": {deck: [] for deck in RELIGIONS},
        "removed": {deck: [] for deck in RELIGIONS},
        "status": "seating" if created.get("await_client_seeds") else "active",
        "turn": 0,
        "current": None,
        "slot": None,
        "passes": 0,
        "phase": "setup",
        "attack": None,
        "truces": [],
        "winner": None,
        "winners": [],
        "result": None,
    }


def copy_state(state: dict) -> dict:
    """A deep working copy that shares the map and the card list, which never change."""
    memo = {id(state["map"]): state["map"], id(state["cards"]): state["cards"]}
    return copy.deepcopy(state, memo)


def coop(state: dict) -> bool:
    return state["mode"] in ("solo", "coop")


def humans(state: dict) -> list[int]:
    return [k for k, kingdom in enumerate(state["kingdoms"]) if not kingdom["automated"]]


def muslims(state: dict) -> int | None:
    """The automated Muslims' kingdom index in the 1- and 2-player games."""
    return len(state["players"]) if coop(state) else None


def card(state: dict, card_id: int) -> dict:
    c = state["cards"][card_id]
    return {"id": card_id, "name": c["name"], "deck": c["deck"], "effect": c["effect"], "value": c["value"]}


def effect(state: dict, card_id: int) -> str:
    return state["cards"][card_id]["effect"]


def value(state: dict, card_id: int) -> int:
    return state["cards"][card_id]["value"]


def owned(state: dict, k: int) -> list[int]:
    return sorted(int(a) for a, area in state["areas"].items() if area["owner"] == k)


def adjacent(state: dict, area: int) -> list[int]:
    return state["map"]["areas"][str(area)]["adjacent"]


def castles_on_map(state: dict, k: int) -> int:
    return sum(1 for area in state["areas"].values() if area["owner"] == k and area["castle"])


def regular_castles(state: dict, k: int) -> list[int]:
    return [a for a in owned(state, k) if state["areas"][str(a)]["castle"] and not state["areas"][str(a)]["plus"]]


def _truce(state: dict, a: int, b) -> bool:
    return [a, b] in state["truces"] or [b, a] in state["truces"]


# ---------------------------------------------------------------- evolve

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


class _Table:
    """A working copy of the state that records each event it applies, with the match's generator."""

    def __init__(self, state: dict, rng):
        self.state = copy_state(state)
        self.rng = rng
        self.events: list[tuple[str, dict]] = []

    def emit(self, type_: str, **payload) -> None:
        evolve(self.state, type_, payload)
        self.events.append((type_, payload))


# ---------------------------------------------------------------- setup and turns

def start(state: dict, rng) -> list[tuple[str, dict]]:
    """Remove the 1-2 player cards, shuffle both decks, deploy the castles, begin turn 1."""
    table = _Table(state, rng)
    s = table.state
    if coop(s):
        for deck in RELIGIONS:
            removed = [card(s, c["id"]) for c in s["cards"] if c["deck"] == deck and c["solo_removed"]]
            if removed:
                table.emit("CardsRemoved", deck=deck, cards=removed)
    for deck in RELIGIONS:
        table.emit("DeckShuffled", deck=deck, random=[rng.shuffle(s["piles"][deck])])
    for k, kingdom in enumerate(s["kingdoms"]):
        if kingdom["automated"]:
            rest = [int(a) for a, area in s["areas"].items() if area["owner"] is None]
            table.emit("CastlesDeployed", seat=k, areas=sorted(rest), castles=False)
        else:
            table.emit("CastlesDeployed", seat=k, areas=list(kingdom["start"]), castles=True)
    _begin_turn(table, 1)
    _advance(table)
    return table.events


def _begin_turn(table: _Table, turn: int) -> None:
    s = table.state
    table.emit("TurnStarted", turn=turn)
    for k, kingdom in enumerate(s["kingdoms"]):
        kept = 0 if kingdom["automated"] else len(kingdom["hand"])
        wanted = max(0, kingdom["draw"] + kingdom["bonus"] - kept)
        pile = s["piles"][kingdom["religion"]]
        table.emit("CardsDrawn", seat=k, cards=[card(s, c) for c in pile[:wanted]], wanted=wanted, kept=kept,
                   bonus=kingdom["bonus"])
    table.emit("BonusReset")
    table.emit("RoundStarted", seat=0, slot=0)


def _end_turn(table: _Table) -> None:
    s = table.state
    table.emit("TurnEnded", turn=s["turn"])
    if s["turn"] >= TURNS:
        _final(table)
        return
    for deck in RELIGIONS:
        gathered = list(s["piles"][deck]) + list(s["discards"][deck])
        for kingdom in s["kingdoms"]:
            gathered += [c for c in kingdom["persistent"] if s["cards"][c]["deck"] == deck]
        table.emit("DeckReshuffled", deck=deck, random=[table.rng.shuffle(gathered)])
    _begin_turn(table, s["turn"] + 1)


def _next_round(table: _Table) -> None:
    s = table.state
    crusaders = humans(s)
    if not coop(s):
        if s["passes"] >= len(crusaders):
            _end_turn(table)
        else:
            seat = (s["current"] + 1) % len(crusaders)
            table.emit("RoundStarted", seat=seat, slot=seat)
        return
    m = muslims(s)
    cards = bool(s["kingdoms"][m]["hand"])
    if all(s["kingdoms"][k]["passed"] for k in crusaders) and not cards:
        _end_turn(table)
        return
    n = len(crusaders)
    # the order of rounds: crusader s, the Muslims' round for s, crusader s + 1, ...
    position = ("muslim", s["slot"]) if s["current"] != m else ("crusader", (s["slot"] + 1) % n)
    for _ in range(2 * n + 2):
        kind, slot = position
        if kind == "muslim":
            if cards:
                table.emit("RoundStarted", seat=m, slot=slot)
                return
            position = ("crusader", (slot + 1) % n)
        else:
            if not s["kingdoms"][slot]["passed"]:
                table.emit("RoundStarted", seat=slot, slot=slot)
                return
            position = ("muslim", slot)
    raise AssertionError("no round to start")


def _final(table: _Table) -> None:
    s = table.state
    if coop(s):
        m = muslims(s)
        crusaders = humans(s)
        area_points = sum(s["map"]["areas"][str(a)]["vp"] for k in crusaders for a in owned(s, k))
        bonus_points = sum(s["kingdoms"][k]["bonus"] - s["kingdoms"][m]["bonus"] for k in crusaders)
        vp = area_points + bonus_points
        level = "victory" if vp >= VICTORY else "marginal_victory" if vp >= MARGINAL else "defeat"
        winners = crusaders if level != "defeat" else []
        table.emit("MatchFinished", reason="turn3", winner=winners[0] if len(winners) == 1 else None,
                   winners=winners, vp=vp, area_vp=area_points, bonus_vp=bonus_points, level=level)
        return
    ranking = [(castles_on_map(s, k), s["kingdoms"][k]["bonus"]) for k in humans(s)]
    best = max(ranking)
    winners = [k for k, rank in enumerate(ranking) if rank == best]
    table.emit("MatchFinished", reason="turn3", winner=winners[0] if len(winners) == 1 else None, winners=winners,
               castles=[r[0] for r in ranking], bonus=[r[1] for r in ranking])


# ---------------------------------------------------------------- the driver: automatic steps

def decider(state: dict) -> int | None:
    """The seat whose decision is pending, or None when the rules proceed by themselves (or the match is over)."""
    if state["status"] != "active":
        return None
    attack = state["attack"]
    if attack:
        stage = attack["stage"]
        if stage == "commit":
            return attack["attacker"]
        if stage == "respond":
            return attack["responders"][0]
        if stage == "flip":
            defender = attack["defender"]
            if defender is not None and not state["kingdoms"][defender]["automated"] and flippable(state):
                return defender
            return None
        if stage == "leaders":
            if attack["leaders"] and not state["kingdoms"][attack["leaders"][0][0]]["automated"]:
                return attack["leaders"][0][0]
            return None
        if stage == "gain":
            return attack["attacker"]
        return None
    if state["phase"] == "action":
        return state["current"]
    return None


def _advance(table: _Table) -> None:
    """Run every step the rules take alone until a player must decide or the match is over."""
    s = table.state
    for _ in range(100000):
        if s["status"] != "active" or decider(s) is not None:
            return
        if s["attack"]:
            _attack_step(table)
        elif s["phase"] == "end_round":
            _next_round(table)
        elif s["phase"] == "muslim":
            _muslim_round(table)
        else:
            raise AssertionError(f"nothing to do in phase {s['phase']}")
    raise AssertionError("the rules did not settle")


def attack_dice(state: dict) -> int:
    attack = state["attack"]
    kingdom = state["kingdoms"][attack["attacker"]]
    troops = sum(value(state, c) for _, c in attack["attack"] if effect(state, c) == "troop")
    persistent = sum(value(state, c) for c in kingdom["persistent"] if effect(state, c) == "attack_dice")
    return troops + attack["extra"] + persistent


def defence_dice(state: dict) -> int:
    attack = state["attack"]
    area = state["areas"][str(attack["area"])]
    count = state["map"]["areas"][str(attack["area"])]["defence"] + (1 if area["plus"] else 0)
    count += len(attack["flipped"])
    count += sum(value(state, c) for _, c in attack["defence"] if effect(state, c) == "defence_dice")
    if attack["defender"] is not None:
        count += sum(value(state, c) for c in state["kingdoms"][attack["defender"]]["persistent"]
                     if effect(state, c) == "defence_bonus")
    return count


def flippable(state: dict) -> list[int]:
    """The defender's +1 castles next to the attacked area that it may still turn for extra dice."""
    attack = state["attack"]
    defender = attack["defender"]
    return [a for a in adjacent(state, attack["area"])
            if state["areas"][str(a)]["owner"] == defender and state["areas"][str(a)]["plus"]
            and a not in attack["flipped"]]


def _responders(state: dict) -> list[int]:
    """Who may put responses into the attack, in order: every other player with cards (in 1-2 player modes
    not one who has passed: §8.2 "Si un jugador pasa, ya no puede jugar")."""
    attack = state["attack"]
    attacker = attack["attacker"]
    crusaders = humans(state)
    if coop(state):
        if state["kingdoms"][attacker]["automated"]:
            defender = attack["defender"]
            order = [defender] + [k for k in crusaders if k != defender]
        else:
            order = [k for k in crusaders if k != attacker]
        order = [k for k in order if not state["kingdoms"][k]["passed"]]
    else:
        order = [(attacker + i) % len(crusaders) for i in range(1, len(crusaders))]
    return [k for k in order if state["kingdoms"][k]["hand"]]


def _leader_die(dice: list[int]) -> int | None:
    """The automated Leader's point goes to the highest die still short of a hit (the cheapest hit)."""
    short = [(v, -i) for i, v in enumerate(dice) if v < HIT]
    if not short:
        return None
    return -max(short)[1]


def _attack_step(table: _Table) -> None:
    s = table.state
    attack = s["attack"]
    stage = attack["stage"]
    rng = table.rng
    if stage == "auto":
        defender = attack["defender"]
        if defender is not None and s["kingdoms"][defender]["automated"] and attack_dice(s) >= 3:
            queue = s["kingdoms"][defender]["queue"]
            usable = [c for c in queue if effect(s, c) in ("leader", "defence_dice")]
            if usable:
                table.emit("MuslimResponded", seat=defender, card=card(s, usable[0]))
        table.emit("ResponsesOpened", responders=_responders(s))
    elif stage in ("flip", "reveal"):
        table.emit("CardsRevealed", attack=[card(s, c) for _, c in attack["attack"]],
                   defence=[card(s, c) for _, c in attack["defence"]])
    elif stage == "roll":
        for side, count, owner in (("attack", attack_dice(s), attack["attacker"]),
                                   ("defence", defence_dice(s), attack["defender"])):
            automated = owner is None or s["kingdoms"][owner]["automated"]
            table.emit("DiceRolled", side=side, seat=owner, count=count,
                       rolled_by="server" if automated else owner,
                       random=[rng.dice(6, count)] if count else [])
    elif stage == "leaders":
        owner, side, _, _ = attack["leaders"][0]
        die = _leader_die(attack["dice"][side])
        if die is None:
            table.emit("LeaderDone", seat=owner, side=side)
        else:
            table.emit("LeaderPointAdded", seat=owner, side=side, die=die, value=attack["dice"][side][die] + 1)
    elif stage == "resolved":
        _conquest(table)
    elif stage == "end":
        table.emit("AttackEnded", seat=attack["attacker"])
    if stage in ("roll", "leaders") and s["attack"]["stage"] == "leaders" and not s["attack"]["leaders"]:
        _combat(table)


def _combat(table: _Table) -> None:
    s = table.state
    attack = s["attack"]
    hits = {side: sum(1 for d in attack["dice"][side] if d >= HIT) for side in SIDES}
    winner = "attack" if hits["attack"] > hits["defence"] else "defence"
    table.emit("CombatResolved", seat=attack["attacker"], attack_hits=hits["attack"],
               defence_hits=hits["defence"], winner=winner)


def _conquest(table: _Table) -> None:
    s = table.state
    attack = s["attack"]
    attacker, defender, area_id = attack["attacker"], attack["defender"], attack["area"]
    att_kingdom = s["kingdoms"][attacker]
    gain = False
    if attack["won"]:
        area = s["areas"][str(area_id)]
        removed = {"seat": defender, "plus": area["plus"]} if area["castle"] else None
        placed = not att_kingdom["automated"]
        table.emit("AreaConquered", seat=attacker, area=area_id, defender=defender, removed=removed, placed=placed)
        if not coop(s):
            if att_kingdom["supply"] == 0:
                table.emit("MatchFinished", reason="sudden", winner=attacker, winners=[attacker],
                           castles=[castles_on_map(s, k) for k in humans(s)])
                return
            if defender is not None and s["kingdoms"][defender]["bonus"] > MIN_BONUS:
                table.emit("BonusChanged", seat=defender, delta=-1, bonus=s["kingdoms"][defender]["bonus"] - 1,
                           reason="area_lost")
            gain = att_kingdom["bonus"] < MAX_BONUS or bool(regular_castles(s, attacker))
    used = [c for side in SIDES for _, c in attack[side]]
    returned = None
    if any(effect(s, c) == "regroup" for owner, c in attack["attack"] if owner == attacker):
        troops = [c for owner, c in attack["attack"] if owner == attacker and effect(s, c) == "troop"]
        if troops:
            returned = max(troops, key=lambda c: (value(s, c), -c))
            used.remove(returned)
    table.emit("AttackCardsDiscarded", seat=attacker, cards=[card(s, c) for c in used],
               returned=card(s, returned) if returned is not None else None, gain=gain)


# ---------------------------------------------------------------- the automated Muslims (sections 8.2-8.4)

FAVOURABLE = ("raid", "bonus_up", "bonus_down", "walls", "steal")


def _muslim_round(table: _Table) -> None:
    s = table.state
    m = s["current"]
    slot = s["slot"]
    _muslim_play(table, m, slot, s["kingdoms"][m]["hand"][0], "turn")
    if s["status"] != "active":
        return
    kingdom = s["kingdoms"][m]
    strength = sum(value(s, c) for c in kingdom["army"] if effect(s, c) == "troop")
    crusader_areas = any(owned(s, k) for k in humans(s))
    if strength and crusader_areas:
        entry = table.rng.dice(6, 1)
        die = entry["result"][0]
        target = None
        if die < strength and not _truce(s, m, slot):
            muslim_areas = set(owned(s, m))
            targets = [a for a in owned(s, slot) if muslim_areas & set(adjacent(s, a))]
            target = min(targets) if targets else None
        table.emit("ArmyRolled", seat=m, slot=slot, strength=strength, die=die, area=target, random=[entry])
        if target is not None:
            table.emit("AttackDeclared", seat=m, area=target, defender=slot,
                       army=[card(s, c) for c in kingdom["army"]])
            return
    _next_round(table)


def _muslim_play(table: _Table, m: int, slot: int, card_id: int, source: str) -> None:
    """Reveal a Muslim card and play it: events at once, responses and troops face up on the table."""
    s = table.state
    kingdom = s["kingdoms"][m]
    kind = effect(s, card_id)
    army = any(effect(s, c) == "troop" for c in kingdom["army"])
    if kind == "troop":
        placed = "army"
    elif kind == "leader":
        placed = "army" if army else "responses"
    elif kind == "regroup":
        placed = "army" if army else "discard"
    elif kind == "defence_dice":
        placed = "responses"
    elif kind in FAVOURABLE:
        placed = "event"
    elif kind == "defence_bonus" or kind == "attack_dice":
        placed = "persistent"
    else:
        placed = "discard"
    table.emit("MuslimCardRevealed", seat=m, slot=slot, card=card(s, card_id), placed=placed, source=source)
    if placed != "event":
        return
    target = s["kingdoms"][slot]
    if kind == "raid" and target["hand"]:
        _random_discard(table, slot)
    elif kind == "bonus_up" and kingdom["bonus"] < MAX_BONUS:
        table.emit("BonusChanged", seat=m, delta=1, bonus=kingdom["bonus"] + 1, reason="event")
    elif kind == "bonus_down" and target["bonus"] > MIN_BONUS:
        table.emit("BonusChanged", seat=slot, delta=-1, bonus=target["bonus"] - 1, reason="event")
    elif kind == "walls" and kingdom["supply"] > 0:
        spots = [a for a in owned(s, m) if not s["areas"][str(a)]["castle"]]
        if spots:
            table.emit("WallsBuilt", seat=m, area=min(spots))
    elif kind == "steal" and target["hand"]:
        pick = table.rng.choice(len(target["hand"]))
        taken = target["hand"][pick["result"]]
        table.emit("CardTaken", seat=m, **{"from": slot}, card=card(s, taken), random=[pick])
        _muslim_play(table, m, slot, taken, "seduction")


def _random_discard(table: _Table, k: int) -> None:
    hand = table.state["kingdoms"][k]["hand"]
    pick = table.rng.choice(len(hand))
    table.emit("RandomCardDiscarded", seat=k, card=card(table.state, hand[pick["result"]]), random=[pick])


# ---------------------------------------------------------------- legal moves

def attack_targets(state: dict, k: int) -> list[int]:
    """Areas seat k may attack: bordering its areas (or its deployment areas if it holds none)."""
    if state["kingdoms"][k]["supply"] <= 0:
        return []
    mine = owned(state, k)
    if mine:
        candidates = {b for a in mine for b in adjacent(state, a)}
    else:
        candidates = set(state["kingdoms"][k]["start"])
    targets = []
    for a in sorted(candidates):
        owner = state["areas"][str(a)]["owner"]
        if owner == k:
            continue
        if coop(state):
            if owner != muslims(state):
                continue
        elif owner is not None:
            both_christian = state["kingdoms"][k]["religion"] == state["kingdoms"][owner]["religion"] == "christian"
            if state["mode"] == "three" and both_christian:
                continue
        if owner is not None and _truce(state, k, owner):
            continue
        targets.append(a)
    return targets


def opponents(state: dict, k: int) -> list[int]:
    if coop(state):
        return [muslims(state)]
    return [o for o in humans(state) if o != k]


def bordering(state: dict, k: int) -> list[int]:
    mine = owned(state, k)
    near = {b for a in mine for b in adjacent(state, a)}
    return [o for o in opponents(state, k) if any(state["areas"][str(a)]["owner"] == o for a in near)]


def _event_moves(state: dict, k: int, card_id: int) -> list[dict]:
    kind = effect(state, card_id)
    kingdom = state["kingdoms"][k]
    play = {"type": "play", "card": card_id}
    if kind in ("raid", "bonus_down", "truce"):
        return [{**play, "target": o} for o in opponents(state, k)]
    if kind == "steal":
        return [{**play, "target": o} for o in opponents(state, k) if state["kingdoms"][o]["hand"]]
    if kind == "bonus_up":
        if coop(state) or kingdom["bonus"] < MAX_BONUS or not regular_castles(state, k):
            return [play]
        return [{**play, "stack": a} for a in regular_castles(state, k)]
    if kind == "walls":
        return [{**play, "stack": a} for a in regular_castles(state, k)]
    if kind == "attack_event":
        return [{**play, "stack": a} for a in attack_targets(state, k)]
    if kind in ("attack_dice", "defence_bonus"):
        return [play]
    return []


def _action_moves(state: dict, k: int) -> list[dict]:
    hand = state["kingdoms"][k]["hand"]
    moves = []
    troops = [c for c in hand if effect(state, c) == "troop"]
    if troops:
        moves += [{"type": "take", "stack": a} for a in attack_targets(state, k)]
        for o in bordering(state, k):
            moves += [{"type": "play", "card": c, "target": o} for c in troops]
    for c in hand:
        if effect(state, c) not in ("troop", *("leader", "defence_dice", "regroup")):
            moves += _event_moves(state, k, c)
    moves += [{"type": "discard", "card": c} for c in hand]
    moves.append({"type": "pass"})
    return moves


def _commit_moves(state: dict, k: int) -> list[dict]:
    attack = state["attack"]
    moves = [{"type": "place", "card": c} for c in state["kingdoms"][k]["hand"]
             if effect(state, c) in ("troop", "leader", "regroup")]
    committed = any(effect(state, c) == "troop" for _, c in attack["attack"])
    if committed or attack["event"] is not None:
        moves.append({"type": "pass"})
    return moves


def _response_moves(state: dict, k: int) -> list[dict]:
    attack = state["attack"]
    moves = []
    castle = state["areas"][str(attack["area"])]["castle"] or (
        attack["defender"] is not None and state["kingdoms"][attack["defender"]]["automated"])
    ally = attack["allies"] and state["kingdoms"][k]["religion"] == state["kingdoms"][attack["attacker"]]["religion"]
    for c in state["kingdoms"][k]["hand"]:
        kind = effect(state, c)
        if kind == "leader":
            moves += [{"type": "place", "card": c, "stack": 0}, {"type": "place", "card": c, "stack": 1}]
        elif kind == "defence_dice" and castle:
            moves.append({"type": "place", "card": c, "stack": 1})
        elif kind == "troop" and ally:
            moves.append({"type": "place", "card": c, "stack": 0})
    moves.append({"type": "pass"})
    return moves


def _gain_moves(state: dict, k: int) -> list[dict]:
    moves = [{"type": "draw"}] if state["kingdoms"][k]["bonus"] < MAX_BONUS else []
    return moves + [{"type": "reposition", "stack": a} for a in regular_castles(state, k)]


def awaiting(state: dict) -> int | None:
    """The one seat whose decision the match waits for (None once it is over)."""
    return decider(state)


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every move the seat may make now, each exactly as POST /moves accepts it; empty if not its decision."""
    if decider(state) != seat or seat is None:
        return []
    attack = state["attack"]
    if attack:
        stage = attack["stage"]
        if stage == "commit":
            return _commit_moves(state, seat)
        if stage == "respond":
            return _response_moves(state, seat)
        if stage == "flip":
            return [{"type": "shield", "stack": a} for a in flippable(state)] + [{"type": "pass"}]
        if stage == "leaders":
            side = attack["leaders"][0][1]
            return [{"type": "reposition", "stack": i} for i, d in enumerate(attack["dice"][side]) if d < 6] + [
                {"type": "pass"}]
        if stage == "gain":
            return _gain_moves(state, seat)
        return []
    if not state["kingdoms"][seat]["hand"]:
        return [{"type": "pass"}]
    return _action_moves(state, seat)


# ---------------------------------------------------------------- decide

def _compact(move: dict) -> dict:
    return {k: v for k, v in move.items() if v is not None and k not in ("expected_version", "resolve_for")}


def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events that follow from a legal move, then every automatic step; IllegalMove with the reason otherwise."""
    move = _compact(move)
    if move not in legal_moves(state, seat):
        raise IllegalMove(explain(state, seat, move))
    table = _Table(state, rng)
    s = table.state
    kind = move["type"]
    attack = s["attack"]
    if attack:
        stage = attack["stage"]
        if stage == "commit":
            if kind == "place":
                table.emit("CardCommitted", seat=seat, card=card(s, move["card"]))
            else:
                table.emit("CommitClosed", seat=seat)
        elif stage == "respond":
            if kind == "place":
                table.emit("ResponsePlaced", seat=seat, card=card(s, move["card"]), side=SIDES[move["stack"]])
            else:
                table.emit("ResponsesDone", seat=seat)
        elif stage == "flip":
            if kind == "shield":
                table.emit("CastleFlipped", seat=seat, area=move["stack"], plus=False, reason="defence")
            else:
                table.emit("FlipsDone", seat=seat)
        elif stage == "leaders":
            side = attack["leaders"][0][1]
            if kind == "reposition":
                table.emit("LeaderPointAdded", seat=seat, side=side, die=move["stack"],
                           value=attack["dice"][side][move["stack"]] + 1)
            else:
                table.emit("LeaderDone", seat=seat, side=side)
            if not s["attack"]["leaders"]:
                _combat(table)
        elif stage == "gain":
            if kind == "draw":
                table.emit("BonusChanged", seat=seat, delta=1, bonus=s["kingdoms"][seat]["bonus"] + 1,
                           reason="conquest")
            else:
                table.emit("CastleFlipped", seat=seat, area=move["stack"], plus=True, reason="conquest")
    elif kind == "pass":
        table.emit("Passed", seat=seat)
    elif kind == "discard":
        table.emit("CardDiscarded", seat=seat, card=card(s, move["card"]), reason="action")
    elif kind == "take":
        area = move["stack"]
        table.emit("AttackDeclared", seat=seat, area=area, defender=s["areas"][str(area)]["owner"])
    elif effect(s, move["card"]) == "troop":
        _incursion(table, seat, move)
    else:
        _event(table, seat, move)
    _advance(table)
    return table.events


def _incursion(table: _Table, seat: int, move: dict) -> None:
    s = table.state
    entry = table.rng.dice(6, 1)
    hit = entry["result"][0] >= HIT
    target = move["target"]
    table.emit("IncursionMade", seat=seat, target=target, card=card(s, move["card"]), hit=hit, random=[entry])
    if hit and s["kingdoms"][target]["hand"]:
        _random_discard(table, target)


def _event(table: _Table, seat: int, move: dict) -> None:
    s = table.state
    card_id = move["card"]
    kind = effect(s, card_id)
    details = {key: move[key] for key in ("target", "stack") if key in move}
    table.emit("EventPlayed", seat=seat, card=card(s, card_id), **details)
    kingdom = s["kingdoms"][seat]
    target = move.get("target")
    if kind == "raid" and s["kingdoms"][target]["hand"]:
        _random_discard(table, target)
    elif kind == "bonus_up":
        if kingdom["bonus"] < MAX_BONUS:
            table.emit("BonusChanged", seat=seat, delta=1, bonus=kingdom["bonus"] + 1, reason="event")
        elif "stack" in move:
            table.emit("CastleFlipped", seat=seat, area=move["stack"], plus=True, reason="bonus_overflow")
    elif kind == "bonus_down" and s["kingdoms"][target]["bonus"] > MIN_BONUS:
        table.emit("BonusChanged", seat=target, delta=-1, bonus=s["kingdoms"][target]["bonus"] - 1, reason="event")
    elif kind == "walls":
        table.emit("CastleFlipped", seat=seat, area=move["stack"], plus=True, reason="event")
    elif kind == "steal":
        hand = s["kingdoms"][target]["hand"]
        pick = table.rng.choice(len(hand))
        table.emit("CardTaken", seat=seat, **{"from": target}, card=card(s, hand[pick["result"]]), random=[pick])
    elif kind == "attack_event":
        area = move["stack"]
        table.emit("AttackDeclared", seat=seat, area=area, defender=s["areas"][str(area)]["owner"], event=card_id,
                   extra=s["cards"][card_id]["value"], allies=s["cards"][card_id]["allies"])


# ---------------------------------------------------------------- reasons

STAGE_WORDS = {
    "commit": "putting cards face down for the attack (place a troop, Leader or Regrouping card, or pass when done)",
    "respond": "adding response cards to the attack or the defence (stack 0 attack, 1 defence; pass when done)",
    "flip": "turning +1 castles next to the attacked area for extra defence dice (shield, or pass)",
    "leaders": "adding Leader points to dice (reposition with the die index, or pass)",
    "gain": "choosing the conquest reward: draw to advance the card bonus, or reposition to turn a castle to +1",
}


def explain(state: dict, seat: int, move: dict) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is over" if state["status"] == "finished" else "the match has not started"
    waiting = decider(state)
    names = state["players"]
    attack = state["attack"]
    doing = STAGE_WORDS.get(attack["stage"], "taking their action") if attack else "taking their action"
    if waiting != seat:
        return f"it is {names[waiting]}'s decision (seat {waiting}): {doing}"
    if attack:
        return f"that is not one of your options: you are {doing}"
    hand = state["kingdoms"][seat]["hand"]
    if not hand:
        return "you have no cards: you may only pass"
    if "card" in move and move["card"] not in hand:
        return f"card {move.get('card')} is not in your hand"
    if move.get("type") == "take":
        return ("you can attack only an area bordering yours (or one of your deployment areas if you hold none) "
                "that belongs to another player or is independent, with a troop card in hand")
    if move.get("type") == "play":
        return "that card cannot be played that way now: check its target"
    return "that move is not legal now: attack (take), incursion or event (play), discard or pass"


# ---------------------------------------------------------------- views

def _hidden_card(state: dict, owner, card_id: int, visible: bool) -> dict:
    return {"owner": owner, **card(state, card_id)} if visible else {"owner": owner, "hidden": True}


def view(state: dict, viewer) -> dict:
    """What a viewer sees: a seat its own hand, the referee everything, a spectator only the public table."""
    referee = viewer == "referee"
    kingdoms = []
    for k, kingdom in enumerate(state["kingdoms"]):
        entry = {"kingdom": k, "seat": kingdom["seat"], "name": kingdom["name"], "religion": kingdom["religion"],
                 "colour": kingdom.get("colour"),  # absent from states folded before colours were read
                 "automated": kingdom["automated"], "hand_count": len(kingdom["hand"]), "bonus": kingdom["bonus"],
                 "castles": kingdom["castles"], "castles_in_supply": kingdom["supply"],
                 "castles_on_map": castles_on_map(state, k), "areas": owned(state, k),
                 "persistent": [card(state, c) for c in kingdom["persistent"]], "passed": kingdom["passed"]}
        if kingdom["seat"] is not None:
            entry["player"] = state["players"][k]
        if referee or (viewer == k and not kingdom["automated"]):
            entry["hand"] = [card(state, c) for c in kingdom["hand"]]
        if kingdom["automated"]:
            entry["army"] = [card(state, c) for c in kingdom["army"]]
            entry["responses"] = [card(state, c) for c in kingdom["queue"]]
        kingdoms.append(entry)
    areas = [{**state["map"]["areas"][a], **state["areas"][a]} for a in sorted(state["areas"], key=int)]
    shown = {
        "game": "crusader_kingdoms",
        "mode": state["mode"],
        "status": state["status"],
        "current_seat": state["current"],
        "awaiting_seat": awaiting(state),
        "turn": state["turn"],
        "phase": state["phase"],
        "winner": state["winner"],
        "winners": state["winners"],
        "result": state["result"],
        "players": [{"seat": k, "name": state["players"][k], "kingdom": state["kingdoms"][k]["name"],
                     "hand_count": len(state["kingdoms"][k]["hand"])} for k in humans(state)],
        "kingdoms": kingdoms,
        "map": {"name": state["map"]["name"], "provisional": state["map"]["provisional"], "areas": areas},
        "decks": {deck: {"draw_pile_count": len(state["piles"][deck]), "discard_count": len(state["discards"][deck]),
                         "removed": [card(state, c) for c in state["removed"][deck]]} for deck in RELIGIONS},
        "truces": state["truces"],
        "attack": None,
    }
    attack = state["attack"]
    if attack:
        shown["attack"] = {
            "attacker": attack["attacker"], "area": attack["area"], "defender": attack["defender"],
            "stage": attack["stage"], "extra_dice": attack["extra"], "flipped": attack["flipped"],
            "responders": attack["responders"], "dice": attack["dice"],
            "leaders": [{"seat": o, "side": side, "points": n} for o, side, _, n in attack["leaders"]],
            **{side: [_hidden_card(state, o, c, attack["revealed"] or referee or viewer == o
                                   or state["kingdoms"][o]["automated"])
                      for o, c in attack[side]] for side in SIDES},
        }
    waiting = awaiting(state)
    if waiting is not None:
        pending = {"seat": waiting, "stage": attack["stage"] if attack else "action"}
        if viewer in ("referee", waiting):
            pending["options"] = legal_moves(state, waiting)
        shown["pending"] = pending
    if referee:
        shown["draw_piles"] = {deck: [card(state, c) for c in state["piles"][deck]] for deck in RELIGIONS}
        shown["discard_piles"] = {deck: [card(state, c) for c in state["discards"][deck]] for deck in RELIGIONS}
    return shown


def redact(type_: str, payload: dict, viewer) -> dict:
    """An event as a viewer may see it during play: no other seat's secret cards, no pile order."""
    if viewer == "referee":
        return payload
    if type_ in ("DeckShuffled", "DeckReshuffled"):
        return {**payload, "random": [fair.sealed(entry) for entry in payload["random"]]}
    if type_ == "CardsDrawn" and payload["seat"] != viewer:
        return {**{k: v for k, v in payload.items() if k != "cards"}, "count": len(payload["cards"])}
    if type_ in ("CardCommitted", "ResponsePlaced", "CardDiscarded", "RandomCardDiscarded") \
            and payload["seat"] != viewer:
        return {k: v for k, v in payload.items() if k != "card"}
    if type_ == "CardTaken" and viewer not in (payload["seat"], payload["from"]):
        return {k: v for k, v in payload.items() if k != "card"}
    return payload


def summary(state: dict) -> dict:
    return {"players": list(state["players"]), "status": state["status"], "current_seat": state["current"],
            "turn": state["turn"], "winner": state["winner"]}


# ---------------------------------------------------------------- undo

SETUP = ("CardsRemoved", "DeckShuffled", "CastlesDeployed")
ACTION_STARTS = ("Passed", "CardDiscarded", "IncursionMade", "EventPlayed")
MOVE_STARTS = ("AttackDeclared", "CardCommitted", "CommitClosed", "ResponsePlaced", "ResponsesDone", "CastleFlipped",
               "FlipsDone", "LeaderPointAdded", "LeaderDone", "BonusChanged", *ACTION_STARTS)
CONSEQUENCES = frozenset(t for t in EVOLVE if t not in MOVE_STARTS) | {"SeedRevealed"}


def undo_class(type_: str, payload: dict) -> str:
    """What an event means for a take-back (domain/undo.py)."""
    if type_ in ACTION_STARTS or (type_ == "AttackDeclared" and "army" not in payload):
        return "action-start"
    if type_ in ("CardCommitted", "CommitClosed"):
        return "action"
    if type_ in ("DiceRolled", "RandomCardDiscarded", "CardTaken", "ArmyRolled", "DeckReshuffled", "IncursionMade",
                 *SETUP):
        return "random"
    if type_ in ("CardsDrawn", "MuslimCardRevealed", "CardsRevealed"):
        return "reveals"
    if type_ in ("ResponsePlaced", "ResponsesDone", "FlipsDone", "LeaderPointAdded", "LeaderDone", "MuslimResponded",
                 "ResponsesOpened"):
        return "response"
    if type_ in ("RefereeResolved", "DisputeOpened", "DisputeRuled", "UndoRequested", "UndoDeclined", "ClientSeedSet"):
        return "note"
    return "turn"


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: reshuffle each draw pile (and the Muslims' face-down cards) the undone span revealed."""
    reshuffled, random = [], []
    drawn = {state["kingdoms"][e["payload"]["seat"]]["religion"] for e in span if e["type"] == "CardsDrawn"}
    for deck in RELIGIONS:
        if deck in drawn and len(state["piles"][deck]) >= 2:
            entry = rng.shuffle(state["piles"][deck])
            state["piles"][deck] = list(entry["result"])
            reshuffled.append({"zone": f"{deck} draw pile", "cards": len(entry["result"])})
            random.append(entry)
    m = muslims(state)
    if m is not None and any(e["type"] == "MuslimCardRevealed" for e in span):
        hand = state["kingdoms"][m]["hand"]
        if len(hand) >= 2:
            entry = rng.shuffle(hand)
            state["kingdoms"][m]["hand"] = list(entry["result"])
            reshuffled.append({"zone": "Muslim cards", "cards": len(hand)})
            random.append(entry)
    return state, reshuffled, random
