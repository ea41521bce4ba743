"""A test helper that hands out distinct Korona card ids by name, so a built state never holds one card twice."""
from __future__ import annotations

from domain.korona.cards import NAMES


class Cards:
    """Distinct card ids by name: Cards()("farmer") or Cards()("farmer", 3)."""

    def __init__(self):
        self.free = {}
        for card_id, name in enumerate(NAMES):
            self.free.setdefault(name, []).append(card_id)

    def __call__(self, name: str, n: int | None = None):
        if n is None:
            return self.free[name].pop(0)
        return [self.free[name].pop(0) for _ in range(n)]

    def filler(self, n: int) -> list[int]:
        """n unused cards for hands, pile and market: Action cards first, then common Build cards."""
        out = []
        for name in ("shield", "donation", "tactical_swap", "sneak_attack", "glorious_attack", "revolt",
                     "extra_draw", "internal_move", "archer", "farmer", "knight", "tower"):
            while self.free[name] and len(out) < n:
                out.append(self.free[name].pop(0))
        assert len(out) == n, "not enough filler cards"
        return out
