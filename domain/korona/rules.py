"""Korona's rules under the one name the peer bench reads them by (../shared/peer-bench/inproc.py: rules.views)."""
from .decide import decide, start
from .moves import awaiting, legal_moves
from .views import view, views

__all__ = ["awaiting", "decide", "legal_moves", "start", "view", "views"]
