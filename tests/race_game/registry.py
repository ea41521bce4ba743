"""Registering Race to 20 in the game registry for a while, as a line in domain/registry.py would."""
from __future__ import annotations

from contextlib import contextmanager

from domain.registry import GAMES

from . import GAME


@contextmanager
def registered():
    """Race to 20 in domain.registry.GAMES (the dict the service, projector and replays look games up in), then out."""
    assert GAME.name not in GAMES
    GAMES[GAME.name] = GAME
    try:
        yield GAME
    finally:
        del GAMES[GAME.name]
