"""Herald's domain: game rules, events, match aggregates and randomness (no Flask, no Redis)."""
