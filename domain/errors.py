"""Errors the rules raise; the API turns them into problem responses."""


class IllegalMove(Exception):
    """The move is not legal now; the message says why in words a player understands."""
