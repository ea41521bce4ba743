"""Korona's limits whatever the route a card takes (the Korona rulebook, English edition, and its Spanish original):
a lone card passed in a Revolt is placed like any received card, one Ruler pair and one Healer stack per player,
the hand limit through the seat's own Action card, and a Tactical Swap gives one card.

Each test starts from a position where Herald once departed from the text (rulings K3, K13, K14, K15).
"""
from __future__ import annotations

import pytest

from domain.errors import IllegalMove
from domain.korona import GAME as KORONA
from tests.helpers.korona import (
    ANA,
    ARCHER,
    BO,
    CY,
    DONATION,
    FARMER,
    FIELD,
    GLORIOUS,
    HEALER,
    JOKER,
    KNIGHT,
    RULER,
    SNEAK,
    STABLE,
    SWAP,
    THIEF,
    TOWER,
    area,
    kind,
    let_it_through,
    options,
    play,
    revolt_table,
    rng,
    table,
)

REVOLT_PLAY = {"type": "play", "card": 85}


def revolt_to_bo(bo_area, passed, roles=None):
    """Ana revolts with `passed` as a lone card beside her six Farmers; Bo and Cy let it through."""
    state = revolt_table(ana_extra=[passed], bo_area=bo_area, cy_area=[[STABLE[3]]], roles=roles)
    play(state, ANA, REVOLT_PLAY)
    let_it_through(state, BO, CY)
    return state


# ---------------------------------------------------------------- a lone card passed in a Revolt (K15)

def test_a_lone_ruler_passed_in_a_revolt_must_stack_on_the_receivers_ruler():
    """Ruler: "Must stack second Ruler on first" -- a lone Ruler passed in a Revolt is placed by its receiver,
    on the receiver's lone Ruler, never as a second lone Ruler."""
    state = revolt_to_bo([[RULER[1]]], [RULER[0]])
    assert play(state, ANA, {"type": "pass_on", "stack": 2}) == ["CardPassed"]
    assert KORONA.awaiting(state) == BO and kind(state) == "place"
    assert options(state, BO) == [{"type": "place", "card": RULER[0], "stack": 0}]
    with pytest.raises(IllegalMove):
        KORONA.decide(state, BO, {"type": "place", "card": RULER[0]}, rng())
    play(state, BO, {"type": "place", "card": RULER[0], "stack": 0})
    assert area(state, BO) == [[RULER[1], RULER[0]]]


def test_a_lone_healer_passed_in_a_revolt_must_stack_on_the_receivers_healer():
    """Healer: "Second Healer must be stack on the first" -- so a receiver never ends with two Healer stacks."""
    state = revolt_to_bo([[HEALER[1]]], [HEALER[0]])
    play(state, ANA, {"type": "pass_on", "stack": 2})
    assert options(state, BO) == [{"type": "place", "card": HEALER[0], "stack": 0}]
    play(state, BO, {"type": "place", "card": HEALER[0], "stack": 0})
    assert area(state, BO) == [[HEALER[1], HEALER[0]]]


def test_a_lone_farmer_passed_in_a_revolt_may_join_the_receivers_field():
    """Stacking: "Farmers on Fields" -- a received lone Farmer may go onto the receiver's Field or stand alone."""
    state = revolt_to_bo([[FIELD[3]]], [FARMER[6]])
    play(state, ANA, {"type": "pass_on", "stack": 2})
    assert {m.get("stack") for m in options(state, BO)} == {None, 0}
    play(state, BO, {"type": "place", "card": FARMER[6], "stack": 0})
    assert area(state, BO) == [[FIELD[3], FARMER[6]]]


def test_a_lone_thief_passed_in_a_revolt_is_placed_by_its_sender():
    """Thief: "Whoever *steals* the Thief chooses its destination in the other player's play area"; Spanish:
    "Quien envía al Malhechor elige dónde colocarlo dentro de la zona rival" -- Ana sends it, so Ana places it."""
    state = revolt_to_bo([[TOWER[0]]], [THIEF[0]])
    play(state, ANA, {"type": "pass_on", "stack": 2})
    assert KORONA.awaiting(state) == ANA and KORONA.legal_moves(state, BO) == []
    assert {m.get("stack") for m in options(state, ANA)} == {None, 0}
    play(state, ANA, {"type": "place", "card": THIEF[0], "stack": 0})
    assert area(state, BO) == [[TOWER[0], THIEF[0]]]


# ---------------------------------------------------------------- one Ruler pair, one Healer stack (K15)

def test_glorious_attack_cannot_bring_a_second_ruler_pair():
    """Ruler: "Only one ruler pair per player is allowed" -- a Glorious Attack may not steal a Ruler pair into
    an area that holds one; without a pair of its own the attacker may."""
    ana_pair = table([[GLORIOUS[0]], [], []], [[[RULER[0], RULER[1]]], [[RULER[2], RULER[3]]], []])
    assert not options(ana_pair, ANA, "play")
    with pytest.raises(IllegalMove):
        KORONA.decide(ana_pair, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0}, rng())
    ana_lone = table([[GLORIOUS[0]], [], []], [[[RULER[0]]], [[RULER[2], RULER[3]]], []])
    assert {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0} in options(ana_lone, ANA)


def test_glorious_attack_cannot_bring_a_second_healer_stack():
    """Healer: "Second Healer must be stack on the first" -- a full Healer stack (Healer + Joker as Healer) is not
    stolen into an area that already has a Healer stack."""
    bo = [[HEALER[1], JOKER[0]]]
    state = table([[GLORIOUS[0]], [], []], [[[HEALER[0]]], bo, []], roles={JOKER[0]: "healer"})
    assert not options(state, ANA, "play")
    no_healer = table([[GLORIOUS[0]], [], []], [[[TOWER[0]]], bo, []], roles={JOKER[0]: "healer"})
    assert {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0} in options(no_healer, ANA)


def test_a_ruler_pair_passed_to_a_player_with_one_goes_as_its_top_card_alone():
    """Ruler: "Only one ruler pair per player is allowed"; Revolt: "pass one Build card or stack" -- the pair may
    not go to Bo, who has one, so its top card goes alone and Bo places it as a standalone Ruler (K2)."""
    state = revolt_to_bo([[RULER[2], RULER[3]]], [RULER[0], RULER[1]])
    assert options(state, ANA) == [{"type": "pass_on", "stack": 0}, {"type": "pass_on", "stack": 0, "card": FARMER[2]},
                                   {"type": "pass_on", "stack": 1}, {"type": "pass_on", "stack": 1, "card": FARMER[5]},
                                   {"type": "pass_on", "stack": 2, "card": RULER[1]}]
    play(state, ANA, {"type": "pass_on", "stack": 2, "card": RULER[1]})
    assert options(state, BO) == [{"type": "place", "card": RULER[1]}]
    play(state, BO, {"type": "place", "card": RULER[1]})
    assert area(state, BO) == [[RULER[2], RULER[3]], [RULER[1]]]
    assert area(state, ANA)[-1] == [RULER[0]]


def test_a_healer_stack_is_not_passed_whole_to_a_player_with_a_healer():
    """Healer: "Second Healer must be stack on the first" -- a Healer stack does not arrive beside another; its
    top card may still be passed, and a Healer that fits nowhere goes to the hand (K14)."""
    state = revolt_to_bo([[HEALER[1]]], [HEALER[0], JOKER[0]], roles={JOKER[0]: "healer"})
    passes = options(state, ANA)
    assert {"type": "pass_on", "stack": 2} not in passes
    assert {"type": "pass_on", "stack": 2, "card": JOKER[0]} in passes
    play(state, ANA, {"type": "pass_on", "stack": 2, "card": JOKER[0]})
    assert {"type": "place", "card": JOKER[0], "stack": 0, "role": "healer"} in options(state, BO)


# ---------------------------------------------------------------- the hand limit through one's own card (K3)

def eight_cards(first):
    """Ana's hand: the card she plays, then seven Farmers: with one action left she can still end with 7."""
    return [first, *FARMER[5:12]]


# a Joker on top of a Field stack: once stolen it fits nowhere in an area without an open Field (K14)
JOKER_TOP = [[FIELD[0], FARMER[0], JOKER[0]]]
JOKER_ROLE = {JOKER[0]: "farmer"}


def test_sneak_attack_whose_stolen_card_would_overfill_the_hand_is_not_offered():
    """Hand limit: "must reduce to 7 by the turn's end without additional discard actions beyond the normal 1 to
    3 actions" -- Ana holds 8 cards with two actions taken. Any steal from Bo takes his top Joker, which fits
    nowhere in her empty area and goes to her hand (K14): 8 cards and no action left, so she is not offered it.
    Stealing Cy's lone Knight is fine, and so is stealing the Joker once she has a Field to put it on."""
    state = table([eight_cards(SNEAK[0]), [], []], [[], JOKER_TOP, [[KNIGHT[0]]]], actions=2, roles=JOKER_ROLE)
    plays = options(state, ANA, "play")
    assert {"type": "play", "card": SNEAK[0], "target": BO} not in plays
    assert {"type": "play", "card": SNEAK[0], "target": CY} in plays
    with pytest.raises(IllegalMove, match="more than 7 cards"):
        KORONA.decide(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO}, rng())
    with_a_field = table([eight_cards(SNEAK[0]), [], []], [[[FIELD[1]]], JOKER_TOP, []], actions=2, roles=JOKER_ROLE)
    assert {"type": "play", "card": SNEAK[0], "target": BO} in options(with_a_field, ANA)


def test_inside_a_sneak_attack_the_steal_that_would_overfill_the_hand_is_not_offered():
    """Hand limit (K3) -- with 8 cards and one action left, Ana may steal Bo's lone Knight and Archer, which have
    places, but not the Joker that fits nowhere and would leave her 8 cards at the end of her turn."""
    bo = [*JOKER_TOP, [KNIGHT[0]], [ARCHER[1]]]
    state = table([eight_cards(SNEAK[0]), [], []], [[], bo, []], actions=2, roles=JOKER_ROLE)
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO})
    let_it_through(state, BO)
    assert options(state, ANA) == [{"type": "take", "card": KNIGHT[0]}, {"type": "take", "card": ARCHER[1]}]
    with pytest.raises(IllegalMove, match="more than 7 cards"):
        KORONA.decide(state, ANA, {"type": "take", "card": JOKER[0]}, rng())
    play(state, ANA, {"type": "take", "card": KNIGHT[0]})
    assert options(state, ANA) == [{"type": "take", "card": ARCHER[1]}]


def test_donation_from_an_area_whose_giver_could_send_a_homeless_card_is_not_offered():
    """Hand limit (K3); Donation: "They choose which card to give" -- Bo could give a Joker that fits nowhere in
    Ana's area, so with 8 cards and one action left Ana may not demand from his area (nor from his hand), only
    from Cy's, whose lone Knight has a place."""
    state = table([eight_cards(DONATION[0]), [FARMER[1]], []], [[], JOKER_TOP, [[KNIGHT[0]]]], actions=2,
                  roles=JOKER_ROLE)
    plays = [m for m in options(state, ANA, "play") if m["card"] == DONATION[0]]
    assert plays == [{"type": "play", "card": DONATION[0], "target": CY, "zone": "area"}]


def test_a_revolt_whose_last_pass_could_overfill_the_revolters_hand_is_not_offered():
    """Hand limit (K3); Revolt: "everyone else's pass is decided by the player preceding them" -- Bo decides what
    Cy passes to Ana, and may pass Cy's top Joker alone; it fits nowhere among Ana's six lone Farmers, so with
    8 cards Ana may not revolt; with 7 she may."""
    lone_farmers = [[f] for f in FARMER[:6]]
    cy = [[TOWER[0], ARCHER[0], JOKER[1]]]
    full = table([[85, DONATION[0], *FARMER[6:12]], [], []], [lone_farmers, [[STABLE[0]]], cy], actions=2,
                 roles={JOKER[1]: "archer"})
    assert REVOLT_PLAY not in options(full, ANA)
    seven = table([[85, *FARMER[6:12]], [], []], [lone_farmers, [[STABLE[0]]], cy], actions=2,
                  roles={JOKER[1]: "archer"})
    assert REVOLT_PLAY in options(seven, ANA)


# ---------------------------------------------------------------- Tactical Swap gives one in exchange (K13)

def test_a_swap_with_nothing_to_give_is_not_playable():
    """Tactical Swap: "Take 2 Build cards from another player's play area and give 1 of yours in exchange" -- with
    no card it may give (an empty area, or only full stacks) the Swap is not offered, and is refused with why."""
    full = [[TOWER[1], *ARCHER[:3]]]
    for mine in ([], full):
        state = table([[SWAP[0]], [], []], [mine, [[STABLE[0], KNIGHT[0]], [FIELD[0]]], []])
        assert not options(state, ANA, "play")
        with pytest.raises(IllegalMove, match="in exchange"):
            KORONA.decide(state, ANA, {"type": "play", "card": SWAP[0], "target": BO}, rng())
    state = table([[SWAP[0]], [], []], [[[TOWER[1]]], [[STABLE[0], KNIGHT[0]], [FIELD[0]]], []])
    assert options(state, ANA, "play") == [{"type": "play", "card": SWAP[0], "target": BO}]

