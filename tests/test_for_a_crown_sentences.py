"""For a Crown's rulebook, the sentences its worked examples (test_for_a_crown_rules.py) do not already cover, one
test each, in the rulebook's order: Przygotowanie (setup), Rekrutacja, Odkrywanie and its effects, the Events,
Koniec rundy, Koniec gry. Each docstring quotes the Polish and gives an English reading."""
from __future__ import annotations

from collections import Counter

from jinja2 import Environment, FileSystemLoader

from domain.for_a_crown import GAME as FOR_A_CROWN
from domain.for_a_crown import decide
from domain.for_a_crown.moves import legal_moves
from domain.for_a_crown.state import influence, new_state
from service.console.present import words
from tests.helpers.for_a_crown import (
    MONKEY,
    PENGUIN,
    RABBIT,
    Die,
    apply,
    card_named,
    place_portraits,
    play,
    reveal_next,
    run,
    table,
    types,
)


def first_options_to_the_end(state: dict, rng) -> list[tuple[str, dict]]:
    """Every seat takes its first legal option until the match is over; every event."""
    events = []
    while state["status"] == "active":
        seat = FOR_A_CROWN.awaiting(state)
        events += play(state, seat, legal_moves(state, seat)[0], rng)
    return events


def test_each_chest_holds_its_heirloom_and_10_rubies_secret_from_the_others():
    """Przygotowanie 1-2: "Każdy z graczy bierze pamiątkę należącą do jego rodu i 10 rubinów, a następnie wkłada je do
    swojej skrzyni. Podczas rozgrywki nie należy ujawniać zawartości skrzyni innym graczom." (Each chest: the family's
    Heirloom and 10 Rubies; its contents are never shown to the others.)"""
    state, _ = table(4)
    assert all(p["heirloom"] == "held" and p["rubies"] == 10 for p in state["players"])
    for viewer in (None, 1):
        shown = FOR_A_CROWN.view(state, viewer)["players"]
        assert [p["seat"] for p in shown if "chest" in p] == ([] if viewer is None else [1])


def test_the_reserve_holds_the_coins_rubies_and_bandits_not_in_chests():
    """Przygotowanie 3: "należy położyć największą skrzynię z rezerwą żetonów monet, rubinów i zamaskowanych
    bandytów." (The reserve holds every token no chest holds: 60 Rubies, 30 Coins, 25 Bandits in all.)"""
    state, _ = table(5)
    assert state["reserve"] == {"rubies": 60 - 5 * 10, "coins": 30 - (3 + 4 + 4 + 4 + 5), "bandits": 25}


def test_the_cost_tiles_1_3_5_lie_in_the_track_and_the_0_tiles_beside_it():
    """Przygotowanie 4: "wsunąć w jej podłużne wgłębienia kafelki kosztu rekrutacji o wartościach „1”, „3” i „5”.
    Kafelki kosztu rekrutacji o wartości „0” należy położyć w pobliżu." (Levels 1-3 cost 1, 3, 5; three 0 tiles wait.)"""
    state, _ = table(3)
    assert state["costs"] == [1, 3, 5, None, None] and state["zero_tiles"] == 3


def test_the_royal_square_level_1_in_three_face_up_stacks_and_levels_2_to_5_shuffled_with_2_turned_up():
    """Przygotowanie 5: "Poziom 1. Należy podzielić karty na 3 stosy według efektów i umieścić te stosy odkryte";
    "Poziomy 2, 3, 4 i 5. Należy potasować każdy stos osobno ... Następnie należy odkryć 2 karty z każdego stosu"."""
    state = new_state({"players": ["a", "b", "c"], "options": {}, "await_client_seeds": False})
    events = decide.start(state, Die())
    shuffled = [p for kind, p in events if kind == "LevelShuffled"]
    assert [p["level"] for p in shuffled] == [2, 3, 4, 5] and all(p["random"][0]["kind"] == "shuffle" for p in shuffled)
    state, _ = table(3)
    cards = state["cards"]
    assert len(state["stacks"]) == 3 and all(len(stack) == 5 for stack in state["stacks"])
    assert all(len({tuple(map(tuple, cards[c]["effects"])) for c in stack}) == 1 for stack in state["stacks"])
    assert all(len(state["face_up"][str(level)]) == 2 for level in range(2, 6))


def test_the_shared_deck_starts_as_the_2_starting_events_and_the_others_are_a_shuffled_stack():
    """Przygotowanie 6-7: "Z 2 kart początkowych wydarzeń należy utworzyć zakrytą wspólną talię. Pozostałe karty
    wydarzeń należy potasować i utworzyć z nich zakryty stos." """
    state, _ = table(3)
    cards = state["cards"]
    assert sorted(cards[c]["name"] for c in state["shared"]) == ["Helping Hand", "Mercenary Mages"]
    assert len(state["event_stack"]) == 5 and not any(cards[c]["starting"] for c in state["event_stack"])
    assert "event_stack" not in FOR_A_CROWN.view(state, 0) and FOR_A_CROWN.view(state, 0)["event_stack_count"] == 5


def test_recruitment_goes_from_the_most_to_the_least_influential():
    """Rekrutacja: "Gracze w kolejności od najbardziej do najmniej wpływowego rekrutują po 1 najemniku z królewskiego
    rynku." """
    state, rng = table(4)
    order = []
    while len(order) < 4:
        seat = FOR_A_CROWN.awaiting(state)
        if not state["steps"]:
            order.append(seat)
        play(state, seat, legal_moves(state, seat)[0], rng)
    assert order == influence(state)


def test_a_recruit_takes_a_face_up_card_or_the_top_card_of_a_stack():
    """Rekrutacja 1: "Można wziąć albo odkrytą kartę, albo zakrytą kartę z wierzchu stosu." (Levels 2 and 3 offer
    both their face-up cards and their deck's top card; level 1 offers each face-up stack.)"""
    state, _ = table(3)
    seat = state["current"]
    offered = legal_moves(state, seat)
    for level in (2, 3):
        assert [m for m in offered if m["level"] == level] == (
            [{"type": "recruit", "level": level, "card": c} for c in state["face_up"][str(level)]]
            + [{"type": "recruit", "level": level, "source": "deck"}])
    assert [m for m in offered if m["level"] == 1] == [{"type": "recruit", "level": 1, "stack": i} for i in range(3)]


def test_the_royal_square_is_refilled_once_all_have_recruited_leaving_places_empty_when_a_stack_runs_out():
    """Rekrutacja: "Gdy wszyscy gracze zrekrutują po najemniku, należy uzupełnić królewski rynek. Jeśli w stosie
    zabraknie kart, aby uzupełnić kolumnę, należy zostawić puste miejsca." """
    state, rng = table(3)
    state["stacks"][0] += state["decks"]["2"]  # level 2 has no deck left to refill from (cards kept in play)
    state["decks"]["2"] = []
    first = state["current"]
    play(state, first, {"type": "recruit", "level": 2, "card": state["face_up"]["2"][0]}, rng)
    play(state, first, legal_moves(state, first)[0], rng)
    play(state, state["current"], {"type": "recruit", "level": 3, "card": state["face_up"]["3"][0]}, rng)
    assert len(state["face_up"]["3"]) == 1  # not refilled while a family has yet to recruit
    play(state, state["current"], legal_moves(state, state["current"])[0], rng)
    while state["recruits"] < 3:
        seat = FOR_A_CROWN.awaiting(state)
        play(state, seat, legal_moves(state, seat)[-1], rng)
    assert len(state["face_up"]["2"]) == 1 and len(state["face_up"]["3"]) == 2


def test_the_reveal_shuffles_the_shared_deck_and_resolves_each_card_before_the_next():
    """Odkrywanie: "Należy potasować wspólną talię, a następnie odkryć wierzchnią kartę i natychmiast rozpatrzyć jej
    efekt. Potem należy odkrywać pojedynczo kolejne karty ... aż zostaną odkryte wszystkie karty ze wspólnej talii." """
    state, rng = table(3)
    events = []
    while state["phase"] != "round_end" and state["round"] == 1:
        seat = FOR_A_CROWN.awaiting(state)
        events += play(state, seat, legal_moves(state, seat)[0], rng)
    shuffled = next(p for kind, p in events if kind == "SharedDeckShuffled")["random"][0]["result"]
    revealed = [p["card"] for kind, p in events if kind == "CardRevealed"]
    assert revealed == shuffled and len(revealed) == 8
    first_reveal = types(events).index("CardRevealed")
    second_reveal = types(events).index("CardRevealed", first_reveal + 1)
    card = state["cards"][revealed[0]]
    if card["kind"] == "mercenary":
        assert second_reveal - first_reveal > 1  # its effects were resolved before the next card turned up


def test_a_revealed_mercenary_is_resolved_by_the_family_that_recruited_it():
    """Odkrywanie: "Gdy zostanie odkryta karta najemnika, gracz, który go zrekrutował, musi rozpatrzyć jego efekt."
    Effect "Weź 1 rubin z rezerwy i włóż go do swojej skrzyni" (a Knight: two Rubies from the reserve)."""
    state, rng = table(3)
    knight = card_named(state, "Knight")
    reveal_next(state, knight, sleeves={knight: PENGUIN})
    reserve = state["reserve"]["rubies"]
    events = run(state, rng)
    assert [p["seat"] for kind, p in events if kind == "RubyGained"] == [PENGUIN, PENGUIN]
    assert state["players"][PENGUIN]["rubies"] == 12 and state["reserve"]["rubies"] == reserve - 2


def test_a_level_1_mercenary_gives_one_of_its_two_effects_of_its_recruiters_choice():
    """Efekty: "Karty poziomu 1 mają 2 efekty oddzielone „/”. W każdej rundzie gracz wybiera 1 z tych efektów."
    Effect "Weź 1 monetę z rezerwy i włóż ją do swojej skrzyni" (a Treasurer: a Ruby or a Coin, not both)."""
    state, rng = table(3)
    treasurer = card_named(state, "Treasurer")
    reveal_next(state, treasurer, sleeves={treasurer: MONKEY})
    run(state, rng)
    assert legal_moves(state, MONKEY) == [{"type": "choose_effect", "effect": "ruby"},
                                          {"type": "choose_effect", "effect": "coin"}]
    before = dict(state["players"][MONKEY])
    events = play(state, MONKEY, {"type": "choose_effect", "effect": "coin"}, rng)
    assert "CoinGained" in types(events) and "RubyGained" not in types(events)
    assert state["players"][MONKEY]["coins"] == before["coins"] + 1 and state["players"][MONKEY]["rubies"] == 10


def test_a_bandit_goes_to_another_player_of_the_recruiters_choice():
    """Efekty: "Wybierz innego gracza. Ten gracz bierze 1 żeton zamaskowanego bandyty z rezerwy i umieszcza go przed
    sobą." (Another player, chosen: never oneself.)"""
    state, rng = table(3)
    footpad = card_named(state, "Footpad")  # a Bandit, then a Ruby
    reveal_next(state, footpad, sleeves={footpad: RABBIT})
    run(state, rng)
    assert legal_moves(state, RABBIT) == [{"type": "choose_player", "target": PENGUIN},
                                          {"type": "choose_player", "target": MONKEY}]
    play(state, RABBIT, {"type": "choose_player", "target": MONKEY}, rng)
    assert state["players"][MONKEY]["bandits"] == 1 and state["reserve"]["bandits"] == 24
    assert state["players"][RABBIT]["rubies"] == 11  # then the Footpad's Ruby


def test_another_chosen_player_loses_a_ruby_to_the_reserve():
    """Efekty: "Wybierz innego gracza. Ten gracz traci 1 rubin – odkłada go ze swojej skrzyni do rezerwy." """
    state, rng = table(3)
    assassin = card_named(state, "Assassin")  # two Rubies lost, each by a chosen player
    reveal_next(state, assassin, sleeves={assassin: PENGUIN})
    run(state, rng)
    assert {m["target"] for m in legal_moves(state, PENGUIN)} == {RABBIT, MONKEY}
    reserve = state["reserve"]["rubies"]
    play(state, PENGUIN, {"type": "choose_player", "target": RABBIT}, rng)
    play(state, PENGUIN, {"type": "choose_player", "target": RABBIT}, rng)
    assert state["players"][RABBIT]["rubies"] == 8 and state["reserve"]["rubies"] == reserve + 2


def test_the_magic_die_is_rolled_and_its_face_applied():
    """Efekty: "Rzuć magiczną kością i rozpatrz wskazany efekt." (A Sorcerer rolls twice; each face is applied.)"""
    state, _ = table(3)
    sorcerer = card_named(state, "Sorcerer")
    reveal_next(state, sorcerer, sleeves={sorcerer: RABBIT})
    events = run(state, Die("ruby", "coin"))
    events = events[:types(events).index("CardRevealed", 1)]  # the Sorcerer's own effects
    assert [p["face"] for kind, p in events if kind == "DieRolled"] == ["ruby", "coin"]
    assert types(events)[1:5] == ["DieRolled", "RubyGained", "DieRolled", "CoinGained"]


def test_an_event_is_resolved_by_every_player_it_names_bribery_in_influence_order():
    """Odkrywanie: "Gdy zostanie odkryta karta wydarzenia, wszyscy gracze, których dotyczy dane wydarzenie, muszą
    rozpatrzyć jego efekt." Przekupstwo: "W kolejności od najbardziej do najmniej wpływowego każdy gracz może zapłacić
    dowolną liczbę monet (lub rubinów), aby odłożyć do rezerwy taką samą liczbę żetonów zamaskowanych bandytów."
    (Those with Bandits are asked, most influential first; RULINGS F5.)"""
    state, rng = table(3)
    place_portraits(state, {RABBIT: 4, PENGUIN: 5, MONKEY: 6})
    state["players"][RABBIT]["bandits"], state["players"][MONKEY]["bandits"] = 2, 1
    state["reserve"]["bandits"] -= 3
    reveal_next(state, card_named(state, "Bribery"))
    run(state, rng)
    assert FOR_A_CROWN.awaiting(state) == MONKEY
    assert {"type": "bribe", "coins": 1, "rubies": 0} in legal_moves(state, MONKEY)
    play(state, MONKEY, {"type": "decline"}, rng)
    assert FOR_A_CROWN.awaiting(state) == RABBIT
    assert {"type": "bribe", "coins": 1, "rubies": 1} in legal_moves(state, RABBIT)
    coins = state["players"][RABBIT]["coins"]
    play(state, RABBIT, {"type": "bribe", "coins": 1, "rubies": 1}, rng)
    assert state["players"][RABBIT]["bandits"] == 0 and state["players"][MONKEY]["bandits"] == 1
    assert state["players"][RABBIT]["coins"] == coins - 1 and state["players"][RABBIT]["rubies"] == 9


def test_mercenary_mages_each_may_pay_1_to_roll_the_die_at_once():
    """Płatni magowie: "W kolejności od najbardziej do najmniej wpływowego każdy gracz może zapłacić 1 monetę (albo 1
    rubin), aby rzucić magiczną kością i natychmiast rozpatrzeć wskazany efekt." """
    state, _ = table(3)
    order = influence(state)
    reveal_next(state, card_named(state, "Mercenary Mages"))
    die = Die("coin")
    run(state, die)
    assert FOR_A_CROWN.awaiting(state) == order[0]
    assert legal_moves(state, order[0]) == [{"type": "pay_mages", "coins": 1, "rubies": 0},
                                            {"type": "pay_mages", "coins": 0, "rubies": 1}, {"type": "decline"}]
    events = play(state, order[0], {"type": "pay_mages", "coins": 0, "rubies": 1}, die)
    assert types(events)[:3] == ["MagesPaid", "DieRolled", "CoinGained"]
    assert FOR_A_CROWN.awaiting(state) == order[1]
    play(state, order[1], {"type": "decline"}, die)
    assert FOR_A_CROWN.awaiting(state) == order[2]


def test_the_fourth_round_has_no_end_of_round_phase():
    """Rozgrywka: "Rozgrywka trwa 4 rundy"; Koniec rundy: "W 4. rundzie należy zignorować tę fazę i przejść
    bezpośrednio do rozpatrzenia końca gry." """
    state, rng = table(3)
    events = first_options_to_the_end(state, rng)
    assert [p["round"] for kind, p in events if kind == "RoundEnded"] == [1, 2, 3]
    last = max(i for i, (kind, p) in enumerate(events) if kind == "RoundStarted")
    assert events[last][1]["round"] == 4 and "RoundEnded" not in types(events[last:])
    assert state["round"] == 4 and state["result"]["reason"] == "round4"


def test_the_end_of_game_bonuses_in_order_then_the_chests_with_an_unsold_heirloom_worth_10():
    """Koniec gry: "Najbardziej wpływowy gracz otrzymuje 1 rubin. Gracz (albo gracze), który ma najwięcej monet,
    otrzymuje 1 rubin. Gracz (albo gracze), który ma przed sobą najwięcej żetonów zamaskowanych bandytów, traci 1
    rubin. Na koniec gracze ujawniają zawartość swoich skrzyń. Pamiątka rodowa jest warta 10 rubinów. Gracz, który ma
    najwięcej rubinów, wygrywa." """
    state, rng = table(3)
    place_portraits(state, {RABBIT: 4, PENGUIN: 5, MONKEY: 6})
    for seat, coins, bandits, rubies, heirloom in ((RABBIT, 4, 2, 15, "sold"), (PENGUIN, 4, 2, 6, "held"),
                                                   (MONKEY, 1, 0, 5, "held")):
        state["players"][seat].update(coins=coins, bandits=bandits, rubies=rubies, heirloom=heirloom)
    state.update(round=4, shared=[], phase="reveal", current=None, steps=[{"kind": "reveal"}])
    events = run(state, rng)
    bonuses = [(kind, p["seat"], p.get("reason")) for kind, p in events if kind in ("RubyGained", "RubiesLost")]
    assert bonuses == [("RubyGained", MONKEY, "most_influential"), ("RubyGained", RABBIT, "most_coins"),
                       ("RubyGained", PENGUIN, "most_coins"), ("RubiesLost", RABBIT, "most_bandits"),
                       ("RubiesLost", PENGUIN, "most_bandits")]
    chests = {c["seat"]: c["worth"] for c in dict(events)["FinalScored"]["chests"]}
    assert chests == {RABBIT: 15, PENGUIN: 16, MONKEY: 16}
    assert state["winners"] == [MONKEY]  # 16 each: the tie goes to the most influential


def test_a_whole_game_is_4_rounds_of_recruit_reveal_and_end_of_round():
    """Rozgrywka: "Rozgrywka trwa 4 rundy, a każda runda składa się z 3 faz: rekrutacji, odkrywania i końca rundy.
    Po 4 rundach gracz, który zgromadzi w swojej skrzyni najwięcej rubinów, zostanie zwycięzcą." Przygotowanie 1:
    "5 koszulek na karty": five recruitments a family, one sleeve each (RULINGS F7)."""
    state = new_state({"players": ["a", "b", "c", "d"], "options": {}, "await_client_seeds": False})
    rng = Die()
    events = apply(state, decide.start(state, rng)) + first_options_to_the_end(state, rng)
    started = Counter(p["round"] for kind, p in events if kind == "RoundStarted")
    assert started == {1: 2, 2: 1, 3: 1, 4: 1}  # round 1 recruits twice
    turns = Counter(p["seat"] for kind, p in events if kind in ("MercenaryRecruited", "RecruitPassed"))
    assert turns == {seat: 5 for seat in range(4)}
    assert types(events).count("SharedDeckShuffled") == 4 and types(events)[-1] == "MatchFinished"
    worth = dict(events)["MatchFinished"]["rubies"]
    assert worth[state["winner"]] == max(worth)


def every_family_broke():
    """Three families in round 2, each with no Ruby and its Heirloom sold, Portraits on spaces 0, 1 and 3 (a Scandal
    makes them lose 2, 2 and 1 Rubies: all go out)."""
    state, rng = table(3)
    place_portraits(state, {RABBIT: 0, PENGUIN: 1, MONKEY: 3})
    for p in state["players"]:
        state["reserve"]["rubies"] += p["rubies"]
        p.update(rubies=0, heirloom="sold")
    state["round"] = 2
    return state, rng


def test_the_game_ends_even_when_every_family_goes_out_in_the_same_round():
    """KONIEC GRY: "Rozgrywka dobiega końca po 4. rundzie albo wcześniej, jeśli któryś z graczy odpadnie z gry."
    Pamiątka rodowa: "Przeciwnicy rozgrywają do końca aktualną rundę, po czym rozgrywka się kończy." (The game ends
    after the round in which a family went out.) A Scandal that puts out all three families, each with no Ruby and
    its Heirloom sold, must still end the game; Herald raised IndexError instead, so the move that revealed the
    Scandal could never be played and the match could never end (RULINGS F9)."""
    state, rng = every_family_broke()
    reveal_next(state, card_named(state, "Scandal"))
    state["shared"] = state["shared"][:1]  # the Scandal is the round's last card
    events = run(state, rng)
    assert [p["seat"] for kind, p in events if kind == "PlayerOut"] == [MONKEY, PENGUIN, RABBIT]
    assert state["status"] == "finished"
    assert state["winners"] == []  # nobody is left in the game to win it


def test_an_end_of_game_ruby_the_reserve_cannot_give_is_said_in_the_timeline():
    """RULINGS F4 (on KONIEC GRY: "Najbardziej wpływowy gracz otrzymuje 1 rubin. Gracz (albo gracze), który ma
    najwięcej monet, otrzymuje 1 rubin."): "A gain the reserve cannot give (no Ruby, Coin or Bandit left) is skipped
    and the timeline says so." Herald skipped the end-of-game Rubies silently: no event, no sentence."""
    state, rng = table(3)
    place_portraits(state, {RABBIT: 4, PENGUIN: 5, MONKEY: 6})
    state["players"][RABBIT]["rubies"] += state["reserve"]["rubies"]
    state["reserve"]["rubies"] = 0
    state.update(round=4, shared=[], phase="reveal", current=None, steps=[{"kind": "reveal"}])
    before = FOR_A_CROWN.copy_state(state)
    events = run(state, rng)
    assert state["status"] == "finished"
    said = [FOR_A_CROWN.event(kind, p).describe(p, before, None) for kind, p in events
            if p.get("reason") in ("most_influential", "most_coins")]
    assert len(said) == 1 + len(dict(events)["FinalScored"]["coins"])
    assert all("reserve" in sentence for sentence in said)


def test_once_the_game_is_over_every_view_shows_every_chest():
    """Koniec gry: "Na koniec gracze ujawniają zawartość swoich skrzyń." (At the end the players reveal their chests:
    every seat and the spectator see each chest once the match is over, and no other seat's before; RULINGS F9.)"""
    state, rng = table(3)
    place_portraits(state, {RABBIT: 4, PENGUIN: 5, MONKEY: 6})
    state.update(round=4, shared=[], phase="reveal", current=None, steps=[{"kind": "reveal"}])
    assert [p["seat"] for p in FOR_A_CROWN.view(state, MONKEY)["players"] if "chest" in p] == [MONKEY]
    run(state, rng)
    assert state["status"] == "finished"
    for viewer in (None, RABBIT, MONKEY):
        shown = FOR_A_CROWN.view(state, viewer)["players"]
        assert [p["chest"] for p in shown] == [{"rubies": p["rubies"], "coins": p["coins"]} for p in state["players"]]


def test_a_helping_hand_revealed_after_every_family_went_out_lets_the_round_be_played_out():
    """RULINGS F9: the round in which every family went out is played out, and the game ends with no winner. A Helping
    Hand revealed after the Scandal that put everyone out seated its die roll at the least influential family still
    in, of none: IndexError, the move refused for ever."""
    state, rng = every_family_broke()
    reveal_next(state, card_named(state, "Scandal"), card_named(state, "Helping Hand"))
    state["shared"] = state["shared"][:2]  # the Scandal, then the Helping Hand, the round's last cards
    run(state, rng)
    assert state["status"] == "finished" and state["winners"] == []


def test_the_table_of_a_match_nobody_won_says_so():
    """RULINGS F9: the console's table of a match with no winner says nobody won, not "Won by ."."""
    state, rng = every_family_broke()
    reveal_next(state, card_named(state, "Scandal"))
    state["shared"] = state["shared"][:1]
    run(state, rng)
    env = Environment(loader=FileSystemLoader(FOR_A_CROWN.table_templates))
    env.filters["words"] = words
    html = env.get_template("table.html").render(view=FOR_A_CROWN.view(state, None))
    assert "Nobody won: every family went out." in html and "Won by" not in html
