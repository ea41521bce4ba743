"""Tournaments: the aggregate whose events record each one (aggregate.py), pairings by a matching engine
(pairing.py), standings with MTG's tiebreakers (standings.py), and the desk that runs them on the matches application
(desk.py)."""
