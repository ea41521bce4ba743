"""Marshmallow fields the games' move schemas and the service share: a move's numbers are whole numbers."""
from __future__ import annotations

from typing import ClassVar

from marshmallow import fields


class StrictInteger(fields.Integer):
    """A whole number: 1.5 (or 1.0) is refused, never truncated."""

    default_error_messages: ClassVar[dict] = {"invalid": "Not a whole number: write 3, not 3.5 or \"3\"."}

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)
