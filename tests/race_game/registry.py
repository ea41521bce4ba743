"""Registering Race to 20 in the game registry for a while, as a game package's registry entry would."""
from __future__ import annotations

from contextlib import contextmanager

import domain.games

from . import GAME


@contextmanager
def registered():
    """Race to 20 in domain.games.GAMES (the dict the service, projector and replays look games up in), then out."""
    games = domain.games.GAMES  # built on first use by the module's __getattr__; every importer shares this dict
    assert GAME.name not in games
    games[GAME.name] = GAME
    try:
        yield GAME
    finally:
        del games[GAME.name]
