"""Replay, timeline, take-backs, undo requests and referee backups."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import IllegalMove
from domain.korona.cards import NAMES
from tests.helpers.api import Table, auth
from tests.helpers.korona import card_places
from tests.helpers.stores import memory_app, play_random


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(5, 120), st.floats(0, 1))
def test_a_backup_restores_the_version_up_to_a_reshuffled_pile(choice_seed, players, moves, where):
    """After a backup to any version the state is that version's, except that the pile holds the same cards
    in a new order when the undone span revealed pile cards; invariants hold and the match plays to its end."""
    app = memory_app()
    match, _ = app.create("korona", [{"name": f"P{i}"} for i in range(players)])
    chooser = random.Random(choice_seed)
    points = play_random(app, match.id, chooser, moves)
    current = app.load(match.id)
    if current.finished:
        return
    target = points[int(where * (len(points) - 1))]
    before = app.load(match.id, version=target).state
    nonce_before = current.next_nonce
    backed, _ = app.back_up(match.id, target, "misplay")
    after = backed.state
    assert {k: v for k, v in after.items() if k != "pile"} == {k: v for k, v in before.items() if k != "pile"}
    assert Counter(after["pile"]) == Counter(before["pile"])
    event = app.history(match.id)[-1]
    assert event["type"] == "BackupPerformed"
    if event["payload"]["reshuffled"]:
        assert event["payload"]["random"][0]["nonce"] == nonce_before, "retracted draws are never reused"
    assert sorted(card_places(after)) == list(range(90))
    play_random(app, match.id, chooser, 5000)
    assert app.load(match.id).finished


def script(table: Table, seat: int, *moves) -> None:
    for move in moves:
        table.play(seat, move)


def opening(client, players=("Ana", "Bo")):
    table = Table(client, list(players))
    seat = table.view()["current_seat"]
    return table, seat


def first(moves, **match):
    return next(m for m in moves if all(m.get(k) == v for k, v in match.items()))


def undo(table, token, body=None):
    return table.client.post(f"/matches/{table.id}/undo", json=body or {}, headers=auth(token))


def test_take_back_restores_the_state_before_the_action(client):
    """A seat takes back its latest action of this turn; the events stay in the log, marked retracted."""
    table, seat = opening(client)
    table.play(seat, {"type": "draw", "source": "market", "card": table.view()["market"][0]["id"]})
    before = table.view()
    discard = first(table.moves(seat), type="discard")
    table.play(seat, discard)
    taken = undo(table, table.tokens[seat])
    assert taken.status_code == 200
    assert [e["type"] for e in taken.get_json()["events"]] == ["ActionsRetracted"]
    after = table.view()
    for key in ("players", "discard_pile", "market", "draw_pile", "actions_taken"):
        assert after[key] == before[key]
    timeline = table.get("/timeline", table.tokens[seat]).get_json()
    discarded = next(e for e in timeline if e["type"] == "CardDiscarded")
    assert discarded["retracted"] is True and timeline[-1]["type"] == "ActionsRetracted"
    replay = table.get(f"/replay?version={discarded['version']}", table.tokens[seat]).get_json()
    assert replay["retracted"] is True


def assert_refused(response, words: str):
    assert response.status_code == 422, response.get_json()
    assert words in response.get_json()["detail"]


def test_take_back_refuses_a_draw(client):
    table, seat = opening(client)
    table.play(seat, {"type": "draw", "source": "pile"})
    version = table.version()
    assert_refused(undo(table, table.tokens[seat]), "draw cannot be undone")
    assert table.version() == version


def test_take_back_refuses_once_something_random_happened():
    """Issue: a take-back only "while [...] nothing random has happened since (no draw from the pile, no roll, no
    shuffle)": a Crusader Kingdoms incursion rolls its die in the action itself, so a missed incursion is never
    taken back and rolled again; neither is an attack whose dice were rolled."""
    from domain.crusader_kingdoms import GAME as crusader
    from domain.errors import IllegalMove
    from domain.undo import take_back_target

    roll = {"nonce": 7, "kind": "dice", "faces": 6, "count": 1, "result": [2]}
    incursion = [{"type": "Passed", "payload": {"seat": 1}, "version": 9},
                 {"type": "IncursionMade", "payload": {"seat": 0, "target": 1, "hit": False, "random": [roll]},
                  "version": 10}]
    attack = [{"type": "AttackDeclared", "payload": {"seat": 0, "area": 3, "defender": 1}, "version": 9},
              {"type": "DiceRolled", "payload": {"seat": 0, "side": "attacker", "random": [roll]}, "version": 10}]
    for log in (incursion, attack):
        with pytest.raises(IllegalMove, match="something random happened since"):
            take_back_target(log, 0, crusader.undo_class, 0)
    assert take_back_target(attack[:1], 0, crusader.undo_class, 0) == 8


def test_take_back_refuses_out_of_turn(client):
    table, seat = opening(client)
    assert_refused(undo(table, table.tokens[1 - seat]), "own turn")


def test_take_back_refuses_once_the_turn_has_ended(client):
    table, seat = opening(client)
    table.play(seat, {"type": "draw", "source": "pile"})
    table.play(seat, first(table.moves(seat), type="discard"))
    table.play(seat, {"type": "end_turn"})
    assert_refused(undo(table, table.tokens[seat]), "own turn")
    other = 1 - seat
    assert_refused(undo(table, table.tokens[other]), "draw cannot be undone")


def test_take_back_refuses_after_hidden_cards_were_revealed(client):
    """Extra Draw from the pile reveals hidden cards, so it cannot be taken back."""
    for attempt in range(40):
        table, seat = opening(client)
        table.play(seat, {"type": "draw", "source": "pile"})
        extra = [m for m in table.moves(seat) if m["type"] == "play" and m.get("draw") == "pile"]
        if extra:
            table.play(seat, extra[0])
            assert_refused(undo(table, table.tokens[seat]), "hidden cards were revealed")
            return
    pytest.fail("no opening hand held an Extra Draw in 40 matches")


def test_take_back_refuses_after_another_player_responded(client):
    for attempt in range(60):
        table, seat = opening(client)
        table.play(seat, {"type": "draw", "source": "pile"})
        donation = [m for m in table.moves(seat) if m["type"] == "play" and NAMES[m["card"]] == "donation"]
        if donation:
            table.play(seat, donation[0])
            table.play(1 - seat, {"type": "pass"})
            assert_refused(undo(table, table.tokens[seat]), "another player has responded")
            return
    pytest.fail("no opening hand held a Donation in 60 matches")


def test_backup_across_a_draw_reshuffles_the_pile(client):
    """Cards drawn in the undone span return to the pile, which is reshuffled with a fresh nonce."""
    table, seat = opening(client)
    start = table.version()
    pile_before = table.view()["draw_pile"]
    table.play(seat, {"type": "draw", "source": "pile"})
    backed = undo(table, table.referee, {"to_version": start, "reason": "drew out of turn"})
    assert backed.status_code == 200
    event = backed.get_json()["events"][-1]
    assert event["type"] == "BackupPerformed" and event["payload"]["reshuffled"] == [{"zone": "pile", "cards": 77}]
    pile_after = table.view()["draw_pile"]
    assert Counter(c["id"] for c in pile_after) == Counter(c["id"] for c in pile_before)
    assert pile_after != pile_before
    seat_log = table.get("/events", table.tokens[seat]).get_json()["events"]
    assert "state" not in seat_log[-1]["payload"] and seat_log[-1]["payload"]["random"][0]["result"] is None
    assert undo(table, table.referee, {"to_version": start + 1, "reason": "x"}).status_code == 422


def test_seat_requests_and_referee_declines_or_approves(client):
    table, seat = opening(client)
    start = table.version()
    table.play(seat, {"type": "draw", "source": "pile"})
    requests = f"/matches/{table.id}/undo-requests"
    asked = client.post(requests, json={"to_version": start, "reason": "misclick"}, headers=auth(table.tokens[seat]))
    assert asked.status_code == 201 and asked.get_json()["status"] == "pending"
    rid = asked.get_json()["request_id"]
    assert client.post(f"{requests}/{rid}", json={"decision": "decline"}, headers=auth(table.tokens[seat])).status_code == 403
    declined = client.post(f"{requests}/{rid}", json={"decision": "decline", "reason": "no"}, headers=auth(table.referee))
    assert declined.get_json()["status"] == "declined"
    again = client.post(requests, json={"to_version": start, "reason": "please"}, headers=auth(table.tokens[seat]))
    rid2 = again.get_json()["request_id"]
    approved = client.post(f"{requests}/{rid2}", json={"decision": "approve"}, headers=auth(table.referee))
    assert approved.status_code == 200 and approved.get_json()["status"] == "approved"
    mine = client.get(requests, headers=auth(table.tokens[seat])).get_json()
    assert [r["status"] for r in mine] == ["declined", "approved"]
    assert client.get(requests, headers=auth(table.tokens[1 - seat])).get_json() == []
    assert table.view()["phase"] == "draw"


def test_a_seat_replay_never_shows_what_it_could_not_see_then(client):
    table, _seat = opening(client, ("Ana", "Bo", "Cy"))
    chooser = random.Random(1)
    for _ in range(30):
        view = table.view()
        table.play(view["awaiting_seat"], chooser.choice(table.moves(view["awaiting_seat"])))
    referee_log = table.get("/events", table.referee).get_json()["events"]
    for version in (3, 8, 15, len(referee_log)):
        past = table.get(f"/replay?version={version}", table.tokens[0]).get_json()
        full = table.get(f"/replay?version={version}", table.referee).get_json()
        assert past["version"] == version and "draw_pile" not in past and "draw_pile" in full
        assert past["players"][0].get("hand") == full["players"][0].get("hand")
        assert all("hand" not in p for p in past["players"][1:])
    assert table.get("/replay?version=9999", table.tokens[0]).status_code == 404
    assert table.get("/replay?version=zero", table.tokens[0]).status_code == 400


def test_the_timeline_reads_like_a_game_record(client):
    """A short scripted game's summaries, as a seat and as the referee read them."""
    table, seat = opening(client)
    other = 1 - seat
    names = ["Ana", "Bo"]
    market = table.view()["market"][0]
    table.play(seat, {"type": "draw", "source": "market", "card": market["id"]})
    discard = first(table.moves(seat), type="discard")
    table.play(seat, discard)
    table.play(seat, {"type": "end_turn"})
    table.play(other, {"type": "draw", "source": "pile"})
    mine = table.get("/timeline", table.tokens[seat]).get_json()
    summaries = [e["summary"] for e in mine]
    assert summaries[0] == "Ana and Bo sat down to play Korona."
    assert summaries[1] == "The 90 cards were shuffled into the draw pile."
    assert summaries[2] == f"{names[seat]} was drawn at random to start."
    assert f"{names[other]} was dealt 5 cards." in summaries
    assert any(s.startswith(f"{names[seat]} was dealt 5 cards: ") for s in summaries)
    assert f"Turn 1: {names[seat]} to play." in summaries
    article = "an" if market["name"][0] in "aeiou" else "a"
    assert any(s.startswith(f"{names[seat]} took {article} ") and s.endswith(" from the market.") for s in summaries)
    assert f"{names[seat]} ended their turn." in summaries
    assert summaries[-1] == f"{names[other]} drew 2 cards from the pile."
    referee = table.get("/timeline", table.referee).get_json()
    assert referee[-1]["summary"].startswith(f"{names[other]} drew 2 cards from the pile (")
    assert [e["turn"] for e in mine][-1] == 2 and all(e["retracted"] is False for e in mine)


def test_an_undo_of_an_undo_is_refused():
    app = memory_app()
    match, _ = app.create("korona", [{"name": "A"}, {"name": "B"}])
    points = play_random(app, match.id, random.Random(2), 20)
    app.back_up(match.id, points[-3], "x")
    with pytest.raises(IllegalMove, match="already undone"):
        app.back_up(match.id, points[-2], "undo the undo")
    with pytest.raises(IllegalMove, match="no seat was to decide"):
        app.back_up(match.id, 2, "inside the setup")
    app.back_up(match.id, points[-5], "further back is a new backup")
