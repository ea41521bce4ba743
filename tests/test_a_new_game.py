"""A game written only inside the tests (tests/race_game/) plugs into Herald by docs/ADDING_A_GAME.md alone."""
from __future__ import annotations

import copy
import random
import uuid
from pathlib import Path

import pytest

from domain.errors import IllegalMove
from domain.match import Match
from domain.matches import event_record
from domain.registry import GAMES
from replays import verify
from replays.export import export_lines
from replays.referee import rereferee
from tests.helpers.api import auth
from tests.helpers.http_match import HttpMatch
from tests.helpers.stores import second_server
from tests.race_game import DECK, GAME, HAND


@pytest.fixture
def race():
    """Race to 20 in domain.registry.GAMES (the dict the service, projector and replays look games up in), as a line
    in domain/registry.py would put it, then out."""
    assert GAME.name not in GAMES
    GAMES[GAME.name] = GAME
    try:
        yield GAME
    finally:
        del GAMES[GAME.name]


def new_match(seed: int = 1) -> Match:
    match = Match.create(uuid.uuid4(), GAME.name, ["Ana", "Bo"], ["a", "b"], {}, bytes([seed]) * 32)
    match.start()
    return match


def hidden_from(state: dict, viewer: int) -> list[int]:
    """The cards a seat cannot see: the other hands and the stock."""
    others = [c for seat, p in enumerate(state["players"]) if seat != viewer for c in p["hand"]]
    return others + state["stock"]


def swapped(state: dict, viewer: int, chooser: random.Random) -> dict:
    """The same position with the cards hidden from the viewer dealt differently."""
    cards = hidden_from(state, viewer)
    chooser.shuffle(cards)
    other = copy.deepcopy(state)
    for seat, p in enumerate(other["players"]):
        if seat != viewer:
            p["hand"], cards = cards[:len(p["hand"])], cards[len(p["hand"]):]
    other["stock"] = cards
    return other


def check_invariants(state: dict, played: int) -> None:
    in_hands = [c for p in state["players"] for c in p["hand"]]
    assert sorted(in_hands + state["stock"]) == sorted(set(in_hands + state["stock"]))
    assert len(in_hands) + len(state["stock"]) + played == len(DECK)
    assert all(len(p["hand"]) <= HAND for p in state["players"])
    if state["status"] == "active" and state["phase"] != "setup":
        assert GAME.awaiting(state) == state["current"]
        assert GAME.legal_moves(state, state["current"])
        assert not GAME.legal_moves(state, 1 - state["current"])


# ---------------------------------------------------------------- sentence tests (the rulebook in tests/race_game)

def test_one_modifier_a_turn_then_pass(race):
    """Race to 20, 2. Turn: "you may play one modifier card from your hand; pass to bank the die plus the modifier"."""
    match = new_match()
    seat = GAME.awaiting(match.state)
    assert GAME.legal_moves(match.state, seat) == [{"type": "roll"}]
    with pytest.raises(IllegalMove, match="roll the die first"):
        match.play(seat, {"type": "pass"})
    match.play(seat, {"type": "roll"})
    card = match.state["players"][seat]["hand"][0]
    match.play(seat, {"type": "play", "card": card})
    assert GAME.legal_moves(match.state, seat) == [{"type": "pass"}]
    die = match.state["die"]
    match.play(seat, {"type": "pass"})
    assert match.state["players"][seat]["score"] == die + DECK[card]


def test_a_played_modifier_is_replaced_from_the_stock(race):
    """Race to 20, 3. Drawing: "If you played a modifier, draw one card from the stock at the end of your turn"."""
    match = new_match(2)
    seat = GAME.awaiting(match.state)
    top = match.state["stock"][0]
    for move in ({"type": "roll"}, {"type": "play", "card": match.state["players"][seat]["hand"][0]}, {"type": "pass"}):
        match.play(seat, move)
    assert top in match.state["players"][seat]["hand"] and len(match.state["players"][seat]["hand"]) == HAND


def test_reaching_20_wins_at_once(race):
    """Race to 20, 4. Winning: "The first seat whose score reaches 20 wins at once"."""
    match = new_match(3)
    seat = GAME.awaiting(match.state)
    match.state["players"][seat]["score"] = 19
    match.play(seat, {"type": "roll"})
    match.play(seat, {"type": "pass"})
    assert match.finished and match.state["winners"] == [seat] and match.revealed_seed is not None
    assert [e.__class__.__name__ for e in match.pending_events][-3:] == ["PointsScored", "MatchFinished",
                                                                         "SeedRevealed"]


# ---------------------------------------------------------------- playouts: invariants, leaks, fold equals live

@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_the_invariants_hide_the_hands_and_fold_to_the_live_state(race, seed):
    """After every event: cards conserved, one seat awaited; a seat's view is the same whatever the cards hidden from
    it; the state folded from the log equals the live one."""
    match = new_match(seed + 10)
    chooser = random.Random(seed)
    while not match.finished:
        seat = GAME.awaiting(match.state)
        match.play(seat, chooser.choice(GAME.legal_moves(match.state, seat)))
        records = [event_record(e) for e in match.pending_events]
        played = sum(r["type"] == "ModifierPlayed" for r in records)
        check_invariants(match.state, played)
        for viewer in (0, 1):
            assert GAME.view(swapped(match.state, viewer, chooser), viewer) == GAME.view(match.state, viewer)
            for r in records:
                shown = GAME.redact(r["type"], r["payload"], viewer)
                if r["type"] in ("HandDealt", "ModifierDrawn") and r["payload"]["seat"] != viewer:
                    assert "cards" not in shown
                if r["type"] == "ModifiersShuffled":
                    assert shown["random"][0]["result"] is None and shown["random"][0]["input"] is None
        folded = GAME.new_state(records[0]["payload"])
        for r in records[1:]:
            folded = GAME.evolve(folded, r["type"], r["payload"])
        assert folded == match.state
    lines = export_lines(str(match.id), GAME.name, [event_record(e) for e in match.pending_events])
    assert verify.verify(lines, out=lambda line: None)
    assert rereferee(lines).chain == match.chain


# ---------------------------------------------------------------- over HTTP, end to end

def test_race_to_20_is_played_over_http_replayed_undone_exported_verified_audited_and_imported(race, client, context,
                                                                                               tmp_path):
    """The whole platform on a game it was never told about: views that hide the other hand, refusals, take-back,
    backup, replay, timeline, export, verify, audit and import into another server."""
    table = HttpMatch.create(client, GAME.name)
    seat = table.view()["awaiting_seat"]
    other = 1 - seat
    mine, theirs = table.view(table.tokens[seat]), table.view(table.tokens[other])
    assert len(mine["players"][seat]["hand"]) == 3 and "hand" not in mine["players"][other]
    assert "hand" not in theirs["players"][seat] and theirs["players"][seat]["hand_count"] == 3
    assert "stock" not in mine and "stock" in table.view()
    spectator = table.ok(client.get(f"/matches/{table.id}/spectator-view"))
    assert all("hand" not in p for p in spectator["players"]) and "stock" not in spectator
    their_log = table.ok(table.get("/events", table.tokens[other]))["events"]
    dealt = next(e for e in their_log if e["type"] == "HandDealt" and e["payload"]["seat"] == seat)
    assert "cards" not in dealt["payload"] and dealt["payload"]["count"] == 3

    # refusals: another seat's turn (422), a key of no game (400), another game's move (422)
    refused = table.post("/moves", {"type": "roll"}, table.tokens[other])
    assert refused.status_code == 422 and "it is" in refused.get_json()["detail"]
    assert table.post("/moves", {"type": "play", "card": 99}, table.tokens[seat]).status_code == 400
    assert table.post("/moves", {"type": "draw", "source": "pile"}, table.tokens[seat]).status_code == 422

    # a take-back of a played modifier
    assert table.moves(seat) == [{"type": "roll"}]
    rolled = table.play(seat, {"type": "roll"})
    card = mine["players"][seat]["hand"][0]["id"]
    table.play(seat, {"type": "play", "card": card})
    undone = table.ok(table.post("/undo", {}, table.tokens[seat]))
    assert undone["events"][0]["type"] == "ActionsRetracted"
    assert undone["events"][0]["payload"]["to_version"] == rolled["version"]
    back = table.view(table.tokens[seat])
    assert back["played"] is None and len(back["players"][seat]["hand"]) == 3
    refused = table.post("/undo", {}, table.tokens[seat])
    assert refused.status_code == 422 and "random" in refused.get_json()["detail"]

    # a referee's backup over a secret draw reshuffles the stock
    played = table.play(seat, {"type": "play", "card": card})
    receipt = played["chain_head"]
    passed = table.play(seat, {"type": "pass"})
    assert [e["type"] for e in passed["events"]] == ["PointsScored", "ModifierDrawn", "TurnStarted"]
    table.play(other, {"type": "roll"})
    backed = table.ok(table.post("/undo", {"to_version": played["version"], "reason": "misdealt"}, table.referee))
    backup = backed["events"][0]
    assert backup["type"] == "BackupPerformed" and backup["payload"]["reshuffled"] == [{"zone": "stock", "cards": 3}]
    assert table.view()["awaiting_seat"] == seat and table.moves(seat) == [{"type": "pass"}]

    # replay at a version: the holder's view then, and whether it was undone
    at_deal = table.ok(table.get(f"/replay?version={rolled['version']}", table.tokens[other]))
    assert at_deal["die"] == rolled["events"][0]["payload"]["die"] and "hand" not in at_deal["players"][seat]
    assert table.ok(table.get(f"/replay?version={passed['version']}", table.tokens[seat]))["retracted"] is True
    timeline = table.ok(table.get("/timeline", table.tokens[other]))
    assert timeline[0]["summary"] == "Ana and Bo sat down to play Race to 20."
    assert any(e["summary"].endswith(f"played a +{DECK[card]} modifier.") for e in timeline)

    # to the end, then the views the projector folded equal those computed from the event store
    chooser = random.Random(5)
    while (view := table.view())["status"] != "finished":
        table.play(view["awaiting_seat"], chooser.choice(table.moves(view["awaiting_seat"])))
    match = context.matches.load(table.id)
    for viewer in ("referee", None, 0, 1):
        assert context.projector.view(table.id, viewer) == {**GAME.view(match.state, viewer), "version": match.version,
                                                             "chain_head": match.chain}
    assert table.ok(client.get(f"/matches/{table.id}"))["status"] == "finished"

    # export, verify (standard library only), audit (re-refereed by the rules), the fairness bundle
    lines = table.export(table.tokens[other])
    said = []
    assert verify.verify(lines, receipts=[receipt], out=said.append), said
    audited = rereferee(lines)
    assert audited.chain == match.chain and audited.finished and audited.created["rules"] == "race_to_20/1"
    bundle = table.ok(table.get("/audit", table.tokens[other]))
    assert bundle["server_seed"] == match.secret["server_seed"]

    # import: refused where the match already is, accepted by another server with its admin key
    assert client.post("/matches/import", data="\n".join(lines), headers=auth(table.referee)).status_code == 409
    with second_server(tmp_path, "admin-secret") as (server_b, _):
        imported = server_b.post("/matches/import", data="\n".join(lines), headers=auth("admin-secret"))
        assert imported.status_code == 201, imported.get_json()
        body = imported.get_json()
        assert body["match_id"] == table.id and body["game"] == GAME.name
        again = HttpMatch(server_b, body)
        assert again.view() == table.view()
        assert again.view(again.tokens[other]) == table.view(table.tokens[other])


def test_race_to_20_is_a_whole_game_in_under_250_lines():
    """Issue 44: the contract is small enough that a four-rule game fits in one short package."""
    package = Path(__file__).resolve().parent / "race_game"
    assert sum(len(f.read_text().splitlines()) for f in package.rglob("*.py")) < 250
