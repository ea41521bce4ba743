"""Korona's rules: the legal moves of a seat, the events a move decides, and how events evolve the state."""
from __future__ import annotations

from domain import fair
from domain.errors import IllegalMove
from domain.table import Table

from . import interactive
from .cards import BUILD, DECK_SIZE, NAMES, card
from .scoring import combo, farmers, score
from .stacking import move as move_within
from .stacking import moves_within, placements, put
from .state import HAND_LIMIT, MAX_ACTIONS, copy_state

STARTING_HAND = 5
MARKET_SIZE = 3
PILE_DRAW = 2
EMPTY_HAND_PILE_DRAW = 5
EMPTY_HAND_MARKET_DRAWS = 2
EXTRA_DRAW_PILE = 2


# ---------------------------------------------------------------- evolve

def _take_from_pile(state: dict, cards: list[dict]) -> list[int]:
    ids = [c["id"] for c in cards]
    if state["pile"][:len(ids)] != ids:
        raise ValueError("event does not match the top of the pile")
    del state["pile"][:len(ids)]
    return ids


def _deck_shuffled(state, p):
    state["pile"] = list(p["random"][0]["result"])
    state["status"] = "active"


def _first_seat_chosen(state, p):
    state["current"] = p["seat"]


def _cards_dealt(state, p):
    state["players"][p["seat"]]["hand"] += _take_from_pile(state, p["cards"])


def _market_revealed(state, p):
    state["market"] += _take_from_pile(state, p["cards"])


def _turn_started(state, p):
    state.update(current=p["seat"], turn=p["turn"], phase="draw", actions=0, empty_start=p["empty_hand"],
                 market_draws=EMPTY_HAND_MARKET_DRAWS if p["empty_hand"] else 1)


def _cards_drawn(state, p):
    hand = state["players"][p["seat"]]["hand"]
    if p["source"] == "pile":
        hand += _take_from_pile(state, p["cards"])
    else:
        for c in p["cards"]:
            state["market"].remove(c["id"])
            hand.append(c["id"])
    if p["step"] == "draw":
        state["market_draws"] = p["draws_left"]
        if p["draws_left"] == 0:
            state["phase"] = "actions"


def _market_refilled(state, p):
    state["market"] += _take_from_pile(state, [p["card"]])


def _card_placed(state, p):
    player = state["players"][p["seat"]]
    card_id = p["card"]["id"]
    player["hand"].remove(card_id)
    put(player["area"], card_id, p.get("stack"))
    if p.get("role"):
        state["roles"][str(card_id)] = p["role"]
    state["actions"] += 1


def _card_discarded(state, p):
    state["players"][p["seat"]]["hand"].remove(p["card"]["id"])
    state["discard"].append(p["card"]["id"])
    if p["reason"] == "action":
        state["actions"] += 1


def _action_card_played(state, p):
    _card_discarded(state, {**p, "reason": "action"})
    if NAMES[p["card"]["id"]] in interactive.INTERACTIVE:
        interactive.on_played(state, {**p, "name": NAMES[p["card"]["id"]]})


def _card_moved(state, p):
    card_id = p["card"]["id"]
    move_within(state["players"][p["seat"]]["area"], card_id, p["from_stack"], p.get("stack"))
    if p.get("role"):
        state["roles"][str(card_id)] = p["role"]


def _hand_limit_exceeded(state, p):
    state["phase"] = "excess"


def _turn_ended(state, p):
    state["phase"] = "ended"


def _victory_declared(state, p):
    state["phase"] = "ended"


def _match_finished(state, p):
    state.update(status="finished", phase="over", winner=p["winner"], winners=list(p["winners"]),
                 result=p["reason"])


EVOLVE = {
    "DeckShuffled": _deck_shuffled,
    "FirstSeatChosen": _first_seat_chosen,
    "CardsDealt": _cards_dealt,
    "MarketRevealed": _market_revealed,
    "TurnStarted": _turn_started,
    "CardsDrawn": _cards_drawn,
    "MarketRefilled": _market_refilled,
    "CardPlaced": _card_placed,
    "CardDiscarded": _card_discarded,
    "ActionCardPlayed": _action_card_played,
    "CardMoved": _card_moved,
    "HandLimitExceeded": _hand_limit_exceeded,
    "TurnEnded": _turn_ended,
    "VictoryDeclared": _victory_declared,
    "MatchFinished": _match_finished,
    **interactive.EVOLVE,
}


def evolve(state: dict, type_: str, payload: dict) -> None:
    """Apply one event to the state, in place."""
    EVOLVE[type_](state, payload)


def _table(state: dict) -> Table:
    return Table(state, evolve, copy_state)


# ---------------------------------------------------------------- setup

def start(state: dict, rng) -> list[tuple[str, dict]]:
    """Shuffle, choose the first seat, deal 5 secret cards each, reveal a 3-card market, begin."""
    table = _table(state)
    table.emit("DeckShuffled", random=[rng.shuffle(list(range(DECK_SIZE)))])
    pick = rng.choice(len(state["players"]))
    table.emit("FirstSeatChosen", seat=pick["result"], random=[pick])
    for seat in range(len(state["players"])):
        table.emit("CardsDealt", seat=seat, cards=[card(c) for c in table.state["pile"][:STARTING_HAND]])
    table.emit("MarketRevealed", cards=[card(c) for c in table.state["pile"][:MARKET_SIZE]])
    _begin_turn(table, pick["result"])
    return table.events


def _begin_turn(table: Table, seat: int) -> None:
    state = table.state
    table.emit("TurnStarted", seat=seat, turn=state["turn"] + 1,
               empty_hand=not state["players"][seat]["hand"])


# ---------------------------------------------------------------- legal moves

def _excess(hand: int, actions_left: int) -> int:
    """Cards that could not be shed by the end of the turn, one per remaining action."""
    return max(0, hand - actions_left - HAND_LIMIT)


def _draw_options(state: dict) -> list[tuple[dict, int]]:
    """(move, cards it adds to the hand) for the draw step."""
    options = []
    first_draw = state["market_draws"] == (EMPTY_HAND_MARKET_DRAWS if state["empty_start"] else 1)
    if first_draw and state["pile"]:
        wanted = EMPTY_HAND_PILE_DRAW if state["empty_start"] else PILE_DRAW
        options.append(({"type": "draw", "source": "pile"}, min(wanted, len(state["pile"]))))
    options += [({"type": "draw", "source": "market", "card": c}, 1) for c in state["market"]]
    return options


def _draw_moves(state: dict, hand: int) -> list[dict]:
    options = _draw_options(state)
    if not options:
        return []
    excess = {id(m): _excess(hand + n, MAX_ACTIONS) for m, n in options}
    least = min(excess.values())
    return [m for m, _ in options if excess[id(m)] == least]


def _extra_draw_moves(state: dict, card_id: int, hand: int, actions_left: int) -> list[dict]:
    options = []
    if state["pile"]:
        options.append(({"type": "play", "card": card_id, "draw": "pile"}, min(EXTRA_DRAW_PILE, len(state["pile"]))))
    options += [({"type": "play", "card": card_id, "draw": "market", "take": c}, 1) for c in state["market"]]
    allowed = _excess(hand, actions_left)
    return [m for m, n in options if _excess(hand - 1 + n, actions_left - 1) <= allowed]


def _action_moves(state: dict, seat: int, only: int | None = None) -> list[dict]:
    """The action step's moves; with `only`, just those of that card (what checking one move needs)."""
    player = state["players"][seat]
    hand, area, roles = player["hand"], player["area"], state["roles"]
    actions_left = MAX_ACTIONS - state["actions"]
    moves = []
    internal = None
    spots = {}  # a Build card's placements depend only on its name
    for card_id in hand if only is None else [c for c in hand if c == only]:
        name = NAMES[card_id]
        if name in BUILD:
            if name not in spots:
                spots[name] = placements(area, card_id, roles)
            for stack, role in spots[name]:
                moves.append(_compact({"type": "place", "card": card_id, "stack": stack, "role": role}))
        elif name == "extra_draw":
            moves += _extra_draw_moves(state, card_id, len(hand), actions_left)
        elif name == "internal_move":
            internal = moves_within(area, roles) if internal is None else internal
            moves += [_compact({"type": "play", "card": card_id, "moved_card": moved, "from_stack": source,
                                "stack": target, "role": role})
                      for moved, source, target, role in internal]
        elif name in interactive.INTERACTIVE:
            moves += _own_card_plays(state, seat, card_id)
        moves.append({"type": "discard", "card": card_id})
    if only is None and state["actions"] >= 1 and len(hand) <= HAND_LIMIT:
        moves.append({"type": "end_turn"})
    return moves


def awaiting(state: dict) -> int | None:
    """The one seat whose decision the match waits for (None once it is over)."""
    if state["status"] != "active":
        return None
    if state["steps"]:
        return interactive.decider(state, state["steps"][0])
    return state["current"]


def legal_moves(state: dict, seat: int, card: int | None = None) -> list[dict]:
    """Every move the seat may make now, each exactly as POST /moves accepts it; empty if not its decision.
    With `card`, the action step lists only that card's moves."""
    if state["status"] != "active":
        return []
    if state["steps"]:
        step = state["steps"][0]
        if interactive.decider(state, step) != seat:
            return []
        return _own_card_steps(state, seat, interactive.step_moves(state, step))
    if seat != state["current"]:
        return []
    hand = state["players"][seat]["hand"]
    if state["phase"] == "draw":
        return _draw_moves(state, len(hand))
    if state["phase"] == "actions":
        return _action_moves(state, seat, card)
    if state["phase"] == "excess":
        return [{"type": "discard", "card": c} for c in hand]
    return []


def _compact(move: dict) -> dict:
    return {k: v for k, v in move.items() if v is not None}


# ---------------------------------------------------------------- the hand limit through one's own card (K3)

def _own_card_plays(state: dict, seat: int, card_id: int) -> list[dict]:
    """The plays of an interactive card after which, whatever the others decide, the seat can still end its turn
    with 7 cards using the actions it has left."""
    moves = interactive.play_moves(state, seat, card_id)
    hand, actions_left = len(state["players"][seat]["hand"]), MAX_ACTIONS - state["actions"]
    allowed = _excess(hand, actions_left)
    if _excess(hand - 1 + interactive.MOST_TO_HAND[NAMES[card_id]], actions_left - 1) <= allowed:
        return moves
    return [m for m in moves if _can_keep(_taking_effect(state, seat, m), seat, allowed)]


def _own_card_steps(state: dict, seat: int, options: list[dict]) -> list[dict]:
    """The options of a decision inside the seat's own card that keep K3's promise (all, if none can)."""
    resolving = state["resolving"]
    if not (resolving and resolving.get("effect") and resolving["seat"] == seat):
        return options
    hand, actions_left = len(state["players"][seat]["hand"]), MAX_ACTIONS - state["actions"]
    allowed = _excess(hand, actions_left)
    if _excess(hand + interactive.MOST_TO_HAND[resolving["name"]], actions_left) <= allowed:
        return options
    keeping = [m for m in options if _can_keep(_after_step(state, seat, m), seat, allowed)]
    return keeping or options


def _can_keep(state: dict, seat: int, allowed: int) -> bool:
    """Whether the seat can finish its own card with no more than `allowed` unavoidable excess: some choice of its
    own, and every choice of the others, keeps it there (its hand only grows until the card is done)."""
    if _excess(len(state["players"][seat]["hand"]), MAX_ACTIONS - state["actions"]) > allowed:
        return False
    if not state["steps"]:
        return True
    step = state["steps"][0]
    decider = interactive.decider(state, step)
    outcomes = (_can_keep(_after_step(state, decider, m), seat, allowed) for m in interactive.step_moves(state, step))
    return any(outcomes) if decider == seat else all(outcomes)


def _taking_effect(state: dict, seat: int, move: dict) -> dict:
    """The state once the card is played and no Shield stopped it."""
    table = _table(state)
    _play(table, seat, move)
    table.emit("ActionTookEffect", seat=seat, card=card(move["card"]))
    return table.state


def _after_step(state: dict, seat: int, move: dict) -> dict:
    table = _table(state)
    interactive.decide_step(table, seat, move)
    return table.state


# ---------------------------------------------------------------- decide

def decide(state: dict, seat: int, move: dict, rng) -> list[tuple[str, dict]]:
    """The events that follow from a legal move; IllegalMove with the reason otherwise."""
    move = _compact(move)
    if move not in legal_moves(state, seat, move.get("card") if isinstance(move.get("card"), int) else None):
        raise IllegalMove(explain(state, seat, move))
    table = _table(state)
    kind = move["type"]
    if state["steps"]:
        interactive.decide_step(table, seat, move)
        if table.state["resolving"] is None and table.state["status"] == "active":
            _after_action(table, state["current"])
        return table.events
    if kind == "draw":
        _draw(table, seat, move)
        return table.events
    if kind == "end_turn":
        _end_turn(table, seat)
        return table.events
    if kind == "discard" and state["phase"] == "excess":
        table.emit("CardDiscarded", seat=seat, card=card(move["card"]), reason="hand_limit")
        if len(table.state["players"][seat]["hand"]) <= HAND_LIMIT:
            _end_turn(table, seat)
        return table.events
    if kind == "place":
        table.emit("CardPlaced", seat=seat, card=card(move["card"]), stack=move.get("stack"), role=move.get("role"))
    elif kind == "discard":
        table.emit("CardDiscarded", seat=seat, card=card(move["card"]), reason="action")
    else:
        _play(table, seat, move)
    if table.state["resolving"] is None:
        _after_action(table, seat)
    return table.events


def _draw(table: Table, seat: int, move: dict) -> None:
    state = table.state
    if move["source"] == "pile":
        wanted = EMPTY_HAND_PILE_DRAW if state["empty_start"] else PILE_DRAW
        drawn = [card(c) for c in state["pile"][:wanted]]
        table.emit("CardsDrawn", seat=seat, source="pile", cards=drawn, step="draw", draws_left=0)
        return
    market_after = len(state["market"]) - 1 + (1 if state["pile"] else 0)
    draws_left = state["market_draws"] - 1 if market_after else 0
    table.emit("CardsDrawn", seat=seat, source="market", cards=[card(move["card"])], step="draw",
               draws_left=draws_left)
    _refill(table)


def _refill(table: Table) -> None:
    if table.state["pile"] and len(table.state["market"]) < MARKET_SIZE:
        table.emit("MarketRefilled", card=card(table.state["pile"][0]))


def _play(table: Table, seat: int, move: dict) -> None:
    state = table.state
    details = {key: move[key] for key in ("target", "zone", "thief", "stack") if key in move}
    if NAMES[move["card"]] == "glorious_attack":
        details["stack_cards"] = [card(c, state["roles"]) for c in
                                  state["players"][move["target"]]["area"][move["stack"]]]
    table.emit("ActionCardPlayed", seat=seat, card=card(move["card"]), **details)
    if NAMES[move["card"]] in interactive.INTERACTIVE:
        return
    if NAMES[move["card"]] == "extra_draw":
        if move["draw"] == "pile":
            drawn = [card(c) for c in state["pile"][:EXTRA_DRAW_PILE]]
            table.emit("CardsDrawn", seat=seat, source="pile", cards=drawn, step="extra_draw")
        else:
            table.emit("CardsDrawn", seat=seat, source="market", cards=[card(move["take"])], step="extra_draw")
            _refill(table)
    else:
        table.emit("CardMoved", seat=seat, card=card(move["moved_card"]), from_stack=move["from_stack"],
                   stack=move.get("stack"), role=move.get("role"))


def _after_action(table: Table, seat: int) -> None:
    """Combos are declared at once; after the third action the turn ends, or the excess is discarded."""
    state = table.state
    players = state["players"]
    for offset in range(len(players)):
        other = (seat + offset) % len(players)
        completed = combo(players[other]["area"], state["roles"])
        if completed:
            table.emit("VictoryDeclared", seat=other, combo=completed)
            _finish(table, "combo", [other])
            return
    if state["actions"] < MAX_ACTIONS:
        return
    hand = len(players[seat]["hand"])
    if hand > HAND_LIMIT:
        table.emit("HandLimitExceeded", seat=seat, excess=hand - HAND_LIMIT)
    else:
        _end_turn(table, seat)


def _end_turn(table: Table, seat: int) -> None:
    state = table.state
    table.emit("TurnEnded", seat=seat)
    if not state["pile"] and not state["market"]:
        _finish(table, "exhausted", _leaders(state))
    else:
        _begin_turn(table, (seat + 1) % len(state["players"]))


def final_scores(state: dict) -> list[int]:
    return [score(p["area"], state["roles"]) for p in state["players"]]


def _leaders(state: dict) -> list[int]:
    """Highest score wins; a tie goes to the most Farmers; a tie on both is shared."""
    ranking = [(s, farmers(p["area"], state["roles"])) for s, p in zip(final_scores(state), state["players"])]
    best = max(ranking)
    return [seat for seat, rank in enumerate(ranking) if rank == best]


def _finish(table: Table, reason: str, winners: list[int]) -> None:
    state = table.state
    table.emit("MatchFinished", reason=reason, winner=winners[0] if len(winners) == 1 else None, winners=winners,
               scores=final_scores(state))


# ---------------------------------------------------------------- reasons

OVER_THE_LIMIT = (f"that could leave you more than {HAND_LIMIT} cards in hand at the end of your turn, with no actions "
                  "left to shed them")

def explain(state: dict, seat: int, move: dict) -> str:
    """Why a move is not legal now, in a player's words."""
    if state["status"] != "active":
        return "the match is over"
    if state["steps"]:
        step = state["steps"][0]
        if interactive.decider(state, step) != seat:
            return interactive.describe(state, step)
        if move in interactive.step_moves(state, step):
            return OVER_THE_LIMIT
        return f"that is not one of your options: {interactive.describe(state, step)}"
    if seat != state["current"]:
        current = state["current"]
        return f"it is {state['players'][current]['name']}'s turn (seat {current})"
    hand = state["players"][seat]["hand"]
    kind = move.get("type")
    phase = state["phase"]
    if phase == "draw" and kind != "draw":
        return "you must draw first: 2 cards from the pile or 1 from the market"
    if phase == "excess":
        return f"you hold {len(hand)} cards: discard down to {HAND_LIMIT} to end your turn"
    if kind == "draw":
        if phase != "draw":
            return "you have already drawn this turn"
        return "you cannot draw that: choose the pile or a card in the market"
    if kind == "end_turn":
        if state["actions"] == 0:
            return "take at least one action before ending your turn"
        return f"you hold {len(hand)} cards; you may end your turn with at most {HAND_LIMIT}"
    card_id = move.get("card")
    if card_id not in hand:
        return f"card {card_id} is not in your hand"
    name = NAMES[card_id]
    if kind == "place":
        if name not in BUILD:
            return f"{name} is an Action card: play or discard it"
        return f"a {name} cannot be placed there under the stacking rules"
    if kind == "play":
        if name in BUILD:
            return f"{name} is a Build card: place or discard it"
        if name == "shield":
            return "a Shield is played only in answer to an Action card that targets you"
        if name == "revolt":
            return "Revolt needs 6 Farmers in your play area"
        if name == "extra_draw":
            return "that draw is not available, or it would leave you unable to end your turn with 7 cards"
        if name == "internal_move":
            return "Internal Move cannot make that move under the stacking rules"
        if move in interactive.play_moves(state, seat, card_id):
            return OVER_THE_LIMIT
        if name == "tactical_swap" and not interactive.open_tops(state["players"][seat]["area"]):
            return "Tactical Swap gives 1 of your Build cards in exchange, and you have none that may be given"
        return f"{name} cannot be played that way: check its target and the cards it names"
    return "that move is not legal now"


# ---------------------------------------------------------------- views

def views(state: dict, viewers) -> dict:
    """Several viewers' views of one state, the parts everyone sees (and the scores) worked out once."""
    public = _public_view(state)
    pending = public["pending"]
    options = legal_moves(state, pending["seat"]) if pending else None
    return {viewer: _own_view(public, state, viewer, options) for viewer in viewers}


def view(state: dict, viewer) -> dict:
    """What a viewer sees: a seat its own hand, the referee everything, a spectator no hand."""
    return views(state, [viewer])[viewer]


def _public_view(state: dict) -> dict:
    roles = state["roles"]
    scores = final_scores(state)
    return {
        "game": "korona",
        "status": state["status"],
        "current_seat": state["current"],
        "awaiting_seat": awaiting(state),
        "turn": state["turn"],
        "phase": state["phase"],
        "actions_taken": state["actions"],
        "winner": state["winner"],
        "winners": state["winners"],
        "draw_pile_count": len(state["pile"]),
        "market": [card(c) for c in state["market"]],
        "discard_pile": [card(c) for c in state["discard"]],
        "players": [{"seat": seat, "name": p["name"], "hand_count": len(p["hand"]),
                     "play_area": [[card(c, roles) for c in stack] for stack in p["area"]], "score": scores[seat]}
                    for seat, p in enumerate(state["players"])],
        "in_transit": [[card(t["card"]) for t in waiting] for waiting in state["transit"]],
        "pending": interactive.pending(state),
    }


def _own_view(public: dict, state: dict, viewer, options: list | None) -> dict:
    """The public view plus what this viewer alone may see: its hand, its pending options; the referee all."""
    referee = viewer == "referee"
    shown = {**public, "players": [
        {**entry, "hand": [card(c) for c in state["players"][seat]["hand"]]} if referee or viewer == seat else entry
        for seat, entry in enumerate(public["players"])]}
    pending = public["pending"]
    if pending and viewer in ("referee", pending["seat"]):
        shown["pending"] = {**pending, "options": options}
    if referee:
        shown["draw_pile"] = [card(c) for c in state["pile"]]
    return shown


SECRET_DRAWS = ("CardsDealt", "CardsDrawn")


def redact(type_: str, payload: dict, viewer) -> dict:
    """An event as a viewer may see it during play: no other seat's secret cards, no pile order."""
    if viewer == "referee":
        return payload
    if type_ == "DeckShuffled":
        return {**payload, "random": [fair.sealed(entry) for entry in payload["random"]]}
    if type_ == "CardGiven" and payload["zone"] == "hand" and viewer not in (payload["seat"], payload["to"]):
        return {k: v for k, v in payload.items() if k != "card"}
    if type_ in SECRET_DRAWS and payload.get("source", "pile") == "pile" and payload["seat"] != viewer:
        hidden = {k: v for k, v in payload.items() if k != "cards"}
        hidden["count"] = len(payload["cards"])
        return hidden
    return payload


# ---------------------------------------------------------------- undo

SETUP = ("DeckShuffled", "FirstSeatChosen", "CardsDealt", "MarketRevealed")


def undo_class(type_: str, payload: dict) -> str:
    """What an event means for a take-back (domain/undo.py)."""
    if type_ in ("CardPlaced", "ActionCardPlayed") or (type_ == "CardDiscarded" and payload["reason"] == "action"):
        return "action-start"
    if type_ == "CardMoved":
        return "action"
    if type_ == "TurnStarted" or (type_ == "CardsDrawn" and payload["step"] == "draw"):
        return "draw"
    if type_ in ("CardsDrawn", "MarketRefilled"):
        return "reveals"
    if type_ in interactive.EVOLVE:
        return "response"
    if type_ in SETUP:
        return "random"
    if type_ in ("RefereeResolved", "DisputeOpened", "DisputeRuled", "UndoRequested", "UndoDeclined", "ClientSeedSet"):
        return "note"
    return "turn"


def backup(state: dict, span: list[dict], rng) -> tuple[dict, list[dict], list[dict]]:
    """Back up to a state: if the undone span revealed pile cards, reshuffle the pile with a fresh nonce."""
    revealed = any(e["type"] == "MarketRefilled" or (e["type"] == "CardsDrawn" and e["payload"]["source"] == "pile")
                   for e in span)
    if not revealed or len(state["pile"]) < 2:
        return state, [], []
    entry = rng.shuffle(state["pile"])
    state["pile"] = list(entry["result"])
    return state, [{"zone": "pile", "cards": len(state["pile"])}], [entry]


def summary(state: dict) -> dict:
    return {"players": [p["name"] for p in state["players"]], "status": state["status"],
            "current_seat": state["current"], "turn": state["turn"], "winner": state["winner"]}
