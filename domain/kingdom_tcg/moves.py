"""Kingdom TCG's legal moves: which strategy cards a seat may use at the open window (chapter 3.1), the base game's
decisions, the discards down to the hand limit, and why a move is refused."""
from __future__ import annotations

from domain.stack import resolving

from .data import TRIGGERS
from .state import HAND_LIMIT, SEATS, distance, occupied, on_field, other

DECISIONS = ("summon", "move", "designation")
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def window_key(state: dict) -> str | None:
    """The open window as cards name it, e.g. "before:attack_roll"."""
    window = state["window"]
    return f"{window['timing']}:{window['trigger']}" if window else None


def current_step(state: dict) -> dict | None:
    """The moment the turn is at: the first step not yet happened, or happened with its "after" window to open."""
    for step in state["steps"]:
        if step["at"] == "before" or anyone_asked(state, f"after:{step['trigger']}"):
            return step
    return None


def before_done(state: dict, step: dict) -> bool:
    """Whether a step's "before" window is over, or will not open (before a stage starts, its cards count)."""
    if step.get("opened", False):
        return True
    return not anyone_asked({**state, "stage": step.get("stage", state["stage"])}, f"before:{step['trigger']}")


def _condition(state: dict, card: dict) -> bool:
    """Whether what the card does is possible now (beyond its tab's turn, stage and window)."""
    effect, seat, combat = card["effect"], card["owner"], state["combat"]
    kind = effect["kind"]
    if kind in ("increase", "reduction"):
        if combat is None or combat["done"]:
            return False
        side = combat[effect["roll"]]
        mine = state["combatants"][side["combatant"]]["owner"] == seat
        if kind == "increase":
            return mine
        return not mine and side["raw"] is not None and not side["reduced"]
    if kind == "draw":
        return bool(state["players"][seat]["deck"])
    if kind == "cancel":
        top = state["stack"]["items"][-1] if state["stack"]["items"] else None
        return top is not None and top["seat"] != seat
    return bool(throws(state, card))


def usable(state: dict, card: dict, key: str) -> bool:
    """Chapter 3.1: from the hand, when the card's conditions hold and its tab's turn and stage match the moment,
    one name once a turn; a Royalty card only while its player controls its Coronado (3.2)."""
    seat, player = card["owner"], state["players"][card["owner"]]
    turn = {"own": state["current"] == seat, "enemy": state["current"] != seat, "both": True}[card["turn"]]
    if not turn or state["stage"] not in card["stages"] or key not in card["windows"]:
        return False
    if card["category"] == "Throw" and not _throw_time(state, seat):
        return False
    if card["name"] in player["names_used"]:
        return False
    if card["category"] == "Royalty" and state["combatants"][player["coronado"]]["at"] is None:
        return False
    return _condition(state, card)


def activations(state: dict, seat: int, key: str | None = None) -> list[dict]:
    """Every way the seat may use a card of its hand at a window (the open one by default)."""
    key = key or window_key(state)
    moves = []
    for card_id in state["players"][seat]["hand"]:
        card = state["cards"][card_id]
        if not usable(state, card, key):
            continue
        if card["effect"]["kind"] == "throw":
            moves += [{"type": "activate", "card": card_id, **choice} for choice in throws(state, card)]
        else:
            moves.append({"type": "activate", "card": card_id})
    return moves


def asked(state: dict, seat: int, key: str) -> bool:
    """Whether the seat is asked at a window: it holds a card usable there, or it chose full control and holds any
    card at all (an empty hand, public, passes at once), so the log's shape tells nothing of its hand (RULINGS KT3)."""
    player = state["players"][seat]
    if player.get("full_control") and player["hand"] and key.partition(":")[2] in TRIGGERS:
        return True
    return bool(activations(state, seat, key))


def anyone_asked(state: dict, key: str) -> bool:
    return any(asked(state, seat, key) for seat in SEATS)


def control(state: dict, seat: int) -> dict:
    """The setting a seat may change whenever it decides: full control on, or off again."""
    return {"type": "control", "full": not state["players"][seat].get("full_control", False)}


def _throw_time(state: dict, seat: int) -> bool:
    """3.4: a Throw card "solamente en su turno, y en cualquier etapa, menos durante la etapa de batalla", whatever its
    tab or effect says (RULINGS KT6)."""
    return state["current"] == seat and state["stage"] != "battle"


def throws(state: dict, card: dict) -> list[dict]:
    """3.4: a troop of its owner on the battlefield of at least the card's level throws at an enemy combatant in its
    cross at exactly the card's distance."""
    seat = card["owner"]
    if not _throw_time(state, seat):
        return []
    enemies = on_field(state, other(seat))
    return [{"thrower": thrower["id"], "target": target["id"]}
            for thrower in on_field(state, seat) if not thrower["coronado"] and thrower["level"] >= card["level"]
            for target in enemies
            if distance(thrower["at"], target["at"]) == card["effect"]["distance"]]


def _face(state: dict) -> int:
    """The d6's face the last summoning or movement roll kept (an Audacia face included), which the board's tables
    are read by (RULINGS KT2); a state folded before faces were kept falls back to the first face of its value."""
    face = state.get("roll_face")
    return state["board"]["dice"]["d6"].index(state["roll"]) if face is None else face


def _free(board: dict, taken: set, space: tuple[int, int]) -> bool:
    return 0 <= space[0] < board["rows"] and 0 <= space[1] < board["columns"] and space not in taken


def summons(state: dict, seat: int) -> list[dict]:
    """A troop of the combatant deck of at most the level the summoning roll allows, onto a free home-row space."""
    board = state["board"]
    allowed = board["summoning_levels"][_face(state)]
    row = board["home_rows"][seat]
    taken = occupied(state)
    spaces = [[row, column] for column in range(board["columns"]) if _free(board, taken, (row, column))]
    troops = [c for c in state["players"][seat]["reserve"] if state["combatants"][c]["level"] <= allowed]
    return [{"type": "summon", "combatant": c, "space": space} for c in troops for space in spaces]


def moves_of(state: dict, seat: int) -> list[dict]:
    """One combatant, in a straight line along its cross, 1 to the rolled number of spaces, through free spaces."""
    board = state["board"]
    reach = board["movement_spaces"][_face(state)]
    moves, taken = [], occupied(state)
    for combatant in on_field(state, seat):
        for dr, dc in STEPS:
            row, column = combatant["at"]
            for _ in range(reach):
                row, column = row + dr, column + dc
                if not _free(board, taken, (row, column)):
                    break
                moves.append({"type": "move", "combatant": combatant["id"], "to": [row, column]})
    return moves


def attacks(state: dict, seat: int) -> list[dict]:
    """A main attacker of the seat and a main enemy troop orthogonally next to it (a Coronado is not hurt by
    ordinary attacks)."""
    enemies = on_field(state, other(seat))
    return [{"type": "attack", "attacker": attacker["id"], "target": target["id"]}
            for attacker in on_field(state, seat) for target in enemies
            if not target["coronado"] and distance(attacker["at"], target["at"]) == 1]


def options(state: dict, step: dict) -> list[dict]:
    seat = state["current"]
    return {"summon": summons, "move": moves_of, "designation": attacks}[step["trigger"]](state, seat)


def awaiting(state: dict) -> int | None:
    """The one seat whose decision the match waits for (None while the rules act alone, and once it is over)."""
    if state["status"] != "active":
        return None
    if state["window"]:
        stack = state["stack"]
        if resolving(stack, SEATS) or stack["passes"] >= len(SEATS):
            return None
        return stack["priority"] if asked(state, stack["priority"], window_key(state)) else None
    step = current_step(state)
    if step is None or step["at"] == "after":
        return None
    if step["trigger"] == "end":
        return (over_limit(state) or [None])[0]
    if step["trigger"] in DECISIONS and before_done(state, step) and options(state, step):
        return state["current"]
    return None


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every move the seat may make now, each exactly as POST /moves accepts it; empty if not its decision."""
    if seat is None or awaiting(state) != seat:
        return []
    if state["window"]:
        return [*activations(state, seat), {"type": "pass"}, control(state, seat)]
    step = current_step(state)
    if step["trigger"] == "end":
        return [*({"type": "discard", "card": card} for card in state["players"][seat]["hand"]), control(state, seat)]
    return [*options(state, step), {"type": "skip"}, control(state, seat)]


def over_limit(state: dict) -> list[int]:
    """The seats holding more than 7 cards, the one whose turn ends first (3.1: "un máximo de siete (7) cartas")."""
    return [seat for seat in (state["current"], other(state["current"]))
            if len(state["players"][seat]["hand"]) > HAND_LIMIT]


def explain(state: dict, seat: int, move: dict) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is over" if state["status"] == "finished" else "the match has not started"
    waiting = awaiting(state)
    if waiting is None:
        return "no decision is pending"
    if waiting != seat:
        return f"it is {state['players'][waiting]['name']}'s decision (seat {waiting})"
    if move.get("type") == "control":
        return f"full control is already {'on' if move.get('full') else 'off'} for you"
    if move.get("type") == "activate" and move.get("card") in state["players"][seat]["hand"]:
        card = state["cards"][move["card"]]
        if card["name"] in state["players"][seat]["names_used"]:
            return f"you already used a card named {card['name']} this turn (chapter 3.1: different names a turn)"
        return (f"{card['name']} cannot be used now: its tab, its conditions or its target do not fit this moment "
                f"({window_key(state)} in the {state['stage']} stage)")
    return "that is not one of your options now: GET legal-moves lists them"


def referee_moves(state: dict, seat: int) -> list[dict]:
    """What the referee may record for a seat at any time during play (3.1, a card drawn or seen by mistake): the top
    card of its strategy deck, or a card of its hand, discarded unused (RULINGS KT7)."""
    if state["status"] != "active":
        return []
    player = state["players"][seat]
    return ([{"type": "mistake", "source": "deck"}] if player["deck"] else []) + [
        {"type": "mistake", "card": card} for card in player["hand"]]
