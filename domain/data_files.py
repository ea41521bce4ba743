"""A game's data files and the match options that replace them: JSON validated by a marshmallow schema, a broken
option refused with the schema's reasons (422)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import marshmallow as ma

from domain.copying import copy_sharing
from domain.errors import IllegalMove


@cache
def _text(path: Path) -> str:
    return path.read_text()


def shipped(path: Path):
    """A data file as shipped (read once)."""
    return json.loads(_text(path))


@cache
def _checked(schema: type[ma.Schema], path: Path) -> dict:
    return schema().load(shipped(path))


def load_option(schema: ma.Schema, path: Path | None, document, what: str) -> dict:
    """The option `what` a match brings, or the shipped file at `path` when it brings none (checked once, a copy
    each time), checked by `schema`; an option without a shipped file (no `path`) must be given: a null is refused."""
    try:
        if document is None and path is not None:
            return copy_sharing(_checked(type(schema), path))
        return schema.load(document)
    except ma.ValidationError as error:
        raise IllegalMove(f"the {what} option is not valid: {json.dumps(error.messages, sort_keys=True)}") from None
