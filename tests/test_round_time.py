"""Round time (issue 42, RULINGS P1 and P4): time called in a match plays the turn under way and its extra turns,
then the game counts the position; or the match is a draw at once. Re-refereeing recomputes it all."""
from __future__ import annotations

import json
import random
import uuid

import pytest

from domain.errors import IllegalMove
from domain.match import Match
from domain.matches import event_record
from replays.export import export_lines
from replays.referee import Rejected, rereferee
from tests.helpers.logs import rechain

SEATS = {"korona": 2, "crusader_kingdoms": 3, "for_a_crown": 3, "kingdom_tcg": 2}


def started(game: str, moves: int, seed: int) -> tuple[Match, random.Random]:
    """A match of `game` after `moves` random legal moves."""
    seats = SEATS[game]
    match = Match.create(uuid.uuid4(), game, ["Ana", "Bo", "Cy"][:seats], ["a"] * seats,
                         {"referee": "", "seats": [""] * seats}, bytes([seed]) * 32, {})
    match.start()
    chooser = random.Random(seed)
    for _ in range(moves):
        play_one(match, chooser)
    return match, chooser


def play_one(match: Match, chooser: random.Random) -> None:
    seat = match.game.awaiting(match.state)
    match.play(seat, chooser.choice(match.game.legal_moves(match.state, seat)))


def log_of(match: Match) -> list[str]:
    return export_lines(str(match.id), match.game_name, [event_record(e) for e in match.pending_events])


@pytest.mark.parametrize("game", sorted(SEATS))
@pytest.mark.parametrize("extra_turns", [0, 2])
def test_time_called_plays_the_turn_and_its_extra_turns_then_counts_the_position(game, extra_turns):
    match, chooser = started(game, 12, seed=extra_turns + 1)
    assert not match.finished
    current = match.state["current"]
    match.call_time(extra_turns)
    turns = []
    while not match.finished:
        before = len(match.pending_events)
        play_one(match, chooser)
        turns += [e.payload for e in match.pending_events[before:] if e.name == "ExtraTurnBegan"]
        assert len(turns) <= extra_turns
    assert [t["turn"] for t in turns] == list(range(1, extra_turns + 1))
    assert all(t["seat"] != current for t in turns[:1])  # a turn begins when another seat's starts
    finished = next(e.payload for e in match.pending_events if e.name == "MatchFinished")
    assert finished["reason"] == "time"
    assert match.game.ranked_by is None or match.game.ranked_by in finished  # the game's count (P1)
    assert rereferee(log_of(match)).chain == match.chain


def test_time_called_with_a_draw_ends_the_match_at_once_and_only_once():
    match, _ = started("korona", 6, seed=3)
    match.call_time(None)
    assert match.finished and match.state["winners"] == [] and match.state["result"]["reason"] == "time"
    with pytest.raises(IllegalMove):
        match.call_time(None)
    assert rereferee(log_of(match)).version == match.version


def test_a_backup_past_the_call_keeps_time_called():
    """RULINGS P4: backed up to before time was called, the match is still in its extra turns, counted again."""
    match, chooser = started("korona", 8, seed=5)
    at = match.version
    state = match.game.copy_state(match.state)
    match.call_time(1)
    play_one(match, chooser)
    match.back_up(at, "a misdeal", state, [])
    assert match.state["time"] == {"extra_turns": 1, "turn": 0, "current": state["current"]}


def test_an_extra_turn_left_out_of_the_log_is_caught():
    match, chooser = started("kingdom_tcg", 10, seed=7)
    match.call_time(3)
    while not match.finished:
        play_one(match, chooser)
    rows = [json.loads(line) for line in log_of(match)]
    extra = next(i for i, row in enumerate(rows) if row.get("type") == "ExtraTurnBegan")
    rows[extra]["payload"]["turn"] = 2
    with pytest.raises(Rejected) as refused:
        rereferee([json.dumps(row) for row in rechain(rows)])
    assert refused.value.version == rows[extra]["version"]
