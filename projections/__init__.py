"""Redis-backed read models of the event store: each seat's view, the referee's, the spectator's, a match list."""
