"""Korona's interactive action cards, one test per rulebook sentence: Donation, Tactical Swap, Sneak
Attack, Glorious Attack, Revolt and Shield (the Korona rulebook, Action cards, English edition; the Spanish
original settles wording, e.g. whoever *sends* a Thief chooses where it lands).

Every test builds its table directly from new_state(), so the situation a sentence describes is explicit,
then plays the moves through KORONA.decide / KORONA.evolve as the service does.
"""
from __future__ import annotations

import copy

import pytest

from domain.errors import IllegalMove
from domain.korona import GAME as KORONA
from domain.korona.cards import NAMES
from tests.helpers.korona import (
    ANA,
    ARCHER,
    BO,
    CY,
    DONATION,
    EXTRA_DRAW,
    FARMER,
    FIELD,
    GLORIOUS,
    HEALER,
    INTERNAL_MOVE,
    JOKER,
    KNIGHT,
    PLAYERS,
    REVOLT,
    RULER,
    SHIELD,
    SNEAK,
    STABLE,
    SWAP,
    THIEF,
    TOWER,
    area,
    hand,
    kind,
    let_it_through,
    options,
    play,
    play_events,
    reachable_areas,
    revolt_table,
    rng,
    six_farmers,
    table,
)


def test_card_ids_used_here_match_the_card_list():
    groups = {"ruler": RULER, "stable": STABLE, "knight": KNIGHT, "tower": TOWER, "archer": ARCHER,
              "field": FIELD, "farmer": FARMER, "healer": HEALER, "joker": JOKER, "thief": THIEF,
              "donation": DONATION, "extra_draw": EXTRA_DRAW, "internal_move": INTERNAL_MOVE,
              "tactical_swap": SWAP, "sneak_attack": SNEAK, "glorious_attack": GLORIOUS, "revolt": [REVOLT],
              "shield": SHIELD}
    for name, ids in groups.items():
        assert [i for i, n in enumerate(NAMES) if n == name] == ids


# ---------------------------------------------------------------- Donation

def test_donation_choose_a_player_and_whether_hand_or_play_area():
    """Donation: "Choose a player and decide whether they must give you a card from their hand or from
    their play area.\""""
    state = table([[DONATION[0]], [KNIGHT[0]], []], [[], [[TOWER[0]]], [[FIELD[0]]]])
    plays = [m for m in options(state, ANA) if m["type"] == "play"]
    assert {(m["target"], m["zone"]) for m in plays} == {(BO, "hand"), (BO, "area"), (CY, "area")}
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "area"})
    let_it_through(state, BO)
    # Bo must give from the play area, not from the hand.
    assert options(state, BO) == [{"type": "give", "card": TOWER[0]}]
    with pytest.raises(IllegalMove):
        KORONA.decide(state, BO, {"type": "give", "card": KNIGHT[0]}, rng())


def test_donation_the_target_chooses_which_card_to_give():
    """Donation: "They choose which card to give.\""""
    state = table([[DONATION[0]], [KNIGHT[0], ARCHER[0]], []], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    let_it_through(state, BO)
    assert KORONA.awaiting(state) == BO
    assert KORONA.legal_moves(state, ANA) == []
    assert sorted(m["card"] for m in options(state, BO, "give")) == [KNIGHT[0], ARCHER[0]]
    with pytest.raises(IllegalMove):
        KORONA.decide(state, ANA, {"type": "give", "card": ARCHER[0]}, rng())
    pending = KORONA.view(state, CY)["pending"]
    assert pending == {"kind": "give", "seat": BO, "zone": "hand", "to": ANA, "card": DONATION[0], "attacker": ANA}
    assert KORONA.view(state, BO)["pending"]["options"] == options(state, BO)
    play(state, BO, {"type": "give", "card": ARCHER[0]})
    assert hand(state, ANA) == [ARCHER[0]]
    assert hand(state, BO) == [KNIGHT[0]]


def test_donation_only_the_top_card_of_a_stack_may_be_given():
    """Donation: "In a stack, only the top card may be given.\""""
    bo_area = [[TOWER[0], ARCHER[0], ARCHER[1]], [FIELD[0], FARMER[0], FARMER[1], FARMER[2]], [KNIGHT[0]]]
    state = table([[DONATION[0]], [], []], [[], bo_area, []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "area"})
    let_it_through(state, BO)
    assert sorted(m["card"] for m in options(state, BO, "give")) == sorted([ARCHER[1], FARMER[2], KNIGHT[0]])
    for buried in (TOWER[0], ARCHER[0], FIELD[0], FARMER[0]):
        with pytest.raises(IllegalMove):
            KORONA.decide(state, BO, {"type": "give", "card": buried}, rng())


def test_donation_hand_card_goes_to_your_hand_hidden_from_third_seats():
    """Donation: "A card taken from their hand goes to your hand" (hands remain secret: a third seat does
    not learn which card it was)."""
    state = table([[DONATION[0]], [KNIGHT[0]], []], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    let_it_through(state, BO)
    events = play_events(state, BO, {"type": "give", "card": KNIGHT[0]})
    given = [p for t, p in events if t == "CardGiven"]
    assert len(given) == 1
    payload = given[0]
    assert KNIGHT[0] in hand(state, ANA) and hand(state, BO) == []
    assert area(state, ANA) == []
    assert "card" not in KORONA.redact("CardGiven", payload, CY)
    assert "card" not in KORONA.redact("CardGiven", payload, None)
    for viewer in (ANA, BO, "referee"):
        assert KORONA.redact("CardGiven", payload, viewer)["card"]["id"] == KNIGHT[0]
    assert "hand" not in KORONA.view(state, CY)["players"][ANA]


def test_a_hand_may_exceed_seven_after_a_donation_but_not_at_the_turns_end():
    """Hand limit: "Players may temporarily exceed 7 cards during their turn (e.g., after drawing cards or
    receiving cards from Donation), but must reduce to 7 by the turn's end"."""
    mine = [DONATION[0], *FARMER[:7]]
    state = table([mine, [KNIGHT[0]], []], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    let_it_through(state, BO)
    play(state, BO, {"type": "give", "card": KNIGHT[0]})
    assert len(hand(state, ANA)) == 8 and KORONA.awaiting(state) == ANA
    assert {"type": "end_turn"} not in options(state, ANA)
    play(state, ANA, {"type": "discard", "card": FARMER[0]})
    assert {"type": "end_turn"} in options(state, ANA)


def test_donation_play_area_card_enters_your_play_area_where_you_wish():
    """Donation: "a card taken from their play area enters your play area, where you may place it
    anywhere you wish.\""""
    state = table([[DONATION[0]], [], []],
                  [[[TOWER[0]], [TOWER[1], ARCHER[0]]], [[FIELD[0], ARCHER[1]]], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "area"})
    let_it_through(state, BO)
    play(state, BO, {"type": "give", "card": ARCHER[1]})
    assert KORONA.view(state, "referee")["in_transit"][ANA] == [{"id": ARCHER[1], "name": "archer"}]
    assert KORONA.awaiting(state) == ANA and kind(state) == "place"
    spots = {m.get("stack") for m in options(state, ANA, "place")}
    assert spots == {None, 0, 1}
    play(state, ANA, {"type": "place", "card": ARCHER[1], "stack": 1})
    assert area(state, ANA) == [[TOWER[0]], [TOWER[1], ARCHER[0], ARCHER[1]]]
    assert area(state, BO) == [[FIELD[0]]]
    assert hand(state, ANA) == []
    assert state["steps"] == [] and state["resolving"] is None


def test_a_received_card_that_fits_nowhere_goes_to_the_hand():
    """Donation: a card from a play area goes "into your play area where you wish" -- ruling K14: a Joker whose
    roles fit no stack of the receiver's cannot be placed there, so it goes to the receiver's hand."""
    state = table([[DONATION[0]], [], []], [[], [[FIELD[0], JOKER[0]]], []], roles={JOKER[0]: "farmer"})
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "area"})
    let_it_through(state, BO)
    play(state, BO, {"type": "give", "card": JOKER[0]})
    assert KORONA.awaiting(state) == ANA and kind(state) == "place"
    assert options(state, ANA) == [{"type": "place", "card": JOKER[0], "to": "hand"}]
    play(state, ANA, {"type": "place", "card": JOKER[0], "to": "hand"})
    assert hand(state, ANA) == [JOKER[0]] and area(state, ANA) == []
    assert str(JOKER[0]) not in state["roles"]


def test_donation_thief_from_a_play_area_is_placed_by_its_giver():
    """Thief: "Or give it away when someone uses Donation." Spanish: "Quien envía al Malhechor elige dónde
    colocarlo dentro de la zona rival" -- the giver sends it, so the giver places it, never in a full stack."""
    ana_area = [[TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]], [FIELD[0]]]
    state = table([[DONATION[0]], [], []], [ana_area, [[FIELD[1], THIEF[0]]], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "area"})
    let_it_through(state, BO)
    play(state, BO, {"type": "give", "card": THIEF[0]})
    assert KORONA.awaiting(state) == BO
    assert KORONA.legal_moves(state, ANA) == []
    assert {m.get("stack") for m in options(state, BO, "place")} == {None, 1}
    with pytest.raises(IllegalMove):
        KORONA.decide(state, BO, {"type": "place", "card": THIEF[0], "stack": 0}, rng())
    play(state, BO, {"type": "place", "card": THIEF[0], "stack": 1})
    assert area(state, ANA) == [ana_area[0], [FIELD[0], THIEF[0]]]


# ---------------------------------------------------------------- Tactical Swap

def test_swap_take_two_and_give_one_in_exchange():
    """Tactical Swap: "Take 2 Build cards from another player's play area and give 1 of yours in exchange.\""""
    state = table([[SWAP[0]], [], []],
                  [[[TOWER[1], ARCHER[2]]], [[TOWER[0], ARCHER[0], ARCHER[1]], [FIELD[0]]], []])
    play(state, ANA, {"type": "play", "card": SWAP[0], "target": BO})
    let_it_through(state, BO)
    assert KORONA.awaiting(state) == ANA and kind(state) == "take"
    assert sorted(m["card"] for m in options(state, ANA)) == sorted([ARCHER[1], FIELD[0]])
    assert play(state, ANA, {"type": "take", "card": ARCHER[1]}) == ["CardTaken"]
    assert kind(state) == "take"
    play(state, ANA, {"type": "take", "card": FIELD[0]})
    # the exchange comes before anyone places a received card
    assert kind(state) == "hand_over" and KORONA.awaiting(state) == ANA
    assert options(state, ANA) == [{"type": "hand_over", "card": ARCHER[2]}]
    assert play(state, ANA, {"type": "hand_over", "card": ARCHER[2]}) == ["CardHandedOver"]
    play(state, ANA, {"type": "place", "card": ARCHER[1], "stack": 0})
    play(state, ANA, {"type": "place", "card": FIELD[0]})
    assert KORONA.awaiting(state) == BO and kind(state) == "place"
    play(state, BO, {"type": "place", "card": ARCHER[2], "stack": 0})
    assert area(state, ANA) == [[TOWER[1], ARCHER[1]], [FIELD[0]]]
    assert area(state, BO) == [[TOWER[0], ARCHER[0], ARCHER[2]]]
    assert state["steps"] == [] and state["resolving"] is None
    assert state["actions"] == 1


def test_swap_cannot_take_cards_of_a_full_stack():
    """Tactical Swap: "The cards you take cannot be part of any full stack.\""""
    bo_area = [[TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]], [STABLE[0], KNIGHT[0], KNIGHT[1]], [FIELD[0], FARMER[0]]]
    state = table([[SWAP[0]], [], []], [[[TOWER[1]]], bo_area, []])
    play(state, ANA, {"type": "play", "card": SWAP[0], "target": BO})
    let_it_through(state, BO)
    assert options(state, ANA) == [{"type": "take", "card": FARMER[0]}]
    for locked in (ARCHER[2], KNIGHT[1]):
        with pytest.raises(IllegalMove):
            KORONA.decide(state, ANA, {"type": "take", "card": locked}, rng())
    # a target with only full stacks cannot be swapped with at all
    full_only = table([[SWAP[0]], [], []], [[[TOWER[1]]], bo_area[:2], []])
    assert not [m for m in options(full_only, ANA) if m["type"] == "play"]


def test_swap_takes_and_gives_from_the_uppermost_positions():
    """Tactical Swap: "In partial stacks, you may only take or give cards starting from the uppermost
    positions.\""""
    ana_area = [[FIELD[1], FARMER[3], FARMER[4], FARMER[5]], [TOWER[1], ARCHER[3], ARCHER[4]]]
    state = table([[SWAP[0]], [], []], [ana_area, [[STABLE[0], KNIGHT[0]]], []])
    play(state, ANA, {"type": "play", "card": SWAP[0], "target": BO})
    let_it_through(state, BO)
    assert options(state, ANA) == [{"type": "take", "card": KNIGHT[0]}]
    with pytest.raises(IllegalMove):
        KORONA.decide(state, ANA, {"type": "take", "card": STABLE[0]}, rng())
    play(state, ANA, {"type": "take", "card": KNIGHT[0]})
    assert options(state, ANA) == [{"type": "take", "card": STABLE[0]}]
    play(state, ANA, {"type": "take", "card": STABLE[0]})
    assert area(state, BO) == []
    # the swapper gives the top of its partial stack, never from inside it or from a full stack
    assert options(state, ANA) == [{"type": "hand_over", "card": ARCHER[4]}]
    for other in (ARCHER[3], TOWER[1], FARMER[5]):
        with pytest.raises(IllegalMove):
            KORONA.decide(state, ANA, {"type": "hand_over", "card": other}, rng())


def test_swap_received_cards_placed_by_their_new_owner_without_rearranging():
    """Tactical Swap: "After the exchange, both players may place the received cards anywhere they wish in
    their play area (except Thieves) without rearranging existing stacks.\""""
    state = table([[SWAP[0]], [], []],
                  [[[STABLE[1]]], [[TOWER[0]], [ARCHER[0]], [ARCHER[1]]], []])
    play(state, ANA, {"type": "play", "card": SWAP[0], "target": BO})
    let_it_through(state, BO)
    play(state, ANA, {"type": "take", "card": ARCHER[0]})
    play(state, ANA, {"type": "take", "card": ARCHER[1]})
    play(state, ANA, {"type": "hand_over", "card": STABLE[1]})
    play(state, ANA, {"type": "place", "card": ARCHER[0]})
    play(state, ANA, {"type": "place", "card": ARCHER[1]})
    assert KORONA.awaiting(state) == BO
    assert KORONA.legal_moves(state, ANA) == []
    # a Stable is a base: it goes in as a new standalone card, never under the Tower
    assert options(state, BO) == [{"type": "place", "card": STABLE[1]}]
    play(state, BO, {"type": "place", "card": STABLE[1]})
    assert area(state, BO) == [[TOWER[0]], [STABLE[1]]]
    assert area(state, ANA) == [[ARCHER[0]], [ARCHER[1]]]


def test_swap_thief_given_in_exchange_is_placed_by_the_swapper():
    """Tactical Swap: "(except Thieves)"; Thief: "using another action (Tactical Swap, ...) send it to
    another play area"; Spanish: "Quien envía al Malhechor elige dónde colocarlo dentro de la zona rival"."""
    bo_area = [[TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]], [FIELD[0], FARMER[0]]]
    state = table([[SWAP[0]], [], []], [[[FIELD[1], THIEF[0]]], bo_area, []])
    play(state, ANA, {"type": "play", "card": SWAP[0], "target": BO})
    let_it_through(state, BO)
    play(state, ANA, {"type": "take", "card": FARMER[0]})
    play(state, ANA, {"type": "take", "card": FIELD[0]})
    play(state, ANA, {"type": "hand_over", "card": THIEF[0]})
    play(state, ANA, {"type": "place", "card": FARMER[0], "stack": 0})
    play(state, ANA, {"type": "place", "card": FIELD[0]})
    assert KORONA.awaiting(state) == ANA and kind(state) == "place"
    assert KORONA.legal_moves(state, BO) == []
    assert options(state, ANA) == [{"type": "place", "card": THIEF[0]}]  # Bo's only stack is full
    play(state, ANA, {"type": "place", "card": THIEF[0]})
    assert area(state, BO) == [bo_area[0], [THIEF[0]]]


# ---------------------------------------------------------------- Sneak Attack

def test_sneak_attack_send_a_thief_where_you_choose_then_steal_one():
    """Sneak Attack: "Send a Thief from your play area to another player's (you choose where the Thief is
    placed), then steal 1 Build card and place it in your play area.\""""
    bo_area = [[FIELD[1], FARMER[0]], [STABLE[0]], [KNIGHT[0]]]
    state = table([[SNEAK[0]], [], []], [[[FIELD[0], THIEF[0]]], bo_area, []])
    assert {"type": "play", "card": SNEAK[0], "target": BO, "thief": THIEF[0]} in options(state, ANA)
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO, "thief": THIEF[0]})
    assert area(state, ANA) == [[FIELD[0], THIEF[0]]]  # nothing moves before the Shield window closes
    let_it_through(state, BO)
    assert area(state, ANA) == [[FIELD[0]]]
    assert KORONA.awaiting(state) == ANA and kind(state) == "place"
    assert KORONA.legal_moves(state, BO) == []
    play(state, ANA, {"type": "place", "card": THIEF[0], "stack": 1})
    assert area(state, BO)[1] == [STABLE[0], THIEF[0]]
    assert kind(state) == "take"
    assert play(state, ANA, {"type": "take", "card": KNIGHT[0]}) == ["CardTaken"]
    play(state, ANA, {"type": "place", "card": KNIGHT[0]})
    assert area(state, ANA) == [[FIELD[0]], [KNIGHT[0]]]
    assert area(state, BO) == [[FIELD[1], FARMER[0]], [STABLE[0], THIEF[0]]]
    assert state["steps"] == [] and state["resolving"] is None  # only 1 card stolen with a Thief


def test_sneak_attack_does_not_steal_back_the_thief_it_sent():
    """Sneak Attack: "Send a Thief ... then steal 1 Build card" (ruling K19): the Thief just sent, on top of a
    partial stack or standing alone, is not among the cards the attacker may steal."""
    for spot in (None, 0):
        state = table([[SNEAK[0]], [], []], [[[THIEF[0]]], [[STABLE[0]], [KNIGHT[0]]], []])
        play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO, "thief": THIEF[0]})
        let_it_through(state, BO)
        play(state, ANA, {"type": "place", "card": THIEF[0]} | ({} if spot is None else {"stack": spot}))
        assert kind(state) == "take"
        assert THIEF[0] in [s[-1] for s in area(state, BO)]
        assert options(state, ANA) == [{"type": "take", "card": c} for c in (STABLE[0], KNIGHT[0])
                                       if [c] in area(state, BO)]
        with pytest.raises(IllegalMove):
            KORONA.decide(state, ANA, {"type": "take", "card": THIEF[0]}, rng())


def test_sneak_attack_thief_cannot_be_sent_into_a_full_stack():
    """Thief: "Can be placed in your play area as a standalone card or stacked anywhere, except full
    stacks." -- so Sneak Attack cannot send it into a full stack."""
    full = [TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]]
    state = table([[SNEAK[0]], [], []], [[[THIEF[0]]], [full, [FIELD[0], FARMER[0]]], []])
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO, "thief": THIEF[0]})
    let_it_through(state, BO)
    assert {m.get("stack") for m in options(state, ANA, "place")} == {None, 1}
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        KORONA.decide(state, ANA, {"type": "place", "card": THIEF[0], "stack": 0}, rng())
    assert state == before
    play(state, ANA, {"type": "place", "card": THIEF[0], "stack": 1})
    assert area(state, BO)[0] == full


def test_sneak_attack_thief_must_be_in_your_play_area_first():
    """Thief: "Place it in your play area first. Then, using another action (Tactical Swap, Sneak Attack,
    Revolt), send it to another play area.\""""
    state = table([[SNEAK[0], THIEF[1]], [], []], [[[FIELD[0], THIEF[0], FARMER[0]]], [[STABLE[0]]], []])
    thief_plays = [m for m in options(state, ANA) if m.get("thief") is not None]
    assert thief_plays == []  # one in hand, one buried under a Farmer
    for thief in THIEF:
        with pytest.raises(IllegalMove):
            KORONA.decide(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO, "thief": thief}, rng())


def test_sneak_attack_without_a_thief_steals_two():
    """Sneak Attack: "Alternatively, if you don't use a Thief, steal 2 Build cards from their play area.\""""
    state = table([[SNEAK[0]], [], []], [[], [[STABLE[0]], [KNIGHT[0]], [TOWER[0]]], []])
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO})
    let_it_through(state, BO)
    play(state, ANA, {"type": "take", "card": KNIGHT[0]})
    assert kind(state) == "take"
    play(state, ANA, {"type": "take", "card": TOWER[0]})
    assert kind(state) == "place"
    play(state, ANA, {"type": "place", "card": KNIGHT[0]})
    play(state, ANA, {"type": "place", "card": TOWER[0]})
    assert sorted(map(tuple, area(state, ANA))) == [(KNIGHT[0],), (TOWER[0],)]
    assert area(state, BO) == [[STABLE[0]]]
    assert state["steps"] == []


def test_sneak_attack_cannot_steal_from_a_full_stack():
    """Sneak Attack: "Stolen cards cannot be part of any full stack.\""""
    full = [[STABLE[0], KNIGHT[0], KNIGHT[1]], [RULER[0], RULER[1]]]
    state = table([[SNEAK[0]], [], []], [[], full + [[TOWER[0], ARCHER[0]]], []])
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO})
    let_it_through(state, BO)
    assert options(state, ANA) == [{"type": "take", "card": ARCHER[0]}]
    for locked in (KNIGHT[1], RULER[1]):
        with pytest.raises(IllegalMove):
            KORONA.decide(state, ANA, {"type": "take", "card": locked}, rng())
    only_full = table([[SNEAK[0]], [], []], [[], full, []])
    assert not [m for m in options(only_full, ANA) if m["type"] == "play"]


def test_sneak_attack_steals_from_the_uppermost_positions():
    """Sneak Attack: "In partial stacks, you may only steal cards starting from the uppermost positions.\""""
    state = table([[SNEAK[0]], [], []], [[], [[TOWER[0], ARCHER[0], ARCHER[1]]], []])
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO})
    let_it_through(state, BO)
    assert options(state, ANA) == [{"type": "take", "card": ARCHER[1]}]
    for buried in (TOWER[0], ARCHER[0]):
        with pytest.raises(IllegalMove):
            KORONA.decide(state, ANA, {"type": "take", "card": buried}, rng())
    play(state, ANA, {"type": "take", "card": ARCHER[1]})
    assert options(state, ANA) == [{"type": "take", "card": ARCHER[0]}]


def test_sneak_attack_stolen_cards_placed_anywhere_without_rearranging():
    """Sneak Attack: "Place stolen cards anywhere you wish in your play area without rearranging existing
    stacks.\""""
    state = table([[SNEAK[0]], [], []],
                  [[[ARCHER[2]], [TOWER[1], ARCHER[3]]], [[TOWER[0]], [ARCHER[0]]], []])
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO})
    let_it_through(state, BO)
    play(state, ANA, {"type": "take", "card": TOWER[0]})
    play(state, ANA, {"type": "take", "card": ARCHER[0]})
    # a stolen Tower is a base: standalone only, never slid under Ana's lone Archer
    assert [m for m in options(state, ANA) if m["card"] == TOWER[0]] == [{"type": "place", "card": TOWER[0]}]
    # the stolen Archer may stand alone or top Ana's Tower, never go under her stacks
    assert {m.get("stack") for m in options(state, ANA) if m["card"] == ARCHER[0]} == {None, 1}
    play(state, ANA, {"type": "place", "card": TOWER[0]})
    # ... or top the Tower just placed
    assert {m.get("stack") for m in options(state, ANA) if m["card"] == ARCHER[0]} == {None, 1, 2}
    play(state, ANA, {"type": "place", "card": ARCHER[0], "stack": 2})
    assert area(state, ANA) == [[ARCHER[2]], [TOWER[1], ARCHER[3]], [TOWER[0], ARCHER[0]]]


@pytest.mark.parametrize("card_id", [SNEAK[0], SWAP[0]], ids=["sneak_attack", "tactical_swap"])
def test_two_cards_stolen_from_one_stack_may_be_placed_in_either_order(card_id):
    """Stacking: "If you steal two cards from the same stack, you may keep them in the same order or
    rearrange them when placing them in your play area.\""""
    state = table([[card_id], [], []], [[[TOWER[1]], [KNIGHT[0]]], [[TOWER[0], ARCHER[0], ARCHER[1]]], []])
    play(state, ANA, {"type": "play", "card": card_id, "target": BO})
    let_it_through(state, BO)
    play(state, ANA, {"type": "take", "card": ARCHER[1]})
    play(state, ANA, {"type": "take", "card": ARCHER[0]})
    if card_id == SWAP[0]:
        play(state, ANA, {"type": "hand_over", "card": KNIGHT[0]})
    outcomes = [next(s for s in a if s[0] == TOWER[1]) for a in reachable_areas(state, ANA)]
    same_order = [TOWER[1], ARCHER[0], ARCHER[1]]
    rearranged = [TOWER[1], ARCHER[1], ARCHER[0]]
    assert rearranged in outcomes
    assert same_order in outcomes


# ---------------------------------------------------------------- Glorious Attack

def test_glorious_attack_steals_a_full_stack_intact():
    """Glorious Attack: "Steal a full stack of Build cards from another player's play area and place it in
    your own.\""""
    knights = [STABLE[0], KNIGHT[0], KNIGHT[1]]
    state = table([[GLORIOUS[0]], [], []], [[[FIELD[0]]], [[TOWER[0]], knights], []])
    play(state, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 1})
    let_it_through(state, BO)
    assert area(state, ANA) == [[FIELD[0]], knights]
    assert area(state, BO) == [[TOWER[0]]]
    assert state["steps"] == [] and state["resolving"] is None
    assert GLORIOUS[0] in state["discard"]


def test_glorious_attack_only_full_stacks():
    """Glorious Attack: "Only full stacks can be targeted (no standalone cards or partial stacks allowed)."
    Stacking: "stacks containing a Thief can still count as full stacks"."""
    bo_area = [[TOWER[0], ARCHER[0], ARCHER[1]], [KNIGHT[0]], [STABLE[0]], [FIELD[0], FARMER[0], FARMER[1], THIEF[0]],
               [HEALER[0], HEALER[1]]]
    state = table([[GLORIOUS[0]], [], []], [[], bo_area, []])
    targets = {m["stack"] for m in options(state, ANA) if m["type"] == "play" and m.get("target") == BO}
    assert targets == {3, 4}
    for stack in (0, 1, 2):
        with pytest.raises(IllegalMove):
            KORONA.decide(state, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": stack}, rng())
    play(state, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 3})
    let_it_through(state, BO)
    assert area(state, ANA) == [[FIELD[0], FARMER[0], FARMER[1], THIEF[0]]]


def test_full_stacks_defend_against_steals_and_thieves_partial_ones_against_glorious_attack():
    """Full stacks takeaways: "Completing a full stack grants defense against most steal actions and against
    Thieves [...] Partial stacks, on the other hand, [...] are immune to Glorious Attack"."""
    full, partial = [TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]], [STABLE[0], KNIGHT[0]]
    state = table([[SNEAK[0], GLORIOUS[0]], [], []], [[[THIEF[0]]], [full, partial], []])
    sends = {m.get("thief") for m in options(state, ANA) if m.get("card") == SNEAK[0]}
    assert THIEF[0] in sends
    glorious = {m["stack"] for m in options(state, ANA) if m.get("card") == GLORIOUS[0] and m.get("target") == BO}
    assert glorious == {0}  # the full stack only
    play(state, ANA, {"type": "play", "card": SNEAK[0], "target": BO, "thief": THIEF[0]})
    let_it_through(state, BO)
    assert {m.get("stack") for m in options(state, ANA)} == {None, 1}  # standalone or the partial stack, not full
    play(state, ANA, {"type": "place", "card": THIEF[0]})
    assert options(state, ANA) == [{"type": "take", "card": KNIGHT[0]}]  # nothing from the full stack


def test_glorious_attack_cannot_take_a_protected_ruler_pair():
    """Glorious Attack: "A Ruler pair protected by 1 full Knight set (Stable + 2 Knights) plus 1 full
    Archer set (Tower + 3 Archers) cannot be stolen.\""""
    bo_area = [[RULER[0], RULER[1]], [STABLE[0], KNIGHT[0], KNIGHT[1]], [TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]]]
    state = table([[GLORIOUS[0]], [], []], [[], bo_area, []])
    targets = {m["stack"] for m in options(state, ANA) if m["type"] == "play"}
    assert targets == {1, 2}
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        KORONA.decide(state, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0}, rng())
    assert state == before
    # without the Archer set the same pair can be taken
    open_pair = table([[GLORIOUS[0]], [], []], [[], bo_area[:2], []])
    assert {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0} in options(open_pair, ANA)


def test_glorious_attack_thief_in_a_set_breaks_ruler_pair_protection():
    """Ruler pair protection: "A Ruler Pair is considered protected from Glorious Attack when the player has
    1 full Knight set plus 1 full Archer set in their play area with no Thief in either of those two sets.\""""
    bo_area = [[RULER[0], JOKER[0]], [STABLE[0], KNIGHT[0], THIEF[0]], [TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]]]
    state = table([[GLORIOUS[0]], [], []], [[], bo_area, []], roles={JOKER[0]: "ruler"})
    assert {m["stack"] for m in options(state, ANA) if m["type"] == "play"} == {0, 1, 2}
    # a Joker as Knight completes a set normally, and then protects
    clean = [bo_area[0], [STABLE[0], KNIGHT[0], JOKER[1]], bo_area[2]]
    protected = table([[GLORIOUS[0]], [], []], [[], clean, []], roles={JOKER[0]: "ruler", JOKER[1]: "knight"})
    assert {m["stack"] for m in options(protected, ANA) if m["type"] == "play"} == {1, 2}


def test_glorious_attack_joker_of_a_stolen_ruler_pair_repositioned_for_free():
    """Glorious Attack: "When stealing a Ruler pair that includes a Joker, you may reposition the Joker
    somewhere else in your play area as a free action.\""""
    state = table([[GLORIOUS[0], EXTRA_DRAW[9]], [], []], [[[FIELD[0]]], [[RULER[0], JOKER[0]]], []],
                  roles={JOKER[0]: "ruler"})
    play(state, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0})
    let_it_through(state, BO)
    assert area(state, ANA) == [[FIELD[0]], [RULER[0], JOKER[0]]]
    assert KORONA.awaiting(state) == ANA and kind(state) == "reposition"
    move = {"type": "reposition", "card": JOKER[0], "from_stack": 1, "stack": 0, "role": "farmer"}
    assert move in options(state, ANA) and {"type": "pass"} in options(state, ANA)
    assert play(state, ANA, move) == ["JokerRepositioned"]
    assert area(state, ANA) == [[FIELD[0], JOKER[0]], [RULER[0]]]
    assert state["roles"][str(JOKER[0])] == "farmer"
    assert state["actions"] == 1  # only the Glorious Attack counted
    assert state["steps"] == [] and state["resolving"] is None
    assert KORONA.awaiting(state) == ANA and any(m["type"] == "end_turn" for m in options(state, ANA))


def test_glorious_attack_joker_may_also_stay():
    """Glorious Attack: "you *may* reposition the Joker" -- keeping it where it is is also allowed."""
    state = table([[GLORIOUS[0]], [], []], [[[FIELD[0]]], [[RULER[0], JOKER[0]]], []], roles={JOKER[0]: "ruler"})
    play(state, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0})
    let_it_through(state, BO)
    assert play(state, ANA, {"type": "pass"}) == ["JokerKept"]
    assert area(state, ANA) == [[FIELD[0]], [RULER[0], JOKER[0]]]
    assert state["roles"][str(JOKER[0])] == "ruler"
    assert state["actions"] == 1


def test_combo_completed_by_a_stolen_stack_is_declared_when_the_card_resolves():
    """Instant victory: "a player can win instantly by declaring victory upon completing any of the 3
    combos" -- checked once the card has resolved, the current player first."""
    ana_area = [[STABLE[0], KNIGHT[0], KNIGHT[1]], [TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]],
                [TOWER[1], ARCHER[3], ARCHER[4], ARCHER[5]]]
    state = table([[GLORIOUS[0]], [], []], [ana_area, [[RULER[0], RULER[1]]], []])
    play(state, ANA, {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0})
    types = play(state, BO, {"type": "pass"})
    assert "StackStolen" in types and "VictoryDeclared" in types
    assert types.index("StackStolen") < types.index("VictoryDeclared")
    assert state["status"] == "finished" and state["winner"] == ANA


# ---------------------------------------------------------------- Revolt


def test_revolt_requires_six_farmers():
    """Revolt: "Requires 6 Farmers in your play area." (a Joker acting as a Farmer counts)."""
    five = [[FIELD[0], FARMER[0], FARMER[1], FARMER[2]], [FIELD[1], FARMER[3], FARMER[4]]]
    state = table([[REVOLT], [], []], [five, [[STABLE[0]]], []])
    assert {"type": "play", "card": REVOLT} not in options(state, ANA)
    with pytest.raises(IllegalMove, match="6 Farmers"):
        KORONA.decide(state, ANA, {"type": "play", "card": REVOLT}, rng())
    with_joker = table([[REVOLT], [], []], [[five[0], five[1] + [JOKER[0]]], [[STABLE[0]]], []],
                       roles={JOKER[0]: "farmer"})
    assert {"type": "play", "card": REVOLT} in options(with_joker, ANA)
    six_alone = table([[REVOLT], [], []], [[[FARMER[i]] for i in range(6)], [], []])
    assert {"type": "play", "card": REVOLT} in options(six_alone, ANA)


def test_revolt_each_player_passes_a_card_or_stack_clockwise():
    """Revolt: "Starting with the player who plays Revolt and moving clockwise, each player must pass one
    Build card or stack (partial or full) from their play area to the next.\""""
    state = revolt_table(bo_area=[[TOWER[0], ARCHER[0]], [KNIGHT[0]]], cy_area=[[STABLE[0]]])
    play(state, ANA, {"type": "play", "card": REVOLT})
    let_it_through(state, BO, CY)
    assert kind(state) == "pass_on" and KORONA.awaiting(state) == ANA
    assert {"type": "pass"} not in options(state, ANA)  # passing is compulsory
    assert play(state, ANA, {"type": "pass_on", "stack": 0}) == ["StackPassed"]  # a full stack
    assert play(state, ANA, {"type": "pass_on", "stack": 0, "card": ARCHER[0]}) == ["CardPassed"]  # a card
    play(state, CY, {"type": "place", "card": ARCHER[0]})
    assert play(state, BO, {"type": "pass_on", "stack": 0}) == ["CardPassed"]  # Cy's lone Stable to Ana
    play(state, ANA, {"type": "place", "card": STABLE[0]})
    assert area(state, ANA) == [six_farmers()[1], [STABLE[0]]]
    assert area(state, BO) == [[TOWER[0]], [KNIGHT[0]], six_farmers()[0]]
    assert area(state, CY) == [[ARCHER[0]]]
    assert state["steps"] == [] and state["resolving"] is None
    assert state["actions"] == 1


def test_revolt_a_player_with_nothing_passable_passes_nothing():
    """Ruling K15: "each player must pass one Build card or stack" -- Cy's area holds only the Tower it has just
    received, which cannot be passed, so Cy passes nothing and the Revolt ends."""
    state = revolt_table(bo_area=[[TOWER[0]]], cy_area=[])
    play(state, ANA, {"type": "play", "card": REVOLT})
    let_it_through(state, BO, CY)
    play(state, ANA, {"type": "pass_on", "stack": 0})
    assert KORONA.awaiting(state) == ANA and options(state, ANA) == [{"type": "pass_on", "stack": 0}]
    play(state, ANA, {"type": "pass_on", "stack": 0})  # Bo's Tower to Cy, decided by Ana
    play(state, CY, {"type": "place", "card": TOWER[0]})
    assert area(state, CY) == [[TOWER[0]]]
    assert state["steps"] == [] and state["resolving"] is None
    assert area(state, ANA) == [six_farmers()[1]] and area(state, BO) == [six_farmers()[0]]


def test_revolt_revolter_chooses_its_pass_others_by_the_preceding_player():
    """Revolt: "The player using Revolt chooses what to pass, while everyone else's pass is decided by the
    player preceding them.\""""
    state = revolt_table(bo_area=[[TOWER[0]], [KNIGHT[0]]], cy_area=[[STABLE[0]], [STABLE[1]]])
    play(state, ANA, {"type": "play", "card": REVOLT})
    let_it_through(state, BO, CY)
    deciders = []
    while state["steps"]:
        seat = KORONA.awaiting(state)
        deciders.append((seat, kind(state)))
        for other in {ANA, BO, CY} - {seat}:
            assert KORONA.legal_moves(state, other) == []
        play(state, seat, options(state, seat)[0])
    # a lone card passed is placed by its receiver (K15)
    assert deciders == [(ANA, "pass_on"), (ANA, "pass_on"), (CY, "place"), (BO, "pass_on"), (ANA, "place")]


def test_revolt_card_or_stack_just_received_cannot_be_passed():
    """Revolt: "A card or stack just received cannot be passed.\""""
    state = revolt_table(ana_extra=[[STABLE[0]]], bo_area=[[TOWER[0], ARCHER[0]]], cy_area=[[FIELD[2]]])
    play(state, ANA, {"type": "play", "card": REVOLT})
    let_it_through(state, BO, CY)
    play(state, ANA, {"type": "pass_on", "stack": 2})  # the Stable goes to Bo
    play(state, BO, {"type": "place", "card": STABLE[0]})
    assert area(state, BO) == [[TOWER[0], ARCHER[0]], [STABLE[0]]]
    assert {"type": "pass_on", "stack": 1} not in options(state, ANA)
    with pytest.raises(IllegalMove):
        KORONA.decide(state, ANA, {"type": "pass_on", "stack": 1}, rng())
    play(state, ANA, {"type": "pass_on", "stack": 0, "card": ARCHER[0]})  # Bo's Archer goes to Cy
    play(state, CY, {"type": "place", "card": ARCHER[0]})
    assert KORONA.awaiting(state) == BO
    assert options(state, BO) == [{"type": "pass_on", "stack": 0}]  # only Cy's Field, not the Archer
    with pytest.raises(IllegalMove):
        KORONA.decide(state, BO, {"type": "pass_on", "stack": 1}, rng())


def test_revolt_thief_passed_is_placed_by_whoever_sends_it():
    """Thief: "using another action (... Revolt), send it to another play area"; Spanish: "Quien envía al
    Malhechor elige dónde colocarlo dentro de la zona rival"; never into a full stack."""
    ana = [[FIELD[0], FARMER[0], FARMER[1], FARMER[2]], [FIELD[1], FARMER[3], FARMER[4], THIEF[0]],
           [FIELD[2], FARMER[5]]]
    bo_area = [[TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]], [STABLE[0]]]
    state = table([[REVOLT], [], []], [ana, bo_area, [[KNIGHT[0]]]])
    play(state, ANA, {"type": "play", "card": REVOLT})
    let_it_through(state, BO, CY)
    play(state, ANA, {"type": "pass_on", "stack": 1, "card": THIEF[0]})
    assert KORONA.awaiting(state) == ANA and kind(state) == "place"
    assert {m.get("stack") for m in options(state, ANA)} == {None, 1}
    play(state, ANA, {"type": "place", "card": THIEF[0], "stack": 1})
    assert area(state, BO) == [bo_area[0], [STABLE[0], THIEF[0]]]


def test_revolt_joker_of_a_passed_ruler_pair_repositioned_for_free():
    """Revolt: "If a Ruler pair with a Joker is passed to you, you may reposition the Joker in your play area
    as a free action.\""""
    state = revolt_table(ana_extra=[[RULER[0], JOKER[0]]], bo_area=[[FIELD[2]]], cy_area=[[STABLE[0]]],
                         roles={JOKER[0]: "ruler"})
    play(state, ANA, {"type": "play", "card": REVOLT})
    let_it_through(state, BO, CY)
    play(state, ANA, {"type": "pass_on", "stack": 2})
    assert area(state, BO) == [[FIELD[2]], [RULER[0], JOKER[0]]]
    assert KORONA.awaiting(state) == BO and kind(state) == "reposition"
    move = {"type": "reposition", "card": JOKER[0], "from_stack": 1, "stack": 0, "role": "farmer"}
    assert move in options(state, BO)
    play(state, BO, move)
    assert area(state, BO) == [[FIELD[2], JOKER[0]], [RULER[0]]]
    assert state["roles"][str(JOKER[0])] == "farmer"
    assert state["actions"] == 1


# ---------------------------------------------------------------- Shield

SHIELD_TABLE_ANA = six_farmers() + [[TOWER[1], ARCHER[5]]]
SHIELD_TABLE_BO = [[TOWER[0], ARCHER[0], ARCHER[1], ARCHER[2]], [STABLE[0], KNIGHT[0]]]

CARD_PLAYS = {
    "donation": {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"},
    "tactical_swap": {"type": "play", "card": SWAP[0], "target": BO},
    "sneak_attack": {"type": "play", "card": SNEAK[0], "target": BO},
    "glorious_attack": {"type": "play", "card": GLORIOUS[0], "target": BO, "stack": 0},
    "revolt": {"type": "play", "card": REVOLT},
}


def shield_table(card_id, bo_hand=(SHIELD[0], KNIGHT[1]), ana_hand=(), cy_hand=()):
    return table([[card_id, *ana_hand], list(bo_hand), list(cy_hand)],
                 [SHIELD_TABLE_ANA, SHIELD_TABLE_BO, [[FIELD[2]]]])


@pytest.mark.parametrize("name", list(CARD_PLAYS))
def test_shield_cancels_an_action_card_targeting_you(name):
    """Shield: "Play this card to cancel an opponent's Action card targeting you." (the cancelled card stays
    in the discard pile)."""
    move = CARD_PLAYS[name]
    state = shield_table(move["card"])
    before = copy.deepcopy(state)
    play(state, ANA, move)
    assert KORONA.awaiting(state) == BO
    assert play(state, BO, {"type": "shield", "card": SHIELD[0]}) == ["ShieldPlayed"]
    assert KORONA.awaiting(state) == ANA
    types = play(state, ANA, {"type": "pass"})
    assert "ActionCancelled" in types and "ActionTookEffect" not in types
    for seat in (ANA, BO, CY):
        assert area(state, seat) == area(before, seat)
    assert hand(state, BO) == [KNIGHT[1]]
    assert state["discard"] == [move["card"], SHIELD[0]]
    assert state["steps"] == [] and state["resolving"] is None


@pytest.mark.parametrize("name", list(CARD_PLAYS))
def test_shield_is_an_instant_free_action_against_the_five_cards(name):
    """Shield: "It can be used instantly, as a free action, in response to Donation, Tactical Swap, Sneak
    Attack, Glorious Attack, or Revolt.\""""
    move = CARD_PLAYS[name]
    state = shield_table(move["card"])
    play(state, ANA, move)
    assert state["actions"] == 1
    assert KORONA.awaiting(state) == BO  # at once, before the card does anything
    assert {"type": "shield", "card": SHIELD[0]} in options(state, BO)
    play(state, BO, {"type": "shield", "card": SHIELD[0]})
    assert state["actions"] == 1
    assert state["current"] == ANA


def test_shield_cannot_be_played_outside_a_window_or_against_other_cards():
    """Shield: "in response to Donation, Tactical Swap, Sneak Attack, Glorious Attack, or Revolt" -- not as
    an action of its own, and not against Extra Draw or Internal Move."""
    state = table([[SHIELD[0], EXTRA_DRAW[9]], [SHIELD[1]], []], [[], [[STABLE[0]]], []])
    assert not [m for m in options(state, ANA) if m["type"] in ("play", "shield") and m.get("card") == SHIELD[0]]
    with pytest.raises(IllegalMove):
        KORONA.decide(state, ANA, {"type": "play", "card": SHIELD[0]}, rng())
    play(state, ANA, {"type": "play", "card": EXTRA_DRAW[9], "draw": "pile"})
    assert KORONA.awaiting(state) == ANA and state["steps"] == []
    assert KORONA.legal_moves(state, BO) == []


def test_shield_only_by_the_player_targeted():
    """Shield: "cancel an opponent's Action card targeting *you*" -- a third player cannot shield it."""
    state = table([[DONATION[0]], [KNIGHT[0]], [SHIELD[0]]], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    assert KORONA.legal_moves(state, CY) == []
    with pytest.raises(IllegalMove):
        KORONA.decide(state, CY, {"type": "shield", "card": SHIELD[0]}, rng())


def test_shields_do_not_count_as_actions():
    """Shield: "as a free action" -- neither the target's Shield nor the attacker's counter uses one of the
    1 to 3 actions."""
    state = shield_table(DONATION[0], ana_hand=(SHIELD[1], KNIGHT[2], KNIGHT[3]), bo_hand=(SHIELD[0], KNIGHT[1]))
    play(state, ANA, {"type": "place", "card": KNIGHT[2]})
    play(state, ANA, CARD_PLAYS["donation"])
    assert state["actions"] == 2
    play(state, BO, {"type": "shield", "card": SHIELD[0]})
    assert play(state, ANA, {"type": "shield", "card": SHIELD[1]}) == ["ShieldCountered"]
    assert state["actions"] == 2
    play(state, BO, {"type": "pass"})
    play(state, BO, {"type": "give", "card": KNIGHT[1]})
    assert state["actions"] == 2 and state["status"] == "active"
    assert KORONA.awaiting(state) == ANA and state["phase"] == "actions"
    # Ana still has her third action
    types = play(state, ANA, {"type": "place", "card": KNIGHT[3]})
    assert types[:2] == ["CardPlaced", "TurnEnded"]


def test_attacker_counter_shield_negates_the_shield_and_the_card_takes_effect():
    """Shield: "An attacker may also play a Shield to counter another Shield, negating its effect.\""""
    state = shield_table(SNEAK[0], ana_hand=(SHIELD[1],))
    play(state, ANA, CARD_PLAYS["sneak_attack"])
    play(state, BO, {"type": "shield", "card": SHIELD[0]})
    assert {"type": "shield", "card": SHIELD[1]} in options(state, ANA)
    play(state, ANA, {"type": "shield", "card": SHIELD[1]})
    assert KORONA.awaiting(state) == BO  # Bo may answer again, but has no Shield left
    assert options(state, BO) == [{"type": "pass"}]
    types = play(state, BO, {"type": "pass"})
    assert "ActionTookEffect" in types and "ActionCancelled" not in types
    play(state, ANA, {"type": "take", "card": KNIGHT[0]})
    play(state, ANA, {"type": "take", "card": STABLE[0]})
    assert area(state, BO) == [SHIELD_TABLE_BO[0]]
    assert state["discard"] == [SNEAK[0], SHIELD[0], SHIELD[1]]


def test_a_third_shield_answers_the_counter_and_cancels():
    """Shield: "An attacker may also play a Shield to counter another Shield" -- and the last unanswered
    Shield decides, so the target's second Shield cancels the card."""
    state = shield_table(DONATION[0], ana_hand=(SHIELD[1],), bo_hand=(SHIELD[0], SHIELD[2], KNIGHT[1]))
    play(state, ANA, CARD_PLAYS["donation"])
    play(state, BO, {"type": "shield", "card": SHIELD[0]})
    play(state, ANA, {"type": "shield", "card": SHIELD[1]})
    assert play(state, BO, {"type": "shield", "card": SHIELD[2]}) == ["ShieldPlayed"]
    assert options(state, ANA) == [{"type": "pass"}]
    types = play(state, ANA, {"type": "pass"})
    assert "ActionCancelled" in types
    assert hand(state, BO) == [KNIGHT[1]] and hand(state, ANA) == []


def test_revolt_cancelled_entirely_by_one_shield():
    """Shield: "During a Revolt, if just one player uses a Shield, the entire Revolt is canceled.\""""
    state = revolt_table(bo_area=[[TOWER[0]]], cy_area=[[STABLE[0]]], hands=((), (SHIELD[0],), (SHIELD[1],)))
    before = copy.deepcopy(state)
    play(state, ANA, {"type": "play", "card": REVOLT})
    assert KORONA.awaiting(state) == BO
    play(state, BO, {"type": "pass"})
    assert KORONA.awaiting(state) == CY  # every other player gets the window, clockwise
    play(state, CY, {"type": "shield", "card": SHIELD[1]})
    types = play(state, ANA, {"type": "pass"})
    assert "ActionCancelled" in types and "StackPassed" not in types and "CardPassed" not in types
    for seat in (ANA, BO, CY):
        assert area(state, seat) == area(before, seat)
    assert state["steps"] == [] and state["resolving"] is None
    assert REVOLT in state["discard"] and hand(state, BO) == [SHIELD[0]]


def test_revolt_goes_ahead_when_the_revolter_counters_the_shield():
    """Shield: "An attacker may also play a Shield to counter another Shield, negating its effect." -- a
    countered Shield no longer cancels the Revolt."""
    state = revolt_table(bo_area=[[TOWER[0]]], cy_area=[[STABLE[0]]], hands=((SHIELD[1],), (SHIELD[0],), ()))
    play(state, ANA, {"type": "play", "card": REVOLT})
    play(state, BO, {"type": "shield", "card": SHIELD[0]})
    assert play(state, ANA, {"type": "shield", "card": SHIELD[1]}) == ["ShieldCountered"]
    play(state, BO, {"type": "pass"})
    types = play(state, CY, {"type": "pass"})
    assert "ActionTookEffect" in types
    assert kind(state) == "pass_on" and KORONA.awaiting(state) == ANA


def test_revolt_a_later_shield_left_standing_cancels_after_an_earlier_one_was_countered():
    """Ruling K11: "if just one player uses a Shield, the entire Revolt is canceled" -- Bo's Shield is countered,
    Cy's is left standing, so the Revolt is cancelled; and a first Shield left standing cancels at once, the
    remaining players are not asked."""
    state = revolt_table(bo_area=[[TOWER[0]]], cy_area=[[STABLE[0]]],
                         hands=((SHIELD[2],), (SHIELD[0],), (SHIELD[1],)))
    play(state, ANA, {"type": "play", "card": REVOLT})
    play(state, BO, {"type": "shield", "card": SHIELD[0]})
    assert play(state, ANA, {"type": "shield", "card": SHIELD[2]}) == ["ShieldCountered"]
    play(state, BO, {"type": "pass"})
    assert KORONA.awaiting(state) == CY
    play(state, CY, {"type": "shield", "card": SHIELD[1]})
    assert options(state, ANA) == [{"type": "pass"}]
    types = play(state, ANA, {"type": "pass"})
    assert "ActionCancelled" in types and "ActionTookEffect" not in types
    assert state["resolving"] is None and REVOLT in state["discard"]

    state = revolt_table(bo_area=[[TOWER[0]]], cy_area=[[STABLE[0]]], hands=((), (SHIELD[0],), (SHIELD[1],)))
    play(state, ANA, {"type": "play", "card": REVOLT})
    play(state, BO, {"type": "shield", "card": SHIELD[0]})
    types = play(state, ANA, {"type": "pass"})
    assert "ActionCancelled" in types
    assert KORONA.awaiting(state) != CY and hand(state, CY) == [SHIELD[1]]
    assert state["resolving"] is None


# ---------------------------------------------------------------- whose decision

def test_move_by_the_wrong_seat_is_refused_naming_whose_decision_is_awaited():
    """Shield: "cancel an opponent's Action card targeting you" -- while the target decides, no other seat
    may move; the refusal says whose decision is awaited and changes nothing."""
    state = table([[DONATION[0], KNIGHT[2]], [KNIGHT[0], SHIELD[0]], [SHIELD[1]]], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    before = copy.deepcopy(state)
    for seat, move in ((CY, {"type": "pass"}), (ANA, {"type": "pass"}), (ANA, {"type": "place", "card": KNIGHT[2]}),
                       (CY, {"type": "shield", "card": SHIELD[1]})):
        with pytest.raises(IllegalMove) as refused:
            KORONA.decide(state, seat, move, rng())
        assert "Bo" in str(refused.value) and "seat 1" in str(refused.value)
        assert state == before
    play(state, BO, {"type": "pass"})
    with pytest.raises(IllegalMove) as refused:
        KORONA.decide(state, ANA, {"type": "give", "card": KNIGHT[0]}, rng())
    assert "Bo" in str(refused.value) and "seat 1" in str(refused.value)


def test_pending_decision_shown_to_all_options_only_to_the_decider():
    """Shield: the window is public (everyone sees who must answer what), but the target's options reveal its
    hand, so only it and the referee see them."""
    state = table([[DONATION[0]], [KNIGHT[0], SHIELD[0]], []], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    for viewer in (ANA, CY, None):
        pending = KORONA.view(state, viewer)["pending"]
        assert pending == {"kind": "respond", "seat": BO, "shields": 0, "card": DONATION[0], "attacker": ANA}
    for viewer in (BO, "referee"):
        pending = KORONA.view(state, viewer)["pending"]
        assert {"type": "shield", "card": SHIELD[0]} in pending["options"]
    assert KORONA.view(state, CY)["awaiting_seat"] == BO


# ---------------------------------------------------------------- a referee settling a stalled decision (K17)

def match_at(state):
    """A match aggregate whose game state is the given table (the referee's commands act on a real aggregate)."""
    from domain.match import Match

    match = Match.create(__import__("uuid").UUID(int=7), "korona", PLAYERS[:len(state["players"])],
                         ["a", "b", "c"][:len(state["players"])], {"referee": "", "seats": []}, b"\0" * 32)
    match.state = state
    return match


def test_the_referee_gives_for_a_stalled_donation_target_without_showing_third_seats_the_card():
    """K17: the referee settles a stalled decision with the move it picks, recorded as RefereeResolved before the
    move's events; the move names a card from Bo's hand, so only Bo (and the referee) see it in that record."""
    state = table([[DONATION[0]], [KNIGHT[0], ARCHER[0]], []], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    let_it_through(state, BO)
    match = match_at(state)
    match.resolve(BO, {"type": "give", "card": ARCHER[0]})
    recorded = [(type(e).__name__, e.payload) for e in match.pending_events[1:]]
    assert [t for t, _ in recorded][:2] == ["RefereeResolved", "CardGiven"]
    resolved = recorded[0][1]
    assert resolved == {"seat": BO, "move": {"type": "give", "card": ARCHER[0]}, "default": False}
    assert hand(match.state, ANA) == [ARCHER[0]]
    assert match.redact("RefereeResolved", resolved, CY) == {"seat": BO, "move": {"type": "give"}, "default": False}
    assert match.redact("RefereeResolved", resolved, None)["move"] == {"type": "give"}
    for viewer in (BO, "referee"):
        assert match.redact("RefereeResolved", resolved, viewer) == resolved


def test_the_referees_default_passes_a_shield_window_or_takes_the_first_option():
    """K17: with "type": "default" the rule's default applies: pass when passing is an option, else the first
    listed option; a seat with no pending decision cannot be resolved for."""
    state = table([[DONATION[0]], [KNIGHT[0], ARCHER[0], SHIELD[0]], []], [[], [], []])
    play(state, ANA, {"type": "play", "card": DONATION[0], "target": BO, "zone": "hand"})
    match = match_at(state)
    assert {"type": "pass"} in options(match.state, BO)

    def resolved_by_default(seat):
        before = len(match.pending_events)
        match.resolve(seat, {"type": "default"})
        recorded = match.pending_events[before:]
        return type(recorded[0]).__name__, recorded[0].payload, [type(e).__name__ for e in recorded[1:]]

    assert resolved_by_default(BO) == ("RefereeResolved", {"seat": BO, "move": {"type": "pass"}, "default": True},
                                       ["ResponsePassed", "ActionTookEffect"])
    first = options(match.state, BO)[0]
    assert {"type": "pass"} not in options(match.state, BO)
    _type, payload, _events = resolved_by_default(BO)
    assert payload["move"] == first and hand(match.state, ANA) == [first["card"]]
    with pytest.raises(IllegalMove, match="no decision of seat 2"):
        match.resolve(CY, {"type": "default"})
