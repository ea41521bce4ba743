"""Tournaments: pairings by a matching engine and standings with MTG's tiebreakers (issue 19, under way)."""
