"""Crusader Kingdoms: random legal playouts of every mode to their end, with invariants after every move."""
from __future__ import annotations

import json
import random

import pytest

from domain import fair
from domain.crusader_kingdoms import GAME as CRUSADER_KINGDOMS
from domain.crusader_kingdoms.events import EVENTS
from domain.crusader_kingdoms.moves import awaiting, legal_moves
from domain.crusader_kingdoms.state import MAX_BONUS, MIN_BONUS, castles_on_map
from domain.crusader_kingdoms.views import view
from domain.match import Match
from domain.matches import event_record
from replays import verify
from replays.export import export_lines
from tests.helpers.crusader import ids_in, zones
from tests.helpers.playouts import PLAYOUT_ID, play_out, randomly


def deck_places(state: dict, deck: str) -> list[int]:
    """Every card of a deck wherever it is: piles, discards, removed, hands, persistent, army, responses, attack."""
    ids = [c for zone in zones(state) for c in zone]
    if state["attack"]:
        ids += [c for side in ("attack", "defence") for _, c in state["attack"][side]]
    return sorted(c for c in ids if state["cards"][c]["deck"] == deck)


def check_crusader_state(state: dict) -> None:
    for deck in ("christian", "muslim"):
        assert deck_places(state, deck) == [c["id"] for c in state["cards"] if c["deck"] == deck], deck
    for k, kingdom in enumerate(state["kingdoms"]):
        assert kingdom["supply"] >= 0
        assert kingdom["supply"] + castles_on_map(state, k) == kingdom["castles"], kingdom["name"]
        assert MIN_BONUS <= kingdom["bonus"] <= MAX_BONUS
    for area in state["areas"].values():
        assert not area["plus"] or area["castle"]


def checked_playout(seed: bytes, players: int, chooser: random.Random) -> Match:
    """A whole match of random legal moves, its state checked at the start and after every move."""
    match = play_out("crusader_kingdoms", players, seed, randomly(chooser),
                     before_move=lambda match, seat, moves: check_crusader_state(match.state))
    check_crusader_state(match.state)
    return match


MODES = [1, 2, 3, 4]


@pytest.mark.parametrize("players", MODES)
@pytest.mark.parametrize("n", range(4))
def test_random_playouts_end_with_every_invariant(players, n):
    """Every mode plays to its end; cards are conserved per deck, castles per kingdom, bonuses stay in -2..+2;
    folding the log gives the live state; every die, shuffle and choice recomputes from the revealed seed, and
    the standalone verifier (replays.verify) passes the exported log."""
    seed = bytes([n, players]) * 16
    match = checked_playout(seed, players, random.Random(n * 10 + players))
    log = list(match.collect_events())
    rebuilt = None
    for event in log:
        rebuilt = event.mutate(rebuilt)
    assert rebuilt.state == match.state and rebuilt.chain == match.chain
    assert match.revealed_seed == seed.hex()
    entries = [e for event in log for e in getattr(event, "payload", {}).get("random", ())]
    assert entries and [e["nonce"] for e in entries] == list(range(len(entries)))
    for entry in entries:
        assert fair.recompute(seed, str(match.id), match.client_seeds, entry) == entry["result"]
    checks = []
    exported = export_lines(str(match.id), "crusader_kingdoms", [event_record(e) for e in log])
    assert verify.verify(exported, (), checks.append), checks
    kinds = {event.name for event in log}
    assert "TurnStarted" in kinds and "MatchFinished" in kinds
    assert kinds - {"MatchCreated", "SeedRevealed"} <= {cls.name for cls in EVENTS} | {"MatchFinished"}
    result = match.state["result"]
    if players <= 2:
        assert result["level"] in ("victory", "marginal_victory", "defeat")
    else:
        assert match.state["winners"]
    for event in log[1:]:
        kind = event.name
        if type(event) in EVENTS:
            sentence = match.game.describe(kind, event.payload, rebuilt.state, 0)
            assert isinstance(sentence, str) and sentence


def test_the_automated_muslims_attack_in_solo_playouts():
    """Across random solo and co-op playouts the automated Muslims roll their army and attack by themselves."""
    seen = set()
    for n in range(6):
        for players in (1, 2):
            match = checked_playout(bytes([n, 9, players]) * 10 + b"xx", players, random.Random(n))
            for event in match.collect_events():
                if event.name == "AttackDeclared" and "army" in event.payload:
                    seen.add(players)
    assert seen == {1, 2}


@pytest.mark.parametrize("players", MODES)
def test_a_seat_never_sees_another_hand_nor_a_pile(players):
    """A seat's view and its redacted log show no card of another hand, a face-down commitment or a pile,
    unless it was shown to everyone (revealed attack cards, incursion troops, events, Muslim cards)."""
    chooser = random.Random(players)
    match = Match.create(PLAYOUT_ID, "crusader_kingdoms", [f"P{i}" for i in range(players)], ["c"] * players,
                         {"referee": "", "seats": []}, bytes([players]) * 32)
    match.start()
    steps = 0
    while not match.finished and steps < 400:
        state = match.state
        log = [(e.name, e.payload) for e in match.collect_events()][1:]
        public = set()
        for kind, payload in log:
            public |= ids_in(CRUSADER_KINGDOMS.redact(kind, payload, None))
        for seat in range(players):
            secret = set(state["piles"]["christian"]) | set(state["piles"]["muslim"])
            for k, kingdom in enumerate(state["kingdoms"]):
                if k != seat:
                    secret |= set(kingdom["hand"])
            secret -= public
            shown = view(state, seat)
            assert "draw_piles" not in shown and not ids_in(shown) & secret
            redacted = [CRUSADER_KINGDOMS.redact(kind, payload, seat) for kind, payload in log]
            mine = set()
            for kind, payload in log:
                if payload.get("seat") == seat or payload.get("from") == seat:
                    mine |= ids_in(payload)
            assert not ids_in(json.loads(json.dumps(redacted))) & (secret - mine)
        seat = awaiting(state)
        match.play(seat, chooser.choice(legal_moves(state, seat)))
        steps += 1


def test_a_move_out_of_turn_names_whose_decision_is_awaited():
    """An illegal move is refused with a reason naming the seat whose decision is pending."""
    match = Match.create(PLAYOUT_ID, "crusader_kingdoms", ["Ana", "Bo", "Cy"], ["c"] * 3,
                         {"referee": "", "seats": []}, b"z" * 32)
    match.start()
    with pytest.raises(Exception, match="Ana's decision"):
        match.play(1, {"type": "pass"})
