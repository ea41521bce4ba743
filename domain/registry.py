"""The games Herald referees, by name: the one place the platform finds them."""
from __future__ import annotations

from domain.crusader_kingdoms import GAME as CRUSADER_KINGDOMS
from domain.for_a_crown import GAME as FOR_A_CROWN
from domain.games import Game
from domain.kingdom_tcg import GAME as KINGDOM_TCG
from domain.korona import GAME as KORONA

GAMES: dict[str, Game] = {game.name: game for game in (KORONA, CRUSADER_KINGDOMS, FOR_A_CROWN, KINGDOM_TCG)}
