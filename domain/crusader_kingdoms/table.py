"""The working table every step of play (3-8) emits its events on, with the match's generator."""
from __future__ import annotations

from domain import table

from .state import copy_state


class Table(table.Table):
    def __init__(self, state: dict, rng):
        super().__init__(state, copy_state, rng)
