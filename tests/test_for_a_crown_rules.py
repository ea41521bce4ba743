"""For a Crown's rules, one test per sentence of its rulebook (Polish, quoted, with an English reading), the worked
examples first. Sections are the rulebook's: Przygotowanie (setup), Rekrutacja, Odkrywanie, Efekty, Pamiątka rodowa,
Koniec rundy, Koniec gry."""
from __future__ import annotations

import pytest

from domain import fair
from domain.errors import IllegalMove
from domain.for_a_crown import GAME as FOR_A_CROWN
from domain.for_a_crown.moves import legal_moves
from domain.for_a_crown.state import influence
from tests.helpers.for_a_crown import (
    CROC,
    FLAMINGO,
    MONKEY,
    PENGUIN,
    RABBIT,
    Die,
    card_named,
    place_portraits,
    play,
    reveal_next,
    run,
    table,
    types,
)


def test_example_a_cost_of_5_paid_with_3_coins_and_2_rubies():
    """For a Crown, Rekrutacja, example: "W 1. rundzie gracz rekrutuje najemnika o koszcie 5 monet. Nie ma tylu
    monet, więc płaci za tego najemnika 3 monetami i 2 rubinami, które odkłada do rezerwy." (A recruit costing 5, paid
    with 3 Coins and 2 Rubies into the reserve; the card goes face down on the shared deck.)"""
    state, rng = table(3)
    seat = state["current"]
    assert state["players"][seat]["coins"] == 3 and state["costs"][2] == 5  # the most influential; level 3 costs 5
    card = state["face_up"]["3"][0]
    reserve = dict(state["reserve"])
    play(state, seat, {"type": "recruit", "level": 3, "card": card}, rng)
    assert {"type": "pay", "coins": 3, "rubies": 2} in legal_moves(state, seat)
    assert {"type": "pay", "coins": 5, "rubies": 0} not in legal_moves(state, seat)  # only 3 Coins in the chest
    events = play(state, seat, {"type": "pay", "coins": 3, "rubies": 2}, rng)
    assert types(events)[0] == "CostPaid"
    assert (state["players"][seat]["coins"], state["players"][seat]["rubies"]) == (0, 8)
    assert state["reserve"]["coins"] == reserve["coins"] + 3 and state["reserve"]["rubies"] == reserve["rubies"] + 2
    assert state["shared"][-1] == card and state["sleeves"][str(card)] == seat


def test_example_countess_rabbit_furthest_right_starts_with_3_coins():
    """For a Crown, Przygotowanie 8-9 and its example: "Portret Króliczej Hrabiny znajduje się w galerii najbardziej
    z prawej, więc gracz, który wybrał ten ród, jest najbardziej wpływowy i rozpoczyna rozgrywkę z 3 monetami."
    Portraits go at random from the starred space leftwards; Coins: most influential 3, least 5, the others 4."""
    for seed in range(6):
        state, _ = table(4, rng=fair.Generator(b"rabbit" * 6, f"match-{seed}", ["c"] * 4))
        order = influence(state)
        start = state["board"]["gallery"]["start"]
        assert [state["gallery"][start - i] for i in range(4)] == order
        coins = [state["players"][s]["coins"] for s in order]
        assert coins == [3, 4, 4, 5]
        if order[0] == RABBIT:
            assert state["players"][RABBIT]["coins"] == 3


def test_example_the_mercenary_that_moves_two_portraits():
    """For a Crown, Odkrywanie, example: "Odkryta karta to najemnik Króliczej Hrabiny. Ten najemnik pozwala na 2
    przesunięcia w galerii. Najpierw gracz przesuwa portret Wicehrabiego Pingwina w lewo. Potem gracz przesuwa własny
    portret w prawo, dzięki czemu staje się bardziej wpływowy." (Two moves; each to the next free space.)"""
    state, rng = table(3)
    place_portraits(state, {RABBIT: 4, PENGUIN: 5, MONKEY: 6})
    chamberlain = card_named(state, "Chamberlain")
    reveal_next(state, chamberlain, sleeves={chamberlain: RABBIT})
    run(state, rng)
    options = legal_moves(state, RABBIT)
    assert {"type": "move_portrait", "portrait": PENGUIN, "direction": "left"} in options
    play(state, RABBIT, {"type": "move_portrait", "portrait": PENGUIN, "direction": "left"}, rng)
    assert state["gallery"][3] == PENGUIN and state["gallery"][5] is None  # skips Rabbit on 4: the next free space
    play(state, RABBIT, {"type": "move_portrait", "portrait": RABBIT, "direction": "right"}, rng)
    assert state["gallery"][5] == RABBIT and influence(state) == [MONKEY, RABBIT, PENGUIN]


def test_example_scandal_in_five_players_loses_2_2_1_0_0():
    """For a Crown, Skandal, example: Monkey and Flamingo in the left section lose 2 Rubies each, Penguin in the middle
    loses 1, Croc and Rabbit in the right lose none: "Każdy gracz traci po 2, 1 albo 0 rubinów w zależności od tego,
    w której sekcji galerii znajduje się jego portret"."""
    state, rng = table(5)
    place_portraits(state, {MONKEY: 0, FLAMINGO: 2, PENGUIN: 4, CROC: 6, RABBIT: 8})
    reveal_next(state, card_named(state, "Scandal"))
    before = [p["rubies"] for p in state["players"]]
    run(state, rng)
    lost = [b - p["rubies"] for b, p in zip(before, state["players"])]
    assert lost == [0, 1, 2, 2, 0]  # Rabbit, Penguin, Monkey, Flamingo, Croc


def test_example_the_heirloom_sold_to_pay_1_ruby_leaves_9():
    """For a Crown, Pamiątka rodowa, example: "Gracz musi zapłacić 1 rubin, ale nie ma w swojej skrzyni żadnych
    rubinów. Ogłasza zatem, że sprzedaje swoją pamiątkę rodową, i wkłada do swojej skrzyni 10 rubinów. Następnie płaci
    wymagany rubin i kontynuuje rozgrywkę z 9 rubinami w skrzyni." """
    state, rng = table(3)
    state["players"][PENGUIN]["rubies"] = 0
    state["reserve"]["rubies"] += 10
    thief = card_named(state, "Thief")  # steal_ruby, then a Bandit
    reveal_next(state, thief, sleeves={thief: RABBIT})
    run(state, rng)
    events = play(state, RABBIT, {"type": "choose_player", "target": PENGUIN}, rng)
    assert types(events)[:3] == ["RubyTakenAway", "HeirloomSold", "RubiesLost"]
    assert state["players"][PENGUIN]["rubies"] == 9 and state["players"][PENGUIN]["heirloom"] == "sold"


def test_a_family_with_no_ruby_and_no_heirloom_is_out_and_the_round_is_played_out():
    """For a Crown, Pamiątka rodowa: "Gracz odpada z gry ... usuwa swój portret z galerii i odkłada do rezerwy żetony
    zamaskowanych bandytów ... Przeciwnicy rozgrywają do końca aktualną rundę, po czym rozgrywka się kończy. Jeśli
    zostaną odkryte karty rodu gracza, który odpadł z gry, należy je zignorować." """
    state, rng = table(3)
    state["players"][PENGUIN].update(rubies=0, heirloom="sold", bandits=2)
    state["reserve"]["bandits"] -= 2
    thief, knight = card_named(state, "Thief"), card_named(state, "Knight")
    reveal_next(state, thief, knight, sleeves={thief: RABBIT, knight: PENGUIN})
    run(state, rng)
    events = play(state, RABBIT, {"type": "choose_player", "target": PENGUIN}, rng)
    assert "PlayerOut" in types(events) and PENGUIN not in state["gallery"]
    assert state["players"][PENGUIN]["bandits"] == 0 and state["players"][PENGUIN]["out"]
    assert legal_moves(state, RABBIT) == [{"type": "choose_player", "target": MONKEY}]  # the Thief's Bandit
    events = play(state, RABBIT, {"type": "choose_player", "target": MONKEY}, rng)
    revealed = [p for k, p in events if k == "CardRevealed" and p["card"] == knight]
    assert revealed and revealed[0]["ignored"] and "RubyGained" not in [k for k, p in events if p.get("seat") == PENGUIN]
    while state["status"] == "active":
        seat = FOR_A_CROWN.awaiting(state)
        play(state, seat, legal_moves(state, seat)[-1], rng)
    assert state["round"] == 1 and state["result"]["reason"] == "out" and PENGUIN not in state["winners"]


def test_round_one_recruits_twice_and_later_rounds_once():
    """For a Crown, Rekrutacja: "WAŻNE! W PIERWSZEJ RUNDZIE TĘ FAZĘ NALEŻY WYKONAĆ 2 RAZY." """
    state, rng = table(3)
    recruited = 0
    while state["phase"] == "recruit":
        seat = FOR_A_CROWN.awaiting(state)
        events = play(state, seat, legal_moves(state, seat)[0], rng)
        recruited += types(events).count("MercenaryRecruited")
    assert recruited == 6 and state["phase"] == "reveal"


def test_a_ruby_stands_in_for_a_coin_never_the_reverse():
    """For a Crown, Rekrutacja 2 and Skandal: "1 rubin zastępuje 1 monetę"; "Ale nie odwrotnie": a cost is paid in
    Coins and/or Rubies, a Ruby lost is always a Ruby."""
    state, rng = table(3)
    seat = state["current"]
    play(state, seat, {"type": "recruit", "level": 2, "card": state["face_up"]["2"][0]}, rng)
    assert legal_moves(state, seat) == [{"type": "pay", "coins": 3, "rubies": 0}, {"type": "pay", "coins": 2, "rubies": 1},
                                        {"type": "pay", "coins": 1, "rubies": 2}, {"type": "pay", "coins": 0, "rubies": 3}]
    with pytest.raises(IllegalMove, match="Ruby may stand in for a Coin"):
        FOR_A_CROWN.decide(state, seat, {"type": "pay", "coins": 4, "rubies": -1}, rng)


def test_recruit_only_from_a_column_with_a_cost_tile():
    """For a Crown, Rekrutacja 1: "Wybór najemnika z kolumny, poniżej której znajduje się kafelek kosztu rekrutacji";
    in round 1 the tiles 1, 3, 5 lie under levels 1-3, so levels 4 and 5 cannot be recruited."""
    state, _ = table(3)
    levels = {m["level"] for m in legal_moves(state, state["current"]) if m["type"] == "recruit"}
    assert levels == {1, 2, 3}


def test_a_top_of_deck_recruit_is_seen_by_its_recruiter_alone_until_revealed():
    """For a Crown, Rekrutacja 3: "Jeśli gracz wybrał kartę z wierzchu stosu, ogląda ją w tajemnicy"."""
    state, rng = table(3)
    seat = state["current"]
    top = state["decks"]["2"][0]
    events = play(state, seat, {"type": "recruit", "level": 2, "source": "deck"}, rng)
    recruited = dict(events)["MercenaryRecruited"]
    other = (seat + 1) % 3
    assert FOR_A_CROWN.redact("MercenaryRecruited", recruited, seat)["card"] == top
    assert "card" not in FOR_A_CROWN.redact("MercenaryRecruited", recruited, other)
    assert FOR_A_CROWN.view(state, seat)["players"][seat]["unrevealed_recruits"][0]["id"] == top
    assert "unrevealed_recruits" not in FOR_A_CROWN.view(state, other)["players"][seat]
    assert "chest" not in FOR_A_CROWN.view(state, other)["players"][seat]


def test_the_end_of_a_round_makes_the_new_shared_deck_and_slides_a_zero_tile_in():
    """For a Crown, Koniec rundy: the round's cards form the new face-down shared deck, a new Event joins it, and a
    "0" tile slides in pushing the others right (round 2 costs 0, 1, 3, 5 for levels 1-4)."""
    state, rng = table(3)
    while state["round"] == 1:
        seat = FOR_A_CROWN.awaiting(state)
        play(state, seat, legal_moves(state, seat)[0], rng)
    assert state["round"] == 2 and state["costs"] == [0, 1, 3, 5, None]
    assert len(state["shared"]) == 6 + 2 + 1 and len(state["event_stack"]) == 4


def test_burglary_takes_2_rubies_from_the_most_bandits_and_returns_their_bandits():
    """For a Crown, Włamanie: "Gracz (albo gracze), który ma przed sobą najwięcej żetonów zamaskowanych bandytów,
    traci 2 rubiny ... Następnie odkłada do rezerwy wszystkie swoje żetony zamaskowanych bandytów." """
    state, rng = table(3)
    for seat, bandits in ((RABBIT, 2), (PENGUIN, 2), (MONKEY, 1)):
        state["players"][seat]["bandits"] = bandits
    state["reserve"]["bandits"] -= 5
    reveal_next(state, card_named(state, "Burglary"))
    run(state, rng)
    assert [p["rubies"] for p in state["players"]] == [8, 8, 10]
    assert [p["bandits"] for p in state["players"]] == [0, 0, 1]


def test_helping_hand_rolls_the_die_for_the_least_influential():
    """For a Crown, Magiczna pomoc: "Najmniej wpływowy gracz rzuca magiczną kością i rozpatruje wskazany efekt." """
    state, _ = table(3)
    least = influence(state)[-1]
    reveal_next(state, card_named(state, "Helping Hand"))
    events = run(state, Die("coin"))
    rolled = dict(events)["DieRolled"]
    assert rolled["seat"] == least and rolled["face"] == "coin" and dict(events)["CoinGained"]["seat"] == least


def test_the_winner_has_the_most_rubies_a_tie_to_the_most_influential():
    """For a Crown, Koniec gry: "W razie remisu wygrywa ten z remisujących graczy, który jest najbardziej wpływowy." """
    state, rng = table(3)
    while state["status"] == "active":
        seat = FOR_A_CROWN.awaiting(state)
        play(state, seat, legal_moves(state, seat)[-1], rng)
    worth = state["result"]["rubies"]
    best = max(w for w in worth if w is not None)
    tied = [s for s in range(3) if worth[s] == best]
    assert state["winners"] == [next(s for s in influence(state) if s in tied)]
