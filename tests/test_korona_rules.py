"""Korona rules, one test per rulebook sentence (the Korona rulebook, English edition, and its Spanish original)
or per ruling in docs/RULINGS.md.

Most tests build a state directly from new_state() so that the situation the sentence describes is
explicit; the setup tests play the real shuffle from the seeded herald-fair-v1 generator.
"""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from domain import fair
from domain.errors import IllegalMove
from domain.korona import GAME as KORONA
from domain.korona import scoring, stacking
from domain.korona.cards import DECK_SIZE, NAMES
from domain.korona.state import new_state
from tests.helpers.korona import play_events
from tests.helpers.korona_cards import Cards
from tests.helpers.pure_rules import types

SEED = bytes(range(32))
PLAYERS = ["Ana", "Bo", "Cy", "Di"]


# ---------------------------------------------------------------- helpers

def rules_rng(match_id: str = "rules-test", seats: int = 2) -> fair.Generator:
    return fair.Generator(SEED, match_id, [f"c{i}" for i in range(seats)])


def arrange(hands, areas=None, *, pile=(), market=(), phase="actions", current=0, actions=0, roles=None,
          empty_start=False, turn=1):
    """A state as new_state() makes it, with the given hands, areas, pile, market and turn fields."""
    state = new_state({"players": PLAYERS[:len(hands)]})
    areas = areas or [[] for _ in hands]
    for player, hand, area in zip(state["players"], hands, areas):
        player["hand"] = list(hand)
        player["area"] = [list(s) for s in area]
    state.update(pile=list(pile), market=list(market), phase=phase, current=current, actions=actions, turn=turn,
                 roles={str(k): v for k, v in (roles or {}).items()}, empty_start=empty_start,
                 market_draws=2 if empty_start else 1)
    return state


def play_move(state, seat, move):
    """Decide a move with this module's generator and apply its events in place; return the events."""
    return play_events(state, seat, move, rules_rng())


def rich_copy(c, area):
    """Another area of the same shape, with fresh cards of the same names."""
    return [[c(NAMES[x]) for x in stack] for stack in area]


def started(shuffle_seed=SEED, match_id="setup", players=2):
    state = new_state({"players": PLAYERS[:players]})
    gen = fair.Generator(shuffle_seed, match_id, [f"c{i}" for i in range(players)])
    events = KORONA.start(state, gen)
    for type_, payload in events:
        KORONA.evolve(state, type_, payload)
    return state, events


def same(moves_a, moves_b):
    def key(move):
        return sorted(move.items())
    return sorted(map(key, moves_a)) == sorted(map(key, moves_b))


# ---------------------------------------------------------------- setup

def test_deck_has_90_cards_with_rulebook_counts():
    """"54 Build cards 36 Action cards" with Ruler (x4), Stable (x4), Knight (x5), Tower (x6), Archer (x10),
    Field (x6), Farmer (x12), Healer (x2), Joker (x3), Thief (x2); Donation (x4), Internal Move (x8),
    Extra Draw (x10), Tactical Swap (x4), Sneak Attack (x3), Glorious Attack (x2), Revolt (x1), Shield (x4)."""
    counts = Counter(NAMES)
    assert DECK_SIZE == 90
    assert dict(counts) == {
        "ruler": 4, "stable": 4, "knight": 5, "tower": 6, "archer": 10, "field": 6, "farmer": 12,
        "healer": 2, "joker": 3, "thief": 2,
        "donation": 4, "internal_move": 8, "extra_draw": 10, "tactical_swap": 4, "sneak_attack": 3,
        "glorious_attack": 2, "revolt": 1, "shield": 4,
    }
    build = ("ruler", "stable", "knight", "tower", "archer", "field", "farmer", "healer", "joker", "thief")
    assert sum(counts[n] for n in build) == 54
    assert sum(v for n, v in counts.items() if n not in build) == 36


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_five_cards_to_each_player(players):
    """"Starting hand: Deal 5 cards to each player." """
    state, events = started(players=players)
    assert [len(p["hand"]) for p in state["players"]] == [5] * players
    assert [p["area"] for p in state["players"]] == [[]] * players
    assert types(events).count("CardsDealt") == players


def test_starting_hands_remain_secret():
    """"Hands remain secret." (another seat and a spectator see how many cards were dealt, not which)"""
    state, events = started()
    dealt = [p for t, p in events if t == "CardsDealt"]
    for payload in dealt:
        other = 1 - payload["seat"]
        hidden = KORONA.redact("CardsDealt", payload, other)
        assert "cards" not in hidden and hidden["count"] == 5
        assert "cards" not in KORONA.redact("CardsDealt", payload, None)
        assert KORONA.redact("CardsDealt", payload, payload["seat"])["cards"] == payload["cards"]
    seen = KORONA.view(state, 0)
    assert "hand" in seen["players"][0] and "hand" not in seen["players"][1]
    assert seen["players"][1]["hand_count"] == 5


def test_setup_remaining_cards_form_the_draw_pile():
    """"Draw Pile: Place the remaining cards face-down in the center as the main Draw Pile." """
    state, events = started(players=3)
    shuffled = events[0][1]["random"][0]["result"]
    assert sorted(shuffled) == list(range(90))
    assert len(state["pile"]) == 90 - 3 * 5 - 3
    everything = state["pile"] + state["market"] + [c for p in state["players"] for c in p["hand"]]
    assert sorted(everything) == list(range(90))
    assert state["pile"] == shuffled[18:]


def test_setup_market_is_top_three_cards_of_the_pile():
    """"Draw Market: Reveal the top 3 cards of the draw pile and place them face-up next to it." """
    state, events = started(players=2)
    shuffled = events[0][1]["random"][0]["result"]
    assert state["market"] == shuffled[10:13]
    revealed = [p for t, p in events if t == "MarketRevealed"]
    assert [c["id"] for c in revealed[0]["cards"]] == shuffled[10:13]
    assert KORONA.view(state, None)["market"] == [{"id": c, "name": NAMES[c]} for c in shuffled[10:13]]


def test_setup_discard_pile_starts_empty():
    """"Discard Pile: Leave a clear spot in the middle of the table to serve as the shared face-up Discard Pile." """
    state, _ = started()
    assert state["discard"] == []


def test_first_seat_is_chosen_by_the_seeded_generator():
    """"Turn order: Choose randomly who starts" - the choice is the generator's draw after the shuffle."""
    for players in (2, 3, 4):
        seen = set()
        for n in range(40):
            match_id = f"first-seat-{players}-{n}"
            state, events = started(match_id=match_id, players=players)
            replay = fair.Generator(SEED, match_id, [f"c{i}" for i in range(players)])
            replay.shuffle(list(range(90)))
            expected = replay.choice(players)
            chosen = next(p for t, p in events if t == "FirstSeatChosen")
            assert chosen["seat"] == expected["result"] == state["current"]
            assert chosen["random"] == [expected]
            assert fair.recompute(SEED, match_id, [f"c{i}" for i in range(players)], chosen["random"][0]) \
                == chosen["seat"]
            seen.add(state["current"])
        assert seen == set(range(players)), "over 40 seeds every seat should start at least once"


def test_first_turn_starts_with_the_draw_step():
    """"Always start your turn by drawing." """
    state, _ = started()
    seat = state["current"]
    assert state["phase"] == "draw" and state["turn"] == 1
    card = state["players"][seat]["hand"][0]
    with pytest.raises(IllegalMove, match="draw first"):
        KORONA.decide(state, seat, {"type": "discard", "card": card}, rules_rng())
    with pytest.raises(IllegalMove, match="draw first"):
        KORONA.decide(state, seat, {"type": "end_turn"}, rules_rng())
    assert all(m["type"] == "draw" for m in KORONA.legal_moves(state, seat))
    assert KORONA.legal_moves(state, 1 - seat) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_proceed_clockwise(players):
    """"turns proceed clockwise." (seat s is followed by seat s+1, the last seat by seat 0)"""
    c = Cards()
    for seat in range(players):
        hands = [c.filler(1) if s == seat else [] for s in range(players)]
        hands[(seat + 1) % players] = c.filler(1)
        state = arrange(hands, pile=c.filler(3), market=c.filler(3), current=seat, actions=1)
        events = play_move(state, seat, {"type": "end_turn"})
        assert types(events) == ["TurnEnded", "TurnStarted"]
        assert events[1][1]["seat"] == (seat + 1) % players
        assert events[1][1]["turn"] == 2
        assert state["current"] == (seat + 1) % players and state["phase"] == "draw"


def test_decide_does_not_mutate_the_state():
    """Internal API: decide never mutates its input (the events are applied by evolve)."""
    c = Cards()
    state = arrange([c.filler(5), []], pile=c.filler(5), market=c.filler(3), phase="draw")
    before = copy.deepcopy(state)
    KORONA.decide(state, 0, {"type": "draw", "source": "pile"}, rules_rng())
    assert state == before


# ---------------------------------------------------------------- 1. draw

def test_draw_two_blind_cards_from_the_pile():
    """"2 blind cards from the face-down Draw Pile" """
    c = Cards()
    hand, pile, market = c.filler(5), c.filler(6), c.filler(3)
    state = arrange([hand, []], pile=pile, market=market, phase="draw")
    events = play_move(state, 0, {"type": "draw", "source": "pile"})
    assert types(events) == ["CardsDrawn"]
    assert state["players"][0]["hand"] == hand + pile[:2]
    assert state["pile"] == pile[2:] and state["market"] == market
    assert state["phase"] == "actions"
    assert KORONA.redact(*events[0], 1).get("cards") is None, "a pile draw is blind to the other seats"


def test_draw_one_card_from_the_market_then_refill():
    """"1 face-up card from the Draw Market (refill the Market afterward)." """
    c = Cards()
    hand, pile, market = c.filler(5), c.filler(6), c.filler(3)
    state = arrange([hand, []], pile=pile, market=market, phase="draw")
    events = play_move(state, 0, {"type": "draw", "source": "market", "card": market[1]})
    assert types(events) == ["CardsDrawn", "MarketRefilled"]
    assert state["players"][0]["hand"] == hand + [market[1]]
    assert sorted(state["market"]) == sorted([market[0], market[2], pile[0]])
    assert state["pile"] == pile[1:]
    assert state["phase"] == "actions"


def test_draw_choice_is_the_pile_or_any_market_card():
    """"You may choose either: 2 blind cards from the face-down Draw Pile, or 1 face-up card from the Draw Market" """
    c = Cards()
    market = c.filler(3)
    state = arrange([c.filler(5), []], pile=c.filler(6), market=market, phase="draw")
    expected = [{"type": "draw", "source": "pile"}] + [{"type": "draw", "source": "market", "card": m}
                                                       for m in market]
    assert same(KORONA.legal_moves(state, 0), expected)
    outside = c.filler(1)[0]
    with pytest.raises(IllegalMove):
        KORONA.decide(state, 0, {"type": "draw", "source": "market", "card": outside}, rules_rng())


def test_only_one_draw_per_turn():
    """"Each player's turn consists of 3 steps": one Draw, then the actions; a second draw is refused."""
    c = Cards()
    state = arrange([c.filler(5), []], pile=c.filler(6), market=c.filler(3), phase="draw")
    play_move(state, 0, {"type": "draw", "source": "pile"})
    assert not any(m["type"] == "draw" for m in KORONA.legal_moves(state, 0))
    with pytest.raises(IllegalMove, match="already drawn"):
        KORONA.decide(state, 0, {"type": "draw", "source": "pile"}, rules_rng())


def _empty_hand_turn(c, pile_size=8):
    """Seat 0 ends its turn; seat 1 starts its turn with an empty hand."""
    pile, market = c.filler(pile_size), c.filler(3)
    state = arrange([c.filler(2), []], pile=pile, market=market, current=0, actions=1)
    events = play_move(state, 0, {"type": "end_turn"})
    assert events[-1] == ("TurnStarted", {"seat": 1, "turn": 2, "empty_hand": True})
    return state, pile, market


def test_empty_hand_draws_five_from_the_pile():
    """"If you start your turn with an empty hand (0 cards), draw 5 cards from the Draw Pile instead of 2" """
    c = Cards()
    state, pile, _ = _empty_hand_turn(c)
    assert {"type": "draw", "source": "pile"} in KORONA.legal_moves(state, 1)
    play_move(state, 1, {"type": "draw", "source": "pile"})
    assert state["players"][1]["hand"] == pile[:5]
    assert state["pile"] == pile[5:]
    assert state["phase"] == "actions"


def test_empty_hand_draws_two_from_the_market_one_refill_then_the_second():
    """"or draw 2 cards from the Market (one, refill, then the second)." """
    c = Cards()
    state, pile, market = _empty_hand_turn(c)
    events = play_move(state, 1, {"type": "draw", "source": "market", "card": market[0]})
    assert types(events) == ["CardsDrawn", "MarketRefilled"]
    assert state["phase"] == "draw", "the second market card is still to come"
    assert pile[0] in state["market"], "the market was refilled before the second card"
    second = KORONA.legal_moves(state, 1)
    assert same(second, [{"type": "draw", "source": "market", "card": m} for m in state["market"]])
    play_move(state, 1, {"type": "draw", "source": "market", "card": pile[0]})
    assert state["players"][1]["hand"] == [market[0], pile[0]]
    assert state["phase"] == "actions"
    assert len(state["market"]) == 3 and state["pile"] == pile[2:]


def test_empty_hand_second_market_draw_cannot_switch_to_the_pile():
    """"draw 5 cards from the Draw Pile instead of 2, or draw 2 cards from the Market": one or the other."""
    c = Cards()
    state, _, market = _empty_hand_turn(c)
    play_move(state, 1, {"type": "draw", "source": "market", "card": market[0]})
    with pytest.raises(IllegalMove):
        KORONA.decide(state, 1, {"type": "draw", "source": "pile"}, rules_rng())


def test_normal_hand_draws_only_one_market_card():
    """"1 face-up card from the Draw Market" - without an empty hand the draw step ends after one card."""
    c = Cards()
    market = c.filler(3)
    state = arrange([c.filler(1), []], pile=c.filler(6), market=market, phase="draw")
    play_move(state, 0, {"type": "draw", "source": "market", "card": market[0]})
    assert state["phase"] == "actions"
    assert len(state["players"][0]["hand"]) == 2


def test_short_pile_gives_what_it_has():
    """Ruling K5: a short pile gives what it has (2 asked, 1 left; 5 asked on an empty hand, 3 left)."""
    c = Cards()
    pile, market = c.filler(1), c.filler(3)
    state = arrange([c.filler(5), []], pile=pile, market=market, phase="draw")
    play_move(state, 0, {"type": "draw", "source": "pile"})
    assert state["players"][0]["hand"][-1] == pile[0] and len(state["players"][0]["hand"]) == 6
    assert state["pile"] == [] and state["market"] == market

    c = Cards()
    state, pile, _ = _empty_hand_turn(c, pile_size=3)
    play_move(state, 1, {"type": "draw", "source": "pile"})
    assert state["players"][1]["hand"] == pile and state["pile"] == []


def test_empty_pile_cannot_be_chosen():
    """Ruling K5: "an empty pile cannot be chosen" - only the market remains."""
    c = Cards()
    market = c.filler(3)
    state = arrange([c.filler(5), []], pile=[], market=market, phase="draw")
    assert same(KORONA.legal_moves(state, 0), [{"type": "draw", "source": "market", "card": m} for m in market])
    with pytest.raises(IllegalMove):
        KORONA.decide(state, 0, {"type": "draw", "source": "pile"}, rules_rng())


def test_market_not_refilled_from_empty_pile():
    """Ruling K6: "With an empty pile the market is not refilled and shrinks by one card per draw." """
    c = Cards()
    market = c.filler(3)
    state = arrange([c.filler(5), []], pile=[], market=market, phase="draw")
    events = play_move(state, 0, {"type": "draw", "source": "market", "card": market[1]})
    assert types(events) == ["CardsDrawn"]
    assert state["market"] == [market[0], market[2]]
    assert state["status"] == "active" and state["phase"] == "actions"


def test_empty_hand_market_draw_stops_when_the_market_runs_out():
    """Ruling K6: "An empty-hand player drawing twice from the market stops after the first card if the market
    is then empty." """
    c = Cards()
    last = c.filler(1)
    state = arrange([c.filler(1), []], pile=[], market=last, current=0, actions=1)
    play_move(state, 0, {"type": "end_turn"})
    assert state["current"] == 1 and state["empty_start"]
    play_move(state, 1, {"type": "draw", "source": "market", "card": last[0]})
    assert state["phase"] == "actions"
    assert state["players"][1]["hand"] == last and state["market"] == []


# ---------------------------------------------------------------- 2. actions

def test_must_take_at_least_one_action():
    """"You must always take at least 1 action." """
    c = Cards()
    state = arrange([c.filler(3), []], pile=c.filler(5), market=c.filler(3), actions=0)
    assert {"type": "end_turn"} not in KORONA.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="at least one action"):
        KORONA.decide(state, 0, {"type": "end_turn"}, rules_rng())


@pytest.mark.parametrize("taken", [1, 2])
def test_may_end_the_turn_after_one_or_two_actions(taken):
    """"On your turn, you may take 1, 2, or 3 actions, in any order." """
    c = Cards()
    hand = c.filler(4)
    state = arrange([hand, c.filler(1)], pile=c.filler(5), market=c.filler(3))
    for card in hand[:taken]:
        play_move(state, 0, {"type": "discard", "card": card})
    assert state["actions"] == taken and state["current"] == 0
    events = play_move(state, 0, {"type": "end_turn"})
    assert types(events) == ["TurnEnded", "TurnStarted"] and state["current"] == 1


def test_turn_ends_automatically_after_the_third_action():
    """Ruling K9: "After a seat's third action its turn ends by itself when it holds 7 or fewer cards." """
    c = Cards()
    hand = c.filler(5)
    state = arrange([hand, c.filler(1)], pile=c.filler(5), market=c.filler(3))
    play_move(state, 0, {"type": "discard", "card": hand[0]})
    play_move(state, 0, {"type": "discard", "card": hand[1]})
    events = play_move(state, 0, {"type": "discard", "card": hand[2]})
    assert types(events) == ["CardDiscarded", "TurnEnded", "TurnStarted"]
    assert state["current"] == 1 and state["phase"] == "draw" and state["actions"] == 0
    assert KORONA.legal_moves(state, 0) == []


def test_same_action_may_be_repeated():
    """"You can repeat the same type of action multiple times (e.g., place 3 Build cards in a single turn without
    playing an Action card or discarding)." """
    c = Cards()
    field, farmer, tower = c("field"), c("farmer"), c("tower")
    state = arrange([[field, farmer, tower] + c.filler(2), c.filler(1)], pile=c.filler(5), market=c.filler(3))
    play_move(state, 0, {"type": "place", "card": field})
    play_move(state, 0, {"type": "place", "card": farmer, "stack": 0})
    events = play_move(state, 0, {"type": "place", "card": tower})
    assert types(events)[0] == "CardPlaced" and "TurnEnded" in types(events)
    assert state["players"][0]["area"] == [[field, farmer], [tower]]
    assert state["discard"] == []


def test_place_a_build_card_from_hand_into_the_play_area():
    """"Place a Build card from your hand into your play area." """
    c = Cards()
    tower = c("tower")
    state = arrange([[tower] + c.filler(2), []], pile=c.filler(5), market=c.filler(3))
    events = play_move(state, 0, {"type": "place", "card": tower})
    assert events[0] == ("CardPlaced", {"seat": 0, "card": {"id": tower, "name": "tower"}, "stack": None,
                                        "role": None})
    assert tower not in state["players"][0]["hand"]
    assert state["players"][0]["area"] == [[tower]]
    assert state["actions"] == 1


def test_action_card_cannot_be_placed():
    """"Place a Build card" - an Action card is not a Build card and never enters the play area."""
    c = Cards()
    extra = c("extra_draw")
    state = arrange([[extra] + c.filler(2), []], pile=c.filler(5), market=c.filler(3))
    with pytest.raises(IllegalMove, match="Action card"):
        KORONA.decide(state, 0, {"type": "place", "card": extra}, rules_rng())


def test_build_card_cannot_be_played():
    """"Play an Action card from your hand" - a Build card cannot be played as an action."""
    c = Cards()
    tower = c("tower")
    state = arrange([[tower] + c.filler(2), []], pile=c.filler(5), market=c.filler(3))
    with pytest.raises(IllegalMove, match="Build card"):
        KORONA.decide(state, 0, {"type": "play", "card": tower, "draw": "pile"}, rules_rng())


def test_play_an_action_card_puts_it_in_the_discard_pile():
    """"Play an Action card from your hand (put it in the Discard Pile)." """
    c = Cards()
    extra = c("extra_draw")
    state = arrange([[extra] + c.filler(2), []], pile=c.filler(5), market=c.filler(3))
    events = play_move(state, 0, {"type": "play", "card": extra, "draw": "pile"})
    assert types(events)[0] == "ActionCardPlayed"
    assert state["discard"] == [extra] and extra not in state["players"][0]["hand"]
    assert state["actions"] == 1


def test_discard_a_card_from_hand_counts_as_an_action():
    """"Discard a card from your hand (into the Discard Pile)." """
    c = Cards()
    ruler = c("ruler")
    state = arrange([[ruler] + c.filler(2), []], pile=c.filler(5), market=c.filler(3))
    events = play_move(state, 0, {"type": "discard", "card": ruler})
    assert events[0][0] == "CardDiscarded" and events[0][1]["reason"] == "action"
    assert state["discard"] == [ruler] and ruler not in state["players"][0]["hand"]
    assert state["actions"] == 1
    assert {"type": "discard", "card": ruler} not in KORONA.legal_moves(state, 0)


def test_card_not_in_hand_cannot_be_used():
    """"from your hand" - a card the seat does not hold cannot be placed, played or discarded."""
    c = Cards()
    tower = c("tower")
    state = arrange([c.filler(2), [tower]], pile=c.filler(5), market=c.filler(3))
    with pytest.raises(IllegalMove, match="not in your hand"):
        KORONA.decide(state, 0, {"type": "place", "card": tower}, rules_rng())
    with pytest.raises(IllegalMove, match="turn"):
        KORONA.decide(state, 1, {"type": "place", "card": tower}, rules_rng())


def _action_card_table(name):
    """Seat 0 holds the card; both areas and seat 1's hand offer every kind of target (6 Farmers for Revolt)."""
    c = Cards()
    card = c(name)
    rich = [[c("ruler"), c("ruler")], [c("stable"), c("knight"), c("knight")], [c("tower"), c("archer")],
            [c("field")] + c("farmer", 3), [c("farmer")], [c("farmer")], [c("farmer")], [c("thief")]]
    state = arrange([[card, c("tower")], [c("archer"), c("knight")]], [rich, rich_copy(c, rich)],
                  pile=c.filler(5), market=c.filler(3))
    return state, card


@pytest.mark.parametrize("name", ["donation", "tactical_swap", "sneak_attack", "glorious_attack", "revolt"])
def test_interactive_action_cards_may_be_played_or_discarded(name):
    """"Available actions are: [...] Play an Action card from your hand (put it in the Discard Pile). [...] Discard a
    card from your hand": with targets available each interactive card may be played or discarded."""
    state, card = _action_card_table(name)
    assert scoring.farmers(state["players"][0]["area"], {}) == 6
    mine = [m for m in KORONA.legal_moves(state, 0) if m.get("card") == card]
    assert {"type": "discard", "card": card} in mine
    assert any(m["type"] == "play" for m in mine)
    play_move(state, 0, {"type": "discard", "card": card})
    assert state["discard"] == [card] and state["actions"] == 1


def test_shield_is_not_played_as_an_action():
    """"Shield: Play this card to cancel an opponent's Action card targeting you. It can be used instantly, as a free
    action, in response to ..." - on its owner's own turn, with nothing to answer, it can only be discarded."""
    state, card = _action_card_table("shield")
    mine = [m for m in KORONA.legal_moves(state, 0) if m.get("card") == card]
    assert mine == [{"type": "discard", "card": card}]
    with pytest.raises(IllegalMove):
        KORONA.decide(state, 0, {"type": "play", "card": card}, rules_rng())


# ---------------------------------------------------------------- 3. hand limit

def test_cannot_end_the_turn_with_more_than_seven_cards():
    """"At the end of your turn, you cannot have more than 7 cards in hand." """
    c = Cards()
    hand = c.filler(9)
    state = arrange([hand, []], pile=c.filler(5), market=c.filler(3))
    play_move(state, 0, {"type": "discard", "card": hand[0]})
    assert len(state["players"][0]["hand"]) == 8
    assert {"type": "end_turn"} not in KORONA.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="at most 7"):
        KORONA.decide(state, 0, {"type": "end_turn"}, rules_rng())
    play_move(state, 0, {"type": "discard", "card": hand[1]})
    assert {"type": "end_turn"} in KORONA.legal_moves(state, 0)


def test_hand_may_exceed_seven_during_the_turn():
    """"Players may temporarily exceed 7 cards during their turn (e.g., after drawing cards ...)" """
    c = Cards()
    state = arrange([c.filler(7), []], pile=c.filler(5), market=c.filler(3), phase="draw")
    assert {"type": "draw", "source": "pile"} in KORONA.legal_moves(state, 0)
    play_move(state, 0, {"type": "draw", "source": "pile"})
    assert len(state["players"][0]["hand"]) == 9 and state["phase"] == "actions"
    for card in state["players"][0]["hand"][:2]:
        play_move(state, 0, {"type": "discard", "card": card})
    assert {"type": "end_turn"} in KORONA.legal_moves(state, 0)


def test_extra_draw_refused_when_hand_limit_unreachable():
    """Ruling K3: "Extra Draw is refused when it would overfill the hand" - "must reduce to 7 by the turn's end
    without additional discard actions beyond the normal 1 to 3 actions." """
    c = Cards()
    extra = c("extra_draw")
    market = c.filler(3)
    state = arrange([[extra] + c.filler(8), []], pile=c.filler(5), market=market)  # 9 cards, 3 actions left
    offered = [m for m in KORONA.legal_moves(state, 0) if m["type"] == "play"]
    # from the pile: 8 + 2 = 10 cards with 2 actions left -> 8 at best; from the market: 9 -> 7.
    assert same(offered, [{"type": "play", "card": extra, "draw": "market", "take": m} for m in market])
    with pytest.raises(IllegalMove, match="7 cards"):
        KORONA.decide(state, 0, {"type": "play", "card": extra, "draw": "pile"}, rules_rng())
    # with one card fewer both are fine
    state["players"][0]["hand"].pop()
    assert {"type": "play", "card": extra, "draw": "pile"} in KORONA.legal_moves(state, 0)


def test_draw_step_offers_the_draws_with_least_excess():
    """Ruling K3: "at the draw step only the draws that leave the smallest unavoidable excess are offered." """
    c = Cards()
    market = c.filler(3)
    # 10 cards (received outside the turn): pile -> 12, 2 over after 3 actions; market -> 11, 1 over.
    state = arrange([c.filler(10), []], pile=c.filler(5), market=market, phase="draw")
    assert same(KORONA.legal_moves(state, 0), [{"type": "draw", "source": "market", "card": m} for m in market])
    # 9 cards: market -> 10, reachable; pile -> 11, not.
    state = arrange([c.filler(9), []], pile=c.filler(5), market=market, phase="draw")
    assert same(KORONA.legal_moves(state, 0), [{"type": "draw", "source": "market", "card": m} for m in market])


def test_unavoidable_excess_is_discarded():
    """Ruling K3: "the seat takes its actions and then discards down to 7 (HandLimitExceeded, then CardDiscarded
    with reason hand_limit); those discards are not actions." """
    c = Cards()
    hand = c.filler(10)
    market = c.filler(3)
    state = arrange([hand, c.filler(1)], pile=c.filler(5), market=market, phase="draw")
    play_move(state, 0, {"type": "draw", "source": "market", "card": market[0]})  # 11 cards
    play_move(state, 0, {"type": "discard", "card": hand[0]})
    play_move(state, 0, {"type": "discard", "card": hand[1]})
    events = play_move(state, 0, {"type": "discard", "card": hand[2]})  # 8 cards, actions spent
    assert types(events) == ["CardDiscarded", "HandLimitExceeded"]
    assert events[1][1] == {"seat": 0, "excess": 1}
    assert state["phase"] == "excess" and state["current"] == 0
    moves = KORONA.legal_moves(state, 0)
    assert same(moves, [{"type": "discard", "card": h} for h in state["players"][0]["hand"]])
    events = KORONA.decide(state, 0, {"type": "discard", "card": hand[3]}, rules_rng())
    assert events[0][1]["reason"] == "hand_limit"
    probe = copy.deepcopy(state)
    KORONA.evolve(probe, *events[0])
    assert probe["actions"] == 3, "the excess discard is not an action"
    for event in events:
        KORONA.evolve(state, *event)
    assert types(events)[1:] == ["TurnEnded", "TurnStarted"]
    assert len(state["players"][0]["hand"]) == 7 and state["current"] == 1


# ---------------------------------------------------------------- stacking: Rulers and Healers

def test_second_ruler_must_stack():
    """"Must stack second Ruler on first, 20 pts total." (ruling K2: a lone Ruler takes the next Ruler)"""
    c = Cards()
    r1, r2 = c("ruler", 2)
    area = [[c("tower")], [r1]]
    assert stacking.placements([], r1, {}) == [(None, None)]
    assert stacking.placements(area, r2, {}) == [(1, None)]
    state = arrange([[r2] + c.filler(2), []], [area, []], pile=c.filler(5), market=c.filler(3))
    with pytest.raises(IllegalMove, match="stacking rules"):
        KORONA.decide(state, 0, {"type": "place", "card": r2}, rules_rng())
    play_move(state, 0, {"type": "place", "card": r2, "stack": 1})
    assert state["players"][0]["area"][1] == [r1, r2]


def test_third_ruler_only_standalone():
    """"Only one ruler pair per player is allowed (either 2 true Rulers, or 1 Ruler + Joker)." (ruling K2)"""
    c = Cards()
    r1, r2, r3, r4 = c("ruler", 4)
    joker = c("joker")
    area = [[r1, r2]]
    assert stacking.placements(area, r3, {}) == [(None, None)]
    area = [[r1, r2], [r3]]
    assert stacking.placements(area, r4, {}) == [(None, None)], "no second pair on the lone third Ruler"
    assert all(role != "ruler" for _, role in stacking.placements(area, joker, {}))
    # a Ruler + Joker pair is the pair too
    area = [[r1, joker], [c("field")]]
    assert stacking.placements(area, r3, {str(joker): "ruler"}) == [(None, None)]


def test_a_healer_cannot_start_a_second_healer_stack():
    """Healer: "Second Healer must be stack on the first → +3 pts." (ruling K2): when the first Healer's stack is
    already full (a Joker as Healer, or a Thief, on it) a Healer has nowhere to go, so one play area never holds
    two Healer stacks each scoring its colours."""
    c = Cards()
    h1, h2 = c("healer", 2)
    joker, thief = c("joker"), c("thief")
    assert stacking.placements([[h1]], h2, {}) == [(0, None)]
    assert stacking.placements([], h1, {}) == [(None, None)]
    for full in ([h1, joker], [h1, thief]):
        assert stacking.placements([full, [c("field")]], h2, {str(joker): "healer"}) == []
    state = arrange([[h2] + c.filler(2), []], [[[h1, joker]], []], pile=c.filler(5), market=c.filler(3),
                  roles={joker: "healer"})
    moves = KORONA.legal_moves(state, 0)
    assert not [m for m in moves if m.get("card") == h2 and m["type"] == "place"]
    assert {"type": "discard", "card": h2} in moves


def test_ruler_pair_may_be_a_ruler_and_a_joker():
    """"(either 2 true Rulers, or 1 Ruler + Joker)" """
    c = Cards()
    ruler, joker = c("ruler"), c("joker")
    state = arrange([[joker] + c.filler(2), []], [[[ruler]], []], pile=c.filler(5), market=c.filler(3))
    assert {"type": "place", "card": joker, "stack": 0, "role": "ruler"} in KORONA.legal_moves(state, 0)
    play_move(state, 0, {"type": "place", "card": joker, "stack": 0, "role": "ruler"})
    assert state["players"][0]["area"] == [[ruler, joker]]
    assert state["roles"][str(joker)] == "ruler"
    assert stacking.has_ruler_pair(state["players"][0]["area"], state["roles"])


def test_ruler_pair_holds_at_most_two():
    """"Ruler pair: 2 Rulers" - nothing is stacked on a complete pair."""
    c = Cards()
    r1, r2 = c("ruler", 2)
    area = [[r1, r2]]
    assert stacking.is_full(area[0])
    for name in ("thief", "joker", "farmer", "knight", "archer"):
        assert all(stack is None for stack, _ in stacking.placements(area, c(name), {})), name


def test_second_healer_must_stack_on_the_first():
    """"Second Healer must be stack on the first → +3 pts." """
    c = Cards()
    h1, h2 = c("healer", 2)
    assert stacking.placements([[c("tower")]], h1, {}) == [(None, None)]
    assert stacking.placements([[c("tower")], [h1]], h2, {}) == [(1, None)]


def test_healer_pair_holds_at_most_two():
    """"Healer pair: 2 Healers" """
    c = Cards()
    h1, h2 = c("healer", 2)
    area = [[h1, h2]]
    assert stacking.is_full(area[0])
    for name in ("thief", "joker"):
        assert stacking.placements(area, c(name), {}) in ([(None, None)], [])


# ---------------------------------------------------------------- stacking: bases and their sets

@pytest.mark.parametrize("name", ["stable", "tower", "field"])
def test_base_cards_cannot_be_stacked(name):
    """"Stable ... Cannot be stacked." "Tower ... Cannot be stacked." "Field ... Cannot be stacked." """
    c = Cards()
    area = [[c("stable")], [c("tower")], [c("field")], [c("ruler")], [c("healer")], [c("knight")]]
    assert stacking.placements(area, c(name), {}) == [(None, None)]


def test_base_card_cannot_go_under_an_existing_card():
    """"A base card cannot be added under an existing card or stack." (neither placed nor moved under one)"""
    c = Cards()
    knight, stable = c("knight"), c("stable")
    area = [[knight], [stable]]
    moves = stacking.moves_within(area, {})
    assert all(moved != stable for moved, *_ in moves), "the Stable cannot go under the Knight"
    assert (knight, 0, 1, None) in moves, "the Knight may go on top of the Stable"
    new_stable = c("stable")
    assert stacking.placements(area, new_stable, {}) == [(None, None)]
    area = [[c("tower"), c("archer")], [c("tower")]]
    assert all(moved != area[1][0] for moved, *_ in stacking.moves_within(area, {}))


def test_sets_start_with_a_base_card():
    """"Sets must always start with a base card (Field, Tower, Stable), building upward by stacking the matching
    roles." - nothing stacks on a standalone Knight, Archer, Farmer or Thief."""
    c = Cards()
    area = [[c("knight")], [c("archer")], [c("farmer")], [c("thief")]]
    for name in ("knight", "archer", "farmer", "thief"):
        assert stacking.placements(area, c(name), {}) == [(None, None)], name
    assert stacking.placements(area, c("joker"), {}) == []


@pytest.mark.parametrize("base, role, most", [("stable", "knight", 2), ("tower", "archer", 3), ("field", "farmer", 3)])
def test_stack_grows_only_up_to_its_maximum_size(base, role, most):
    """"Up to 2 Knights can be stacked on each Stable." "Up to 3 Archers can be stacked on each Tower." "Up to 3
    Farmers can be stacked on each Field." ("A stack may grow only up to its maximum size")"""
    c = Cards()
    stack = [c(base)]
    for _ in range(most):
        card = c(role)
        assert (0, None) in stacking.placements([stack], card, {})
        stack.append(card)
    assert stacking.is_full(stack) and len(stack) == most + 1
    extra = c(role)
    assert stacking.placements([stack], extra, {}) == [(None, None)], "a full set takes no more; it stands alone"


def test_stacking_rules_match_each_role_to_its_base():
    """"following each card's stacking rules (Farmers on Fields, Archers on Towers, Knights on Stables)." """
    c = Cards()
    area = [[c("stable")], [c("tower")], [c("field")]]
    assert stacking.placements(area, c("knight"), {}) == [(None, None), (0, None)]
    assert stacking.placements(area, c("archer"), {}) == [(None, None), (1, None)]
    assert stacking.placements(area, c("farmer"), {}) == [(None, None), (2, None)]


@pytest.mark.parametrize("name", ["knight", "archer", "farmer"])
def test_character_may_stand_alone(name):
    """"Knight ● 6 pts stacked on a Stable. 1 pt alone." (likewise Archer and Farmer: "1 pt alone")"""
    c = Cards()
    card = c(name)
    state = arrange([[card] + c.filler(2), []], pile=c.filler(5), market=c.filler(3))
    assert {"type": "place", "card": card} in KORONA.legal_moves(state, 0)
    play_move(state, 0, {"type": "place", "card": card})
    assert state["players"][0]["area"] == [[card]]


# ---------------------------------------------------------------- Jokers

def test_joker_must_stack_as_its_chosen_role():
    """"Joker ○ Acts as Farmer, Archer, Knight, Healer, or Ruler. • Must stack as chosen role" """
    c = Cards()
    joker = c("joker")
    area = [[c("field")], [c("tower"), c("archer")], [c("stable")], [c("ruler")], [c("healer")], [c("knight")]]
    assert sorted(stacking.placements(area, joker, {}), key=str) == sorted(
        [(0, "farmer"), (1, "archer"), (2, "knight"), (3, "ruler"), (4, "healer")], key=str)
    state = arrange([[joker] + c.filler(2), []], [area, []], pile=c.filler(5), market=c.filler(3))
    with pytest.raises(IllegalMove):
        KORONA.decide(state, 0, {"type": "place", "card": joker, "stack": 0, "role": "archer"}, rules_rng())
    with pytest.raises(IllegalMove):
        KORONA.decide(state, 0, {"type": "place", "card": joker, "stack": 1}, rules_rng())
    play_move(state, 0, {"type": "place", "card": joker, "stack": 1, "role": "archer"})
    assert state["players"][0]["area"][1][-1] == joker
    assert state["roles"] == {str(joker): "archer"}
    assert KORONA.view(state, None)["players"][0]["play_area"][1][-1] == {"id": joker, "name": "joker", "role": "archer"}


def test_joker_cannot_stand_alone():
    """"(cannot be placed in your play area as a standalone card)" """
    c = Cards()
    joker = c("joker")
    assert stacking.placements([], joker, {}) == []
    assert stacking.placements([[c("knight")], [c("thief")]], joker, {}) == []
    state = arrange([[joker] + c.filler(2), []], pile=c.filler(5), market=c.filler(3))
    assert [m for m in KORONA.legal_moves(state, 0) if m.get("card") == joker] == [{"type": "discard", "card": joker}]
    for role in (None, "farmer", "ruler"):
        move = {"type": "place", "card": joker, **({"role": role} if role else {})}
        with pytest.raises(IllegalMove):
            KORONA.decide(state, 0, move, rules_rng())


def test_joker_completes_stacks_normally():
    """"Jokers complete stacks normally" - a Joker fills a slot and the set is full."""
    c = Cards()
    joker = c("joker")
    tower = [c("tower"), c("archer"), c("archer")]
    assert (0, "archer") in stacking.placements([tower], joker, {})
    full = tower + [joker]
    assert stacking.is_full(full) and stacking.is_clean_full(full, "tower")
    assert stacking.placements([full], c("archer"), {}) == [(None, None)]


# ---------------------------------------------------------------- Thieves

def test_thief_standalone_or_stacked_except_on_full_stacks():
    """"Thief ● -10 pts each. • Can be placed in your play area as a standalone card or stacked anywhere, except
    full stacks." (ruling K7: on any stack based on a Stable, Tower, Field, Ruler or Healer that is not full)"""
    c = Cards()
    thief = c("thief")
    area = [
        [c("field"), c("farmer"), c("farmer"), c("farmer")],  # 0 full
        [c("tower")],  # 1
        [c("stable"), c("knight")],  # 2
        [c("ruler"), c("ruler")],  # 3 full
        [c("healer")],  # 4
        [c("ruler")],  # 5 (a third Ruler)
        [c("knight")],  # 6 standalone Knight: not a stack
        [c("field")],  # 7
    ]
    assert sorted(stacking.placements(area, thief, {}), key=str) == sorted(
        [(None, None), (1, None), (2, None), (4, None), (5, None), (7, None)], key=str)


def test_thief_takes_a_slot_and_cards_may_stack_above_it():
    """"stacks containing a Thief can still count as full stacks" (ruling K7: a Thief takes a slot, cards may be
    stacked above it)"""
    c = Cards()
    stable, thief, knight = c("stable"), c("thief"), c("knight")
    stack = [stable, thief]
    assert (0, None) in stacking.placements([stack], knight, {})
    stack.append(knight)
    assert stacking.is_full(stack), "Stable + Thief + Knight is a full Knight set"
    assert not stacking.is_clean_full(stack, "stable"), "but not for protection or combos"
    assert stacking.placements([stack], c("knight"), {}) == [(None, None)]


def test_thief_is_placed_in_your_own_play_area_first():
    """"Place it in your play area first." - a Thief in hand is placed like a Build card, in its owner's area."""
    c = Cards()
    thief = c("thief")
    tower = c("tower")
    state = arrange([[thief] + c.filler(2), []], [[[tower]], []], pile=c.filler(5), market=c.filler(3))
    play_move(state, 0, {"type": "place", "card": thief, "stack": 0})
    assert state["players"][0]["area"] == [[tower, thief]]
    assert state["players"][1]["area"] == []


# ---------------------------------------------------------------- Extra Draw

def test_extra_draw_two_from_the_pile():
    """"Extra Draw: Draw 2 more cards from the face-down Draw Pile" """
    c = Cards()
    extra = c("extra_draw")
    hand, pile = [extra] + c.filler(2), c.filler(5)
    state = arrange([hand, []], pile=pile, market=c.filler(3))
    events = play_move(state, 0, {"type": "play", "card": extra, "draw": "pile"})
    assert types(events) == ["ActionCardPlayed", "CardsDrawn"]
    assert state["players"][0]["hand"] == hand[1:] + pile[:2]
    assert state["pile"] == pile[2:] and state["actions"] == 1


def test_extra_draw_one_from_the_market_is_replaced():
    """"or 1 card from the face-up Draw Market. If a face-up card is taken, replace it with the top card of the Draw
    Pile." """
    c = Cards()
    extra = c("extra_draw")
    hand, pile, market = [extra] + c.filler(2), c.filler(5), c.filler(3)
    state = arrange([hand, []], pile=pile, market=market)
    events = play_move(state, 0, {"type": "play", "card": extra, "draw": "market", "take": market[2]})
    assert types(events) == ["ActionCardPlayed", "CardsDrawn", "MarketRefilled"]
    assert state["players"][0]["hand"] == hand[1:] + [market[2]]
    assert sorted(state["market"]) == sorted(market[:2] + pile[:1])
    assert state["pile"] == pile[1:] and state["discard"] == [extra]


def test_extra_draw_from_a_short_pile():
    """Ruling K5: "Extra Draw likewise" - a short pile gives what it has; an empty one cannot be chosen."""
    c = Cards()
    extra = c("extra_draw")
    pile, market = c.filler(1), c.filler(3)
    state = arrange([[extra] + c.filler(2), []], pile=pile, market=market)
    play_move(state, 0, {"type": "play", "card": extra, "draw": "pile"})
    assert state["players"][0]["hand"][-1] == pile[0] and len(state["players"][0]["hand"]) == 3
    extra2 = c("extra_draw")
    state = arrange([[extra2] + c.filler(2), []], pile=[], market=market)
    assert {"type": "play", "card": extra2, "draw": "pile"} not in KORONA.legal_moves(state, 0)
    # ruling K18: with the pile empty, Extra Draw still takes one market card
    take = {"type": "play", "card": extra2, "draw": "market", "take": market[1]}
    assert take in KORONA.legal_moves(state, 0)
    play_move(state, 0, take)
    assert market[1] in state["players"][0]["hand"] and market[1] not in state["market"]


# ---------------------------------------------------------------- Internal Move

def _internal(state, seat, card, moved, source, target=None, role=None):
    move = {"type": "play", "card": card, "moved_card": moved, "from_stack": source}
    if target is not None:
        move["stack"] = target
    if role:
        move["role"] = role
    return play_move(state, seat, move)


def test_internal_move_between_stacks():
    """"Internal Move: Reposition a Build card within your play area: move it between stacks" """
    c = Cards()
    im = c("internal_move")
    t1, a1, t2 = c("tower"), c("archer"), c("tower")
    state = arrange([[im] + c.filler(2), []], [[[t1, a1], [t2]], []], pile=c.filler(5), market=c.filler(3))
    events = _internal(state, 0, im, a1, 0, 1)
    assert types(events) == ["ActionCardPlayed", "CardMoved"]
    assert state["players"][0]["area"] == [[t1], [t2, a1]]
    assert state["discard"] == [im] and state["actions"] == 1


def test_internal_move_between_stacked_and_standalone():
    """"or shift it between stacked and standalone." """
    c = Cards()
    im1, im2 = c("internal_move", 2)
    field, farmer = c("field"), c("farmer")
    state = arrange([[im1, im2] + c.filler(2), []], [[[field, farmer]], []], pile=c.filler(5), market=c.filler(3))
    _internal(state, 0, im1, farmer, 0)
    assert state["players"][0]["area"] == [[field], [farmer]]
    _internal(state, 0, im2, farmer, 1, 0)
    assert state["players"][0]["area"] == [[field, farmer]]


def test_internal_move_from_an_emptied_position_keeps_stack_indexes():
    """"move it between stacks or shift it between stacked and standalone" - a standalone card moved onto a later
    stack lands on that stack, and its old place disappears."""
    c = Cards()
    im = c("internal_move")
    farmer, field, tower = c("farmer"), c("field"), c("tower")
    state = arrange([[im] + c.filler(2), []], [[[farmer], [tower], [field]], []], pile=c.filler(5), market=c.filler(3))
    assert {"type": "play", "card": im, "moved_card": farmer, "from_stack": 0, "stack": 2} in KORONA.legal_moves(state, 0)
    _internal(state, 0, im, farmer, 0, 2)
    assert state["players"][0]["area"] == [[tower], [field, farmer]]


def test_internal_move_only_the_top_card_of_a_stack():
    """"In a stack, only the top card may be moved" """
    c = Cards()
    t1, a1, a2, t2 = c("tower"), c("archer"), c("archer"), c("tower")
    area = [[t1, a1, a2], [t2]]
    moves = stacking.moves_within(area, {})
    assert {m[0] for m in moves} == {a2}
    assert sorted(moves, key=str) == sorted([(a2, 0, 1, None), (a2, 0, None, None)], key=str)
    im = c("internal_move")
    state = arrange([[im] + c.filler(2), []], [area, []], pile=c.filler(5), market=c.filler(3))
    with pytest.raises(IllegalMove, match="Internal Move"):
        _internal(state, 0, im, a1, 0, 1)


def test_internal_move_joker_from_any_position():
    """"except the Joker, who can be moved from any position." (ruling K8: the cards above close the gap, and the
    Joker may take a new role)"""
    c = Cards()
    im = c("internal_move")
    tower, joker, archer, field = c("tower"), c("joker"), c("archer"), c("field")
    area = [[tower, joker, archer], [field]]
    roles = {str(joker): "archer"}
    assert (joker, 0, 1, "farmer") in stacking.moves_within(area, roles)
    state = arrange([[im] + c.filler(2), []], [area, []], pile=c.filler(5), market=c.filler(3), roles=roles)
    _internal(state, 0, im, joker, 0, 1, role="farmer")
    assert state["players"][0]["area"] == [[tower, archer], [field, joker]]
    assert state["roles"][str(joker)] == "farmer"


def test_internal_move_joker_cannot_become_standalone():
    """"Must stack as chosen role (cannot be placed in your play area as a standalone card)" - nor moved to one."""
    c = Cards()
    tower, joker = c("tower"), c("joker")
    moves = stacking.moves_within([[tower, joker]], {str(joker): "archer"})
    assert all(target is not None for moved, _, target, _ in moves if moved == joker)


def test_internal_move_follows_the_stacking_rules():
    """Ruling K2: "a card may not be moved to a place where it could not be placed." """
    c = Cards()
    tower, archer, field, stable = c("tower"), c("archer"), c("field"), c("stable")
    full = [c("field"), c("farmer"), c("farmer"), c("farmer")]
    farmer = c("farmer")
    area = [[tower, archer], [field], [stable], full, [farmer]]
    moves = stacking.moves_within(area, {})
    assert (archer, 0, 1, None) not in moves and (archer, 0, 2, None) not in moves
    assert (farmer, 4, 3, None) not in moves, "a full Farmer set takes no more"
    assert (farmer, 4, 1, None) in moves
    # the top Ruler of a pair cannot leave it to stand alone: a lone Ruler must take the next Ruler
    r1, r2 = c("ruler", 2)
    assert [m for m in stacking.moves_within([[r1, r2]], {}) if m[0] == r2] == []


def test_internal_move_offers_no_move_that_changes_nothing():
    """Ruling K9: "Moves that change nothing (an Internal Move back onto the same stack) are not offered." """
    c = Cards()
    tower, archer, farmer = c("tower"), c("archer"), c("farmer")
    moves = stacking.moves_within([[tower, archer], [farmer]], {})
    assert (archer, 0, 0, None) not in moves
    assert (farmer, 1, None, None) not in moves
    assert (tower,) not in [m[:1] for m in moves]


# ---------------------------------------------------------------- instant victory combos

def _finish_with(area, roles, card, move_extra, hand_extra=2):
    c = Cards()
    used = {x for s in area for x in s} | {card}
    for name, ids in c.free.items():
        c.free[name] = [i for i in ids if i not in used]
    state = arrange([[card] + c.filler(hand_extra), []], [area, []], pile=c.filler(5), market=c.filler(3),
                  roles=roles)
    events = play_move(state, 0, {"type": "place", "card": card, **move_extra})
    return state, events


def test_healer_combo_ruler_pair_and_a_40_point_healer():
    """"Healer combo: Ruler pair + a 40 points scoring Healer"; "The game ends [...] when a player achieves victory
    by completing one of the 3 instant victory combos" """
    c = Cards()
    joker = c("joker")
    area = [[c("ruler"), c("ruler")], [c("stable"), c("knight")], [c("tower"), c("archer")], [c("field"), c("farmer")],
            [c("healer")], [c("thief")]]  # 9 colours
    state, events = _finish_with(area, {}, joker, {"stack": 3, "role": "farmer"})
    assert types(events) == ["CardPlaced", "VictoryDeclared", "MatchFinished"]
    assert events[1][1] == {"seat": 0, "combo": "healer"}
    assert events[2][1]["reason"] == "combo" and events[2][1]["winner"] == 0
    assert state["status"] == "finished" and state["winner"] == 0 and state["winners"] == [0]
    assert KORONA.legal_moves(state, 0) == [] and KORONA.legal_moves(state, 1) == []


def test_military_combo_ruler_pair_knight_set_and_two_archer_sets():
    """"Military combo: Ruler pair + 1 full Knight set + 2 full Archer sets" """
    c = Cards()
    archer = c("archer")
    area = [[c("ruler"), c("ruler")], [c("stable"), c("knight"), c("knight")],
            [c("tower"), c("archer"), c("archer"), c("archer")], [c("tower"), c("archer"), c("archer")]]
    state, events = _finish_with(area, {}, archer, {"stack": 3})
    assert ("VictoryDeclared", {"seat": 0, "combo": "military"}) in events
    assert state["status"] == "finished" and state["winner"] == 0


def test_production_combo_ruler_pair_and_four_farmed_fields():
    """"Production combo: Ruler pair + 4 Fields with at least 1 Farmer each" (here the pair is a Ruler + Joker)"""
    c = Cards()
    farmer = c("farmer")
    joker = c("joker")
    area = [[c("ruler"), joker], [c("field"), c("farmer")], [c("field"), c("farmer"), c("farmer")],
            [c("field"), c("farmer")], [c("field")]]
    state, events = _finish_with(area, {joker: "ruler"}, farmer, {"stack": 4})
    assert ("VictoryDeclared", {"seat": 0, "combo": "production"}) in events
    assert state["result"]["reason"] == "combo" and state["winner"] == 0


def test_production_combo_counts_a_joker_as_farmer():
    """Ruling K4: "A Joker acting as a Farmer counts as the Farmer on a Field." """
    c = Cards()
    joker = c("joker")
    area = [[c("ruler"), c("ruler")], [c("field"), c("farmer")], [c("field"), c("farmer")],
            [c("field"), c("farmer")], [c("field")]]
    state, events = _finish_with(area, {}, joker, {"stack": 4, "role": "farmer"})
    assert ("VictoryDeclared", {"seat": 0, "combo": "production"}) in events
    assert state["winner"] == 0 and state["roles"][str(joker)] == "farmer"


def test_combo_needs_a_ruler_pair():
    """"Ruler pair + 1 full Knight set + 2 full Archer sets" - without the pair there is no combo."""
    c = Cards()
    archer = c("archer")
    area = [[c("ruler")], [c("stable"), c("knight"), c("knight")],
            [c("tower"), c("archer"), c("archer"), c("archer")], [c("tower"), c("archer"), c("archer")]]
    state, events = _finish_with(area, {}, archer, {"stack": 3})
    assert "VictoryDeclared" not in types(events)
    assert state["status"] == "active"


def test_thief_set_does_not_count_for_the_military_combo():
    """"stacks containing a Thief can still count as full stacks, but cannot be used for Ruler pair protection or the
    Military and Production Combos" """
    c = Cards()
    archer = c("archer")
    area = [[c("ruler"), c("ruler")], [c("stable"), c("thief"), c("knight")],
            [c("tower"), c("archer"), c("archer"), c("archer")], [c("tower"), c("archer"), c("archer")]]
    state, events = _finish_with(area, {}, archer, {"stack": 3})
    assert "VictoryDeclared" not in types(events)
    assert state["status"] == "active"


def test_thief_field_does_not_count_for_the_production_combo():
    """"stacks containing a Thief ... cannot be used for ... the Military and Production Combos" """
    c = Cards()
    farmer = c("farmer")
    area = [[c("ruler"), c("ruler")], [c("field"), c("farmer")], [c("field"), c("farmer")],
            [c("field"), c("thief"), c("farmer")], [c("field")]]
    state, events = _finish_with(area, {}, farmer, {"stack": 4})
    assert "VictoryDeclared" not in types(events)
    assert state["status"] == "active"


def test_combo_declared_by_internal_move():
    """Ruling K4: "right after the move that completes a combo, it records VictoryDeclared and the match ends." """
    c = Cards()
    im = c("internal_move")
    archer = c("archer")
    area = [[c("ruler"), c("ruler")], [c("stable"), c("knight"), c("knight")],
            [c("tower"), c("archer"), c("archer"), c("archer")], [c("tower"), c("archer"), c("archer")], [archer]]
    state = arrange([[im] + c.filler(2), []], [area, []], pile=c.filler(5), market=c.filler(3))
    events = _internal(state, 0, im, archer, 4, 3)
    assert types(events) == ["ActionCardPlayed", "CardMoved", "VictoryDeclared", "MatchFinished"]
    assert state["winner"] == 0


def test_combo_for_several_players_goes_to_the_seat_to_move():
    """Ruling K4: "If one move completes combos for several players, the player whose turn it is wins" """
    c = Cards()
    farmer = c("farmer")
    mine = [[c("ruler"), c("ruler")], [c("field"), c("farmer")], [c("field"), c("farmer")],
            [c("field"), c("farmer")], [c("field")]]
    theirs = [[c("ruler"), c("ruler")], [c("stable"), c("knight"), c("knight")],
              [c("tower"), c("archer"), c("archer"), c("archer")], [c("tower"), c("archer"), c("archer"), c("archer")]]
    state = arrange([[farmer] + c.filler(2), []], [mine, theirs], pile=c.filler(5), market=c.filler(3), current=0)
    events = play_move(state, 0, {"type": "place", "card": farmer, "stack": 4})
    assert ("VictoryDeclared", {"seat": 0, "combo": "production"}) in events
    assert state["winner"] == 0


# ---------------------------------------------------------------- end of the game

def test_play_continues_from_the_market_when_the_pile_runs_out():
    """"When the Draw Pile runs out, the remaining cards in the Draw Market become the final cards. Players continue
    taking turns, drawing from the Market as usual (one card per draw), until the Market is empty." """
    c = Cards()
    market = c.filler(3)
    state = arrange([c.filler(3), c.filler(3)], pile=[], market=market, phase="draw")
    play_move(state, 0, {"type": "draw", "source": "market", "card": market[0]})
    assert len(state["players"][0]["hand"]) == 4, "one card per draw"
    events = play_move(state, 0, {"type": "discard", "card": state["players"][0]["hand"][0]})
    assert "MatchFinished" not in types(events)
    play_move(state, 0, {"type": "end_turn"})
    assert state["status"] == "active" and state["current"] == 1 and state["market"] == market[1:]


def test_match_ends_after_last_market_card():
    """"The player who takes the last card from the Market completes their turn as normal. After that, the game ends:
    the player with the highest total score wins"; "The game ends when either the decks are exhausted (both the
    Draw Pile and Market Pile)" """
    c = Cards()
    last = c.filler(1)
    tower, stable = c("tower"), c("stable")
    state = arrange([[tower, stable] + c.filler(1), [c("farmer")]], [[], [[c("field")]]], pile=[], market=last,
                  phase="draw")
    play_move(state, 0, {"type": "draw", "source": "market", "card": last[0]})
    assert state["market"] == [] and state["pile"] == []
    assert state["status"] == "active" and state["phase"] == "actions", "the turn is completed as normal"
    events = play_move(state, 0, {"type": "place", "card": tower})
    assert "MatchFinished" not in types(events)
    events = play_move(state, 0, {"type": "place", "card": stable})
    assert "MatchFinished" not in types(events)
    events = play_move(state, 0, {"type": "end_turn"})
    assert types(events) == ["TurnEnded", "MatchFinished"]
    finished = events[-1][1]
    assert finished["reason"] == "exhausted" and finished["scores"] == [8, 0]
    assert finished["winner"] == 0 and finished["winners"] == [0]
    assert state["status"] == "finished" and state["result"]["reason"] == "exhausted"


def test_match_ends_after_the_third_action_when_cards_run_out():
    """"completes their turn as normal. After that, the game ends" - also when the turn ends by its third action."""
    c = Cards()
    hand = c.filler(3)
    state = arrange([hand, c.filler(1)], [[[c("tower")]], []], pile=[], market=[])
    for card in hand:
        events = play_move(state, 0, {"type": "discard", "card": card})
    assert types(events) == ["CardDiscarded", "TurnEnded", "MatchFinished"]
    assert state["winner"] == 0


def _exhausted_finish(area0, area1, roles=None):
    c = Cards()
    used = {x for a in (area0, area1) for s in a for x in s}
    for name, ids in c.free.items():
        c.free[name] = [i for i in ids if i not in used]
    state = arrange([c.filler(1), c.filler(1)], [area0, area1], pile=[], market=[], actions=1, roles=roles)
    events = play_move(state, 0, {"type": "end_turn"})
    assert types(events) == ["TurnEnded", "MatchFinished"]
    return state, events[-1][1]


def test_highest_total_score_wins():
    """"the player with the highest total score wins" - even with fewer Farmers."""
    c = Cards()
    _, finished = _exhausted_finish([[c("farmer")], [c("farmer")], [c("farmer")]], [[c("tower")]])
    assert finished["scores"] == [3, 5]
    assert finished["winner"] == 1 and finished["winners"] == [1]


def test_tie_goes_to_most_farmers():
    """"(in case of a tie, the player with the most Farmers wins)" """
    c = Cards()
    _, finished = _exhausted_finish([[c("farmer")], [c("farmer")], [c("farmer")]], [[c("stable")]])
    assert finished["scores"] == [3, 3]
    assert finished["winner"] == 0 and finished["winners"] == [0]


def test_tie_break_counts_jokers_as_farmers():
    """Ruling K6: "the most Farmers (Jokers acting as Farmers count)" """
    c = Cards()
    joker = c("joker")
    area0 = [[c("field"), c("farmer"), joker], [c("archer")]]  # 0 + 1 + 1 + 1 = 3, 2 Farmers
    area1 = [[c("farmer")], [c("knight")], [c("archer")]]  # 3, 1 Farmer
    _, finished = _exhausted_finish(area0, area1, roles={joker: "farmer"})
    assert finished["scores"] == [3, 3]
    assert finished["winner"] == 0 and finished["winners"] == [0]


def test_tie_on_score_and_farmers_is_shared():
    """Ruling K6: "a tie on both is shared (winner is null, winners lists them)" """
    c = Cards()
    state, finished = _exhausted_finish([[c("farmer")], [c("archer")], [c("knight")]],
                                        [[c("farmer")], [c("archer")], [c("archer")]])
    assert finished["scores"] == [3, 3]
    assert finished["winner"] is None and finished["winners"] == [0, 1]
    assert state["winner"] is None and state["winners"] == [0, 1]
