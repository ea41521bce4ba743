"""The game contract (docs/ADDING_A_GAME.md): every event class of every game declares its payload and has its
handlers, found from the class; a game that leaves one out cannot be built."""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from domain.events import PLATFORM_EVENTS, UNDO_ROLES, GameEvent, PlatformEvent, evolves
from domain.games import Game
from domain.registry import GAMES
from domain.table import Table
from tests.race_game import GAME as RACE

EVERY_GAME = [*GAMES.values(), RACE]
EVERY_EVENT = [(game.name, cls) for game in EVERY_GAME for cls in game.events] + [
    ("platform", cls) for cls in PLATFORM_EVENTS]


@pytest.mark.parametrize(("game", "cls"), EVERY_EVENT, ids=[f"{g}:{c.__name__}" for g, c in EVERY_EVENT])
def test_every_event_class_declares_its_payload_and_has_its_handlers(game, cls):
    """Each event class: a logged type name, its payload's keys, an evolve, a sentence, a take-back role, a
    redaction (public unless the class hides a part)."""
    assert cls.name and cls.name.isidentifier()
    assert not set(cls.fields) & set(cls.optional), "a key is either always there or optional"
    assert callable(cls.evolve) and callable(cls.describe) and callable(cls.redact)
    example = dict.fromkeys(cls.fields, 0)
    assert cls.fits(example) and cls.undo_role.__func__ is not None
    if "undo_role" not in cls.__dict__:
        assert cls.undo in UNDO_ROLES
    assert issubclass(cls, PlatformEvent) == (game == "platform")


@pytest.mark.parametrize("game", EVERY_GAME, ids=[g.name for g in EVERY_GAME])
def test_classes_of_one_type_are_told_apart_by_their_shape_alone(game):
    """One class per shape: where several classes share a logged type (Crusader Kingdoms' AttackDeclared: a player's,
    an event card's, the automated Muslims'), no payload has the shape of two of them."""
    for name, classes in game.types.by_name.items():
        for a, b in itertools.combinations(classes, 2):
            assert not set(a.fields) <= {*b.fields, *b.optional} or not set(b.fields) <= {*a.fields, *a.optional}, \
                (name, a.__name__, b.__name__)
            assert game.event(name, dict.fromkeys(a.fields, 0)) is a
            assert game.event(name, dict.fromkeys(b.fields, 0)) is b


def test_the_three_attack_declarations_are_three_classes():
    """Issue 16: Crusader Kingdoms' AttackDeclared had three shapes told apart by which keys are present; each is
    now a class, logged under the one type (the chain and old logs are unchanged)."""
    game = GAMES["crusader_kingdoms"]
    shapes = {cls.__name__: cls for cls in game.types.by_name["AttackDeclared"]}
    assert set(shapes) == {"AttackDeclared", "EventAttackDeclared", "MuslimAttackDeclared"}
    assert [shapes[n].undo_role({}) for n in ("AttackDeclared", "EventAttackDeclared", "MuslimAttackDeclared")] == \
        ["action-start", "action", "turn"]


def test_a_game_with_an_event_it_cannot_evolve_describe_or_classify_cannot_be_built():
    """An event that can be evolved but not described or classified cannot exist: Game refuses it."""

    class Unexplained(GameEvent):
        fields = ("seat",)
        undo = "turn"

    evolves(Unexplained)(lambda state, payload: None)
    with pytest.raises(TypeError, match="Unexplained has no describe"):
        dataclasses.replace(RACE, events=(*RACE.events, Unexplained))

    class Unclassified(GameEvent):
        fields = ("seat",)

    evolves(Unclassified)(lambda state, payload: None)
    Unclassified.describe = staticmethod(lambda payload, state, viewer: "")
    with pytest.raises(TypeError, match="Unclassified has no undo role"):
        dataclasses.replace(RACE, events=(*RACE.events, Unclassified))
    with pytest.raises(TypeError, match="is the platform's"):
        dataclasses.replace(RACE, events=(*RACE.events, PLATFORM_EVENTS[1]))
    assert isinstance(RACE, Game)


def test_the_table_refuses_a_payload_its_class_does_not_declare():
    """A rule that emits a payload of another shape is a bug caught where it happens, never logged."""
    created = {"players": ["Ana", "Bo"], "client_seeds": ["a", "b"]}
    table = Table(RACE.new_state(created), dict)
    died = next(cls for cls in RACE.events if cls.__name__ == "DieRolled")
    with pytest.raises(ValueError, match="DieRolled has the keys"):
        table.emit(died, seat=0, die=3)
    assert table.events == []
