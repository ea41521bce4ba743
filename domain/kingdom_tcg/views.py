"""What each viewer sees of a Kingdom TCG match: a hand only its own seat's (the referee all), no deck's order, the
combatant deck's size only; events as a viewer may see them; the summary for match lists."""
from __future__ import annotations

from domain.events import redacts, sealed, without

from .events import CardsDrawn, StrategyDeckShuffled
from .moves import awaiting, window_key


def _card(state: dict, card_id: int) -> dict:
    card = state["cards"][card_id]
    return {k: card[k] for k in ("id", "name", "category", "turn", "stages", "effect") if k in card} | (
        {"level": card["level"]} if "level" in card else {})


def _combatant(state: dict, combatant_id: int) -> dict:
    c = state["combatants"][combatant_id]
    return {"id": c["id"], "name": c["name"], "owner": c["owner"], "level": c["level"], "coronado": c["coronado"]}


def view(state: dict, viewer) -> dict:
    """The table as a viewer sees it (the Kingdom TCG view of the issue's HTTP section)."""
    referee = viewer == "referee"
    players = []
    for seat, p in enumerate(state["players"]):
        entry = {"seat": seat, "name": p["name"], "coronado": _combatant(state, p["coronado"]),
                 "deck_count": len(p["deck"]), "hand_count": len(p["hand"]), "reserve_count": len(p["reserve"]),
                 "used": [_card(state, c) for c in p["used"]], "pit": [_combatant(state, c) for c in p["pit"]],
                 "names_used_this_turn": list(p["names_used"]), "defeated_levels": p["defeated_levels"],
                 "full_control": p.get("full_control", False)}
        if referee or viewer == seat:
            entry["hand"] = [_card(state, c) for c in p["hand"]]
            entry["reserve"] = [_combatant(state, c) for c in p["reserve"]]
        if referee:
            entry["deck"] = [_card(state, c) for c in p["deck"]]
        players.append(entry)
    waiting = awaiting(state)
    combat = state["combat"]
    shown = {
        "game": "kingdom_tcg",
        "status": state["status"],
        "turn": state["turn"],
        "current_seat": state["current"],
        "stage": state["stage"],
        "window": window_key(state),
        "awaiting_seat": waiting,
        "winner": state["winner"],
        "winners": state["winners"],
        "provisional": state["provisional"],
        "stack": [{"seat": item["seat"], **_card(state, item["card"]), "cancelled": item["cancelled"],
                   **{k: item[k] for k in ("combatant", "target", "thrower") if k in item}}
                  for stack in _stacks(state) for item in reversed(stack["items"])],
        "battlefield": {"rows": state["board"]["rows"], "columns": state["board"]["columns"],
                        "spaces": [{"space": c["at"], "combatant": _combatant(state, c["id"])}
                                   for c in sorted(state["combatants"], key=lambda c: c["at"] or [])
                                   if c["at"] is not None]},
        "combat": combat and {"kind": combat.get("kind", "battle"), "attacker": combat["attacker"],
                              "target": combat["target"],
                              "attack": dict(combat["attack"]), "defence": dict(combat["defence"])},
        "roll": state["roll"],
        "players": players,
    }
    return shown


def _stacks(state: dict) -> list[dict]:
    """The open window's stack, then those of the windows a card's own moments interrupted, top first."""
    return [state["stack"], *(frame["stack"] for frame in reversed(state.get("suspended", [])))]


redacts(StrategyDeckShuffled)(sealed)


@redacts(CardsDrawn)
def _drawn(payload: dict, viewer) -> dict:
    """A drawn card goes to a secret hand: the other seat sees how many."""
    return payload if viewer == payload["seat"] else without(payload, "cards")


def summary(state: dict) -> dict:
    return {"players": [p["name"] for p in state["players"]], "status": state["status"],
            "current_seat": awaiting(state), "turn": state["turn"], "winner": state["winner"]}


def move_names(view: dict) -> dict:
    """How the console names a move's values: its strategy cards and its combatants are numbered apart."""
    cards = {c["id"]: c["name"] for p in view["players"] for c in [*p.get("hand", []), *p["used"]]}
    combatants = {c["id"]: c["name"] for p in view["players"] for c in [p["coronado"], *p.get("reserve", []), *p["pit"]]}
    combatants |= {s["combatant"]["id"]: s["combatant"]["name"] for s in view["battlefield"]["spaces"]}
    return {"card": cards, **dict.fromkeys(("combatant", "attacker", "target", "thrower"), combatants)}
