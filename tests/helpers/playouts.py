"""Whole matches of random legal moves through the aggregate, for the games' property tests."""
from __future__ import annotations

import random
import uuid

from domain.match import Match

# a fixed match id, so that a playout depends only on its seed and chooser and is the same on every run
PLAYOUT_ID = uuid.UUID(int=1)


def randomly(chooser: random.Random):
    """A pick for play_out: the chooser's choice among the legal moves (a subclass may weight them)."""
    return lambda match, seat, moves: chooser.choice(moves)


def play_out(game: str, players: int, seed: bytes, pick, *, names: list[str] | None = None,
             match_id: uuid.UUID = PLAYOUT_ID, before_move=None, after_move=None, limit: int = 5000) -> Match:
    """A match of `game` played to its end, pick(match, seat, moves) choosing each move. Before every move the
    awaited seat has a legal move and no other seat has one; before_move(match, seat, moves) and
    after_move(match, version_before) add a game's own checks."""
    names = names or [f"P{i}" for i in range(players)]
    match = Match.create(match_id, game, names, [f"c{i}" for i in range(players)], {"referee": "", "seats": []},
                         seed)
    match.start()
    for _ in range(limit):
        if match.finished:
            break
        seat = match.game.awaiting(match.state)
        assert seat is not None, "an unfinished match awaits some seat's decision"
        moves = match.game.legal_moves(match.state, seat)
        assert moves, "the seat whose decision is awaited always has a legal move"
        for other in range(players):
            if other != seat:
                assert match.game.legal_moves(match.state, other) == [], "a pending decision has exactly one owner"
        if before_move:
            before_move(match, seat, moves)
        before = match.version
        match.play(seat, pick(match, seat, moves))
        if after_move:
            after_move(match, before)
    assert match.finished, f"no end within {limit} moves"
    return match


def events_since(match: Match, version: int) -> list:
    """The match's events recorded after `version`, not yet saved."""
    return [event for event in match.pending_events if event.originator_version > version]
