"""The Three-Thirteen family engine, rule by rule (RULES.md TT-*, TS-*, TR-*, TJ-*).

Expected values are worked by hand in the comments.  Tests that need a
particular situation "rig" a fresh game: they put chosen cards in the hands,
the stock and the pile (the rigged game no longer holds a whole shoe, so
these tests don't check card conservation; the self-play tests do).
"""

from __future__ import annotations

import json
import random

import pandas as pd
import pytest

from rummy import Action, GameError, cards, load_game, new_game
from rummy.cards import Card
from rummy.table import Stock
from rummy.three_thirteen import STALL_TURNS, Event, replay
from rummy.variants import VariantError


def rig(variant="three_thirteen", players=2, rnd=1, hands=(), stock="", pile="", current=0,
        **options):
    """A game in round ``rnd`` with the given hands, stock (last card on top)
    and discard pile (last card on top); ``current`` is to draw."""
    g = new_game(variant, players=players, seed=0, **options)
    n = len(g.players)
    g.dealer = (current - 1) % n
    if rnd != g.round:
        g._start_round(rnd)
    g.hands = [list(cards(h)) for h in hands]
    g.stock = Stock(list(cards(stock)))
    g.pile = list(cards(pile))
    g.events = [Event("turn up", None, g.pile[-1])] if g.pile else []
    g.current = current
    g.phase = "draw"
    g.dealer = (current - 1) % n
    return g


def snapshot(g):
    return (json.dumps([[str(c) for c in h] for h in g.hands]), [str(c) for c in g.stock.cards],
            [str(c) for c in g.pile], g.current, g.phase, list(g.log), list(g.history),
            g.rng.getstate(), list(g.scores), g.turn)


def quick_move(g, rnd):
    """A random move, but go out whenever possible (keeps rounds short)."""
    acts = g.legal_actions()
    return acts[0] if acts[0].verb == "go out" else rnd.choice(acts)


# -- TT-1, TT-2: rounds, cards dealt, wild ranks ---------------------------------------


def test_TT_1_eleven_rounds_of_r_plus_2_cards():
    g = new_game("three_thirteen", players=3, seed=4)
    seen = {}
    bots = random.Random(1)
    while not g.is_over:
        seen.setdefault(g.round, len(g.observe(g.current_player).hand))
        g.apply(quick_move(g, bots))
    # round r deals r + 2 cards: 3, 4, ..., 13
    assert seen == {r: r + 2 for r in range(1, 12)}
    assert len(g.round_scores) == 11
    assert list(g.score_sheet().index) == [f"Round {r}" for r in range(1, 12)] + ["Total"]


def test_TT_2_wild_rank_of_each_round():
    # 3s in round 1 ... 10s in round 8, then jacks (11), queens (12), kings (13)
    expected = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    for variant in ("three_thirteen", "tre_tretton", "three_thirteen_jokers"):
        g = new_game(variant, players=4, seed=2)
        got = []
        for r in range(1, 12):
            g._start_round(r)
            got.append(g.observe(0).wild_rank)
            assert g.observe(0).rules.wild_rank == got[-1]
        assert got == expected, variant
    g = new_game("three_thirteen", players=2, seed=2)
    assert "threes are wild" in g.log[1]


# -- TT-3: dealer and order of play ----------------------------------------------------


def test_TT_3_first_dealer_random_then_passes_left():
    firsts = {new_game("three_thirteen", players=4, seed=s).dealer for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    g = new_game("three_thirteen", players=3, seed=9)
    dealers = [g.dealer]
    starters = [g.current_player]
    rnd = g.round
    bots = random.Random(2)
    while not g.is_over:
        g.apply(quick_move(g, bots))
        if g.round != rnd and not g.is_over:
            rnd = g.round
            dealers.append(g.dealer)
            starters.append(g.current_player)
    d0 = dealers[0]
    assert dealers == [(d0 + k) % 3 for k in range(11)]
    assert starters == [(d + 1) % 3 for d in dealers]


def test_TT_3_play_goes_to_the_left():
    g = new_game("three_thirteen", players=4, seed=5)
    seats = []
    for _ in range(8):
        seats.append(g.current_player)
        g.apply("draw stock")
        g.apply([a for a in g.legal_actions() if a.verb == "discard"][0])
    s0 = seats[0]
    assert seats == [(s0 + k) % 4 for k in range(8)]


# -- TT-4: the first discard ---------------------------------------------------------------


def test_TT_4_one_card_turned_up_rest_is_stock():
    g = new_game("three_thirteen", players=4, seed=1)
    # 2 packs = 104 cards; 4 players x 3 cards = 12 dealt; 1 turned up; 104 - 13 = 91
    assert len(g.pile) == 1 and len(g.stock) == 91
    obs = g.observe(0)
    assert obs.pile_size == 1 and obs.stock_size == 91 and obs.discard_top == g.pile[0]
    assert f"The first discard is {g.pile[0]}." in g.log[1]


# -- TT-5: a turn ---------------------------------------------------------------------------


def test_TT_5_draw_then_discard():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d 6s", pile="Qd")
    assert [str(a) for a in g.legal_actions()] == ["draw stock", "draw discard"]
    with pytest.raises(GameError, match="must draw first"):
        g.apply("discard Kc")
    g.apply("draw stock")  # 6s is on top
    assert g.hands[0][-1] == Card.parse("6s")
    with pytest.raises(GameError, match="already drawn"):
        g.apply("draw stock")
    g.apply("discard Kc")
    assert g.pile[-1] == Card.parse("Kc") and g.current_player == 1
    assert g.log[-2:] == ["Ana draws from the stock.", "Ana discards Kc."]


def test_TT_5_taking_the_discard_and_throwing_it_back_is_not_allowed():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d 6s", pile="Qd")
    g.apply("draw discard")
    assert g.log[-1] == "Ana takes Qd from the discard pile."
    before = snapshot(g)
    with pytest.raises(GameError, match=r"may not throw it straight back \(TT-5\)"):
        g.apply("discard Qd")
    assert snapshot(g) == before
    assert Action.parse("discard Qd") not in g.legal_actions()
    g.apply("discard Kc")


def test_TT_5_option_discard_return_allows_it():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d 6s", pile="Qd", discard_return=True)
    g.apply("draw discard")
    assert Action.parse("discard Qd") in g.legal_actions()
    g.apply("discard Qd")
    assert g.pile == [Card.parse("Qd")]


def test_TT_5_illegal_moves_change_nothing_and_say_why():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d 6s", pile="Qd")
    g.apply("draw stock")
    before = snapshot(g)
    cases = {
        "discard 2c": "2c is not in Ana's hand; Ana holds Kc 7h 8h 6s",
        "discard 1x": "'1x' is not a card",
        "go out Kc": "not all melds",
        "fold": "not a legal move now; legal moves: ",
    }
    for text, msg in cases.items():
        with pytest.raises(GameError, match=msg):
            g.apply(text)
        assert snapshot(g) == before
    with pytest.raises(GameError, match="it is Ana's turn, not Ben's"):
        g.apply("discard Kc", player=1)
    with pytest.raises(GameError, match="seat 0..1"):
        g.apply("discard Kc", player=5)
    assert snapshot(g) == before


# -- TT-6: going out ---------------------------------------------------------------------


def test_TT_6_go_out_by_discarding_the_one_card_not_in_melds():
    # round 2 (4 cards, fours wild): 7h 8h 9h + Kc, draws 9d -> 7h 8h 9h melds;
    # Kc and 9d are left, so no going out; with Th drawn instead: 7h 8h 9h Th + Kc
    g = rig(rnd=2, hands=["7h 8h 9h Kc", "2c 5d 9s Qs"], stock="Th", pile="Qd")
    g.apply("draw stock")
    acts = [str(a) for a in g.legal_actions()]
    # only Kc can go: without 7h, 8h 9h Th Kc is not a meld (J missing), and so on
    assert [a for a in acts if a.startswith("go out")] == ["go out Kc"]
    with pytest.raises(GameError, match=r"without 8h .* not all melds"):
        g.apply("go out 8h")
    g.apply("go out Kc")
    assert "Ana goes out: [7h 8h 9h Th], discarding Kc." in g.log
    assert g.went_out == 0 and g.pile[-1] == Card.parse("Kc")


def test_TT_6_complete_hand_must_still_draw_and_discard():
    # round 1: 7h 8h 9h is a run already; the turn still starts with a draw
    g = rig(hands=["7h 8h 9h", "2c 5d 9s"], stock="Kd", pile="Qd")
    assert {a.verb for a in g.legal_actions()} == {"draw stock", "draw discard"}
    with pytest.raises(GameError, match="must draw first"):
        g.apply("go out 9h")
    g.apply("draw stock")
    assert "go out Kd" in [str(a) for a in g.legal_actions()]
    g.apply("go out Kd")
    assert g.went_out == 0


def test_TT_6_going_out_is_a_choice():
    g = rig(hands=["7h 8h 9h", "2c 5d 9s"], stock="Kd", pile="Qd")
    g.apply("draw stock")
    g.apply("discard Kd")  # allowed: waiting instead of going out
    assert g.went_out is None and g.current_player == 1


# -- TT-7: one more turn each ----------------------------------------------------------------


def test_TT_7_after_going_out_every_other_player_gets_exactly_one_turn():
    g = rig(players=4, hands=["7h 8h 9h", "2c 5d 9s", "Ac 6d Ts", "4c 4d Js"],
            stock="Kc Kd Ks Qd Jd", pile="Qh", current=1)
    g.apply("draw stock")
    g.apply("discard 2c")  # Ben plays normally
    g.apply("draw stock")
    g.apply("discard Ac")  # Cleo
    g.apply("draw stock")
    g.apply("discard Js")  # Dev
    g.apply("draw stock")  # Ana draws Kd (Jd, Qd, Ks went to Ben, Cleo, Dev)
    g.apply("go out Kd")
    assert g.went_out == 0 and g.final_left == [1, 2, 3]
    assert g.log[-1] == "Everyone else gets one more turn: Ben, Cleo, Dev."
    turns = []
    while g.round == 1:
        turns.append(g.current_player)
        g.apply("draw stock")
        g.apply([a for a in g.legal_actions() if a.verb == "discard"][0])
    assert turns == [1, 2, 3]  # exactly one turn each, in order, then the round ends
    assert len(g.round_scores) == 1


def test_TT_7_a_player_may_also_complete_the_hand_on_the_last_turn():
    g = rig(hands=["7h 8h 9h", "5c 5d Ks"], stock="2d 5s Kd", pile="Qh")
    g.apply("draw stock")
    g.apply("go out Kd")
    g.apply("draw stock")  # Ben draws 5s: 5c 5d 5s + Ks
    assert "go out Ks" in [str(a) for a in g.legal_actions()]
    g.apply("go out Ks")
    assert "Ben melds every card too: [5c 5d 5s], discarding Ks." in g.log
    assert g.round_scores[0] == [0, 0]


# -- TT-8: round scores ----------------------------------------------------------------------


def test_TT_8_player_out_scores_zero_others_their_best_arrangement():
    # round 1, threes wild.  Ben keeps 2c 9s Kd: no meld, 2 + 9 + 10 = 21.
    # Cleo keeps 6d 6s 3h: 3h is wild -> 6d 6s 3h is a set, 0.
    g = rig(players=3, hands=["7h 8h 9h", "2c 9s Kd", "6d 6s 3h"],
            stock="Qs Jc Ac Kh", pile="Qh")
    g.apply("draw stock")  # Kh
    g.apply("go out Kh")
    g.apply("draw stock")  # Ben draws Ac
    g.apply("discard Kd")  # keeps 2c 9s Ac: 2 + 9 + 1 = 12
    g.apply("draw stock")  # Cleo draws Jc
    g.apply("discard Jc")
    assert g.round_scores[0] == [0, 12, 0]
    assert g.scores == [0, 12, 0]
    assert "Ana scores 0 for going out." in g.log
    assert "Ben scores 12: no melds; unmelded: Ac 2c 9s." in g.log
    assert "Cleo scores 0: [6d 6s 3h]; unmelded: none." in g.log
    # the scored hands are laid open to everyone in the observation too
    for seat in range(3):
        laid = g.observe(seat).last_round
        assert [(s, pts) for s, _arr, pts in laid] == [(0, 0), (1, 12), (2, 0)]
        assert [sorted(str(c) for c in arr.cards) for _s, arr, _p in laid] == [
            ["7h", "8h", "9h"], ["2c", "9s", "Ac"], ["3h", "6d", "6s"]]
        assert laid[1][1].deadwood == tuple(cards("Ac 2c 9s"))


# -- TT-9: totals and the winner --------------------------------------------------------------


def _last_round(variant="three_thirteen", players=2, scores=(0, 0), hands=(), stock="",
                **options):
    g = rig(variant, players=players, rnd=11, hands=hands, stock=stock, pile="Qh", **options)
    g.scores = list(scores)
    g.round_scores = [[0] * players for _ in range(10)]
    g.round_out = [None] * 10
    return g


K_RUN = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Ah Kd"  # 13 cards, kings wild in round 11


def test_TT_9_lowest_total_wins():
    # round 11, kings wild: Ana holds a 12-card run 2h..Kh (Kd is wild as Kh) plus Ah
    # low; she draws 9c and goes out discarding it.  Ben has no meld to speak of.
    ben = "2c 3d 4s 5c 6d 7s 8c 9d Ts Jc Qd Ac 6s"
    g = _last_round(scores=(50, 40), hands=[K_RUN, ben], stock="2s 5s 9c")
    g.apply("draw stock")  # 9c
    g.apply("go out 9c")
    g.apply("draw stock")  # Ben draws 5s
    g.apply("discard Qd")  # keeps 2c 3d 4s 5c 6d 7s 8c 9d Ts Jc Ac 6s 5s
    # 4s 5s 6s 7s is a run; the rest: 2+3+5+6+8+9+10+10+1 = 54
    assert g.round_scores[-1] == [0, 54]
    assert g.scores == [50, 94] and g.is_over and g.winner == 0
    assert g.summary()[0] | {} == {"seat": 0, "player": "Ana", "score": 50, "rank": 1,
                                   "won": True, "went_out": 1}
    assert g.log[-1] == "Game over: Ana wins with the lowest total, 50."
    assert g.legal_actions() == [] and g.to_act() == [] and g.current_player is None
    with pytest.raises(GameError, match="the game is over"):
        g.apply("draw stock")


def test_TT_9_tie_for_lowest_total_gives_no_winner():
    ben = "7c 7d 7s 8c 8d 8s 9c 9d 9s Tc Td Ts 2c"
    g = _last_round(scores=(52, 50), hands=[K_RUN, ben], stock="3s 5s 9c")
    g.apply("draw stock")  # 9c
    g.apply("go out 9c")
    g.apply("draw stock")  # Ben draws 5s
    g.apply("discard 5s")  # keeps 2c unmelded: 2 points -> 52
    assert g.scores == [52, 52] and g.is_over and g.winner is None
    assert [s["won"] for s in g.summary()] == [False, False]
    assert [s["rank"] for s in g.summary()] == [1, 1]
    assert g.log[-1] == "Game over: Ana and Ben tie for the lowest total (52), so nobody wins."


# -- TT-10: stock exhaustion -------------------------------------------------------------------


def test_TT_10_empty_stock_reshuffles_the_pile_except_its_top():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d", pile="Ac 2d 3s Qd")
    g.apply("draw stock")  # the last stock card
    g.apply("discard Kc")
    # Ben's turn begins with an empty stock: Ac 2d 3s Qd go back, Kc stays on top
    assert g.pile == [Card.parse("Kc")]
    assert sorted(map(str, g.stock.cards)) == ["2d", "3s", "Ac", "Qd"]
    assert g.log[-1].startswith("The stock is empty: the discard pile except its top card (Kc) "
                                "is shuffled into a new stock of 4 cards.")
    assert g.observe(1).events[-1] == Event("reshuffle", None)


def test_TT_10_no_card_to_draw_ends_round_with_nobody_out():
    # Ana has drawn the last stock card (4c) and the pile is empty (she took it earlier)
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="", pile="")
    g.phase = "discard"
    g.hands[0].append(Card.parse("4c"))
    g.apply("discard 4c")
    # Ben's turn: empty stock, a one-card pile: nothing to shuffle, the round ends.
    # Ana keeps 7h 8h Kc: 7 + 8 + 10 = 25; Ben 2c 5d 9s: 2 + 5 + 9 = 16; nobody out
    assert g.round == 2 and g.round_scores[0] == [25, 16] and g.round_out == [None]
    assert "No card is left to draw: the round ends with nobody out." in g.log


# -- TT-11: decks -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players, packs", [(2, 1), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (8, 3),
                                            (9, 3), (11, 3), (12, 4)])
def test_TT_11_packs_for_players(players, packs):
    # 5 players: 5 x 13 + 1 + 5 = 71 cards needed -> 2 packs (104)
    # 7 players: 7 x 13 + 1 + 7 = 99 -> 2 packs; 8 players: 8 x 13 + 1 + 8 = 113 -> 3 packs (156)
    # 9 players: 9 x 13 + 1 + 9 = 127 -> 3 packs; 11: 11 x 13 + 1 + 11 = 155 -> 3 packs (156);
    # 12: 12 x 13 + 1 + 12 = 169 -> 4 packs (208): up to 12 players
    g = new_game("three_thirteen", players=players, seed=1)
    assert g.packs == packs
    assert len(g.stock) + len(g.pile) + sum(map(len, g.hands)) == 52 * packs


def test_TT_11_tre_tretton_and_jokers_decks():
    assert new_game("tre_tretton", players=2, seed=1).packs == 1
    assert new_game("tre_tretton", players=3, seed=1).packs == 2
    assert new_game("three_thirteen_jokers", seed=1).packs == 2


# -- TT-12: stall ------------------------------------------------------------------------------------


def test_TT_12_a_round_with_nobody_out_ends_after_200_turns():
    assert STALL_TURNS == 200
    g = new_game("three_thirteen", players=3, seed=8)
    rnd = random.Random(3)
    while g.round == 1:
        acts = [a for a in g.legal_actions() if a.verb != "go out"]  # never go out
        g.apply(rnd.choice(acts))
    discards = sum(1 for _, a in g.history if a.verb == "discard")
    assert discards == 200 and len(g.history) == 400
    assert any("Nobody has gone out after 200 turns" in line for line in g.log)
    # scored as TT-10: everyone scores the penalty of the hand
    assert g.round_out == [None]


# -- TS: three_thirteen options ------------------------------------------------------------------------


def test_TS_1_aces_low_or_high_both_runs_and_ace_costs_15():
    g = rig(rnd=1, hands=["Qh Kh Ah", "Ac 2c 3c"], stock="9d 4s", pile="Qd",
            aces="low_or_high")
    g.apply("draw stock")  # 4s
    assert "go out 4s" in [str(a) for a in g.legal_actions()]  # Q-K-A is a run
    g.apply("go out 4s")
    g.apply("draw stock")  # Ben 9d; A-2-3 is a run too (3c is wild anyway)
    g.apply("discard 9d")
    assert g.round_scores[0] == [0, 0]
    # an unmelded ace costs 15 with aces low_or_high (1 with aces low):
    # Ben keeps Ad 7c 8s after Ana goes out: 15 + 7 + 8 = 30
    g2 = rig(hands=["7h 8h 9h", "Ad 7c 8s"], stock="Ks Qs", pile="Qd", aces="low_or_high")
    g2.apply("draw stock")
    g2.apply("go out Qs")
    g2.apply("draw stock")
    g2.apply("discard Ks")
    assert g2.round_scores[0] == [0, 30]


def test_TS_1_aces_option_checked():
    with pytest.raises(VariantError, match="aces='high' is not allowed; aces is one of 'low', "
                                           "'low_or_high'"):
        new_game("three_thirteen", players=2, seed=1, aces="high")
    with pytest.raises(VariantError, match="no option 'jokers'"):
        new_game("three_thirteen", players=2, seed=1, jokers=2)


def test_TS_2_unmelded_wild_costs_face_value():
    # round 1, threes wild: 3c Kd 5h can't meld: 3 + 10 + 5 = 18
    g = rig(hands=["7h 8h 9h", "3c Kd 5h"], stock="2d Qs", pile="Qh")
    g.apply("draw stock")
    g.apply("go out Qs")
    g.apply("draw stock")  # Ben draws 2d
    g.apply("discard 2d")
    assert g.round_scores[0] == [0, 18]


# -- TR: tre_tretton ---------------------------------------------------------------------------------


def test_TR_1_two_to_four_players():
    for n in (2, 3, 4):
        assert len(new_game("tre_tretton", players=n, seed=1).players) == n
    for n in (1, 5):
        with pytest.raises(VariantError, match="tre_tretton is for 2 to 4 players"):
            new_game("tre_tretton", players=n, seed=1)


def test_TR_2_meld_of_wilds_only_is_not_allowed_but_is_in_jokers():
    hands = ["3c 3d 3h", "2c 5d 9s", "Ac 6d Ts", "4c 4d Js"]
    # three_thirteen_jokers: 3c 3d 3h (all wild in round 1) is a meld -> go out discarding Kc
    gj = rig("three_thirteen_jokers", players=4, hands=hands, stock="Kc", pile="Qh")
    gj.apply("draw stock")
    assert "go out Kc" in [str(a) for a in gj.legal_actions()]
    # tre_tretton: a meld needs a natural card, so no going out
    gt = rig("tre_tretton", players=4, hands=hands, stock="Kc", pile="Qh")
    gt.apply("draw stock")
    # keeping Kc, two wilds join it (Kc 3x 3y is a set of kings), so a three may go;
    # but throwing Kc would leave three wilds alone, which is no meld here
    assert [str(a) for a in gt.legal_actions() if a.verb == "go out"] == [
        "go out 3c", "go out 3d", "go out 3h"]
    with pytest.raises(GameError, match="not all melds"):
        gt.apply("go out Kc")
    # three_thirteen: wilds-only melds are allowed [decided]
    gs = rig("three_thirteen", players=4, hands=hands, stock="Kc", pile="Qh")
    gs.apply("draw stock")
    assert "go out Kc" in [str(a) for a in gs.legal_actions()]


def test_TR_3_unmelded_wild_costs_face_value_in_tre_tretton():
    # round 1: Ben keeps 3c 3d 3s, which is no meld in tre_tretton: 3 + 3 + 3 = 9
    g = rig("tre_tretton", hands=["7h 8h 9h", "3c 3d 3s"], stock="2d Qs", pile="Qh")
    g.apply("draw stock")
    g.apply("go out Qs")
    g.apply("draw stock")
    g.apply("discard 2d")
    assert g.round_scores[0] == [0, 9]


# -- TJ: three_thirteen_jokers -------------------------------------------------------------------


def test_TJ_1_learner_against_three_seated_left_top_right():
    g = new_game("three_thirteen_jokers", seed=1)
    assert g.players == ("you", "left", "top", "right")
    for n in (3, 5):
        with pytest.raises(VariantError, match="exactly 4 players"):
            new_game("three_thirteen_jokers", players=n, seed=1)
    you = next(i for i in range(200) if new_game("three_thirteen_jokers", seed=i).current == 0)
    g = new_game("three_thirteen_jokers", seed=you)
    g.apply("draw stock")
    assert g.log[-1] == "You draw from the stock."
    g.apply([a for a in g.legal_actions() if a.verb == "discard"][0])
    assert g.log[-1].startswith("You discard ")
    assert g.current_player == 1 and g.players[1] == "left"


@pytest.mark.parametrize("jokers, size", [(0, 104), (2, 106), (4, 108)])
def test_TJ_2_104_cards_plus_jokers(jokers, size):
    g = new_game("three_thirteen_jokers", seed=1, jokers=jokers)
    assert len(g.stock) + len(g.pile) + sum(map(len, g.hands)) == size
    g.check_invariants()


def test_TJ_2_jokers_option_checked():
    with pytest.raises(VariantError, match="jokers=3 is not allowed; jokers is one of 0, 2, 4"):
        new_game("three_thirteen_jokers", seed=1, jokers=3)


def test_TJ_3_jokers_wild_in_every_round():
    for rnd in (1, 6, 11):
        g = new_game("three_thirteen_jokers", seed=1, jokers=2)
        g._start_round(rnd)
        assert g.rules.is_wild(Card.parse("Jk"))
    g = rig("three_thirteen_jokers", players=4, hands=["Jk 7h 8h", "2c 5d 9s", "Ac 6d Ts",
                                                        "4c 4d Js"], stock="Kc", pile="Qh",
            jokers=2)
    g.apply("draw stock")
    assert "go out Kc" in [str(a) for a in g.legal_actions()]  # 7h 8h + joker = run


def test_TJ_4_aces_high():
    from rummy import penalty

    g = rig("three_thirteen_jokers", players=4, hands=["Qh Kh Ah", "Ac 2c 4c", "5c 6d Ts",
                                                        "8c 8d Js"], stock="9d", pile="Qd",
            aces="high")
    g.apply("draw stock")
    assert "go out 9d" in [str(a) for a in g.legal_actions()]  # Q-K-A is a run
    # A-2-4 with no wild: ace 15 + 2 + 4 = 21 (A-2-3 would not be a run either)
    assert penalty(cards("Ac 2c 4c"), g.rules) == 21
    assert penalty(cards("Ac 2c 4c"), new_game("three_thirteen_jokers", seed=1).rules) == 7
    with pytest.raises(VariantError, match="aces='low_or_high' is not allowed"):
        new_game("three_thirteen_jokers", seed=1, aces="low_or_high")


def test_TJ_5_unmelded_wild_15_and_joker_20():
    # round 1 (threes wild): Ben keeps 3c Kd 5h -> 15 + 10 + 5 = 30;
    # Cleo keeps Jk Qd 2s -> no meld (a joker and two unrelated cards): 20 + 10 + 2 = 32
    g = rig("three_thirteen_jokers", players=4,
            hands=["7h 8h 9h", "3c Kd 5h", "Jk Qd 2s", "4c 6d 8s"],
            stock="Ah Ac Ad Qs", pile="Qh", jokers=2)
    g.apply("draw stock")  # Qs
    g.apply("go out Qs")
    for _ in range(3):
        g.apply("draw stock")  # an ace each
        g.apply("discard " + str(g.hands[g.current_player][-1]))
    # Dev keeps 4c 6d 8s: 4 + 6 + 8 = 18
    assert g.round_scores[0] == [0, 30, 32, 18]


def test_TJ_6_meld_of_wilds_only_allowed():
    # round 1 (threes wild): 3c 3d + joker is a meld of wilds only, so Kc can go
    g = rig("three_thirteen_jokers", players=4,
            hands=["3c 3d Jk", "3s 3h Jk", "Ac 6d Ts", "5c 7d Js"],
            stock="2c 2d 2h Kc", pile="Qh", jokers=2)
    g.apply("draw stock")  # Kc
    assert "go out Kc" in [str(a) for a in g.legal_actions()]
    g.apply("go out Kc")
    g.apply("draw stock")  # left draws 2h and keeps 3s 3h Jk: a meld, 0 points
    g.apply("discard 2h")
    for _ in range(2):
        g.apply("draw stock")
        g.apply("discard " + str(g.hands[g.current_player][-1]))
    # top keeps Ac 6d Ts: 1 + 6 + 10 = 17; right 5c 7d Js: 5 + 7 + 10 = 22
    assert g.round_scores[0] == [0, 0, 17, 22]


def test_TJ_7_a_discard_that_leaves_every_card_melded_goes_out():
    # round 1 (threes wild): "you" hold 7h 8h 9h and draw Kc; discarding Kc leaves the run
    # 7h-8h-9h, so in three_thirteen_jokers that discard goes out
    hands = ["7h 8h 9h", "Ac 6d Ts", "5c 7d Js", "4c 6s Qd"]
    g = rig("three_thirteen_jokers", players=4, hands=hands, stock="2c 2d 2h Kc", pile="Qh")
    g.apply("draw stock")  # Kc
    legal = [str(a) for a in g.legal_actions()]
    assert "go out Kc" in legal and "discard Kc" not in legal
    assert "discard 7h" in legal   # a discard that breaks the run is still a plain discard
    g.apply("discard Kc")          # written as a discard, it goes out
    assert g.went_out == 0 and g.history[-1][1] == Action("go out", cards("Kc")[0])
    assert g.log[-2] == "You go out: [7h 8h 9h], discarding Kc."
    # three_thirteen keeps going out optional: the plain discard is still there (TT-6)
    g = rig("three_thirteen", players=4, hands=hands, stock="2c 2d 2h Kc", pile="Qh")
    g.apply("draw stock")
    assert {"go out Kc", "discard Kc"} <= {str(a) for a in g.legal_actions()}
    g.apply("discard Kc")
    assert g.went_out is None


# -- the API: observation, log, actions, JSON, replay, undo, score sheet -------------------------


def test_actions_have_a_text_form_that_parses_back():
    g = new_game("three_thirteen", players=3, seed=2)
    g.apply("draw stock")
    for a in g.legal_actions():
        assert Action.parse(str(a)) == a
        assert str(a).split()[0] in ("discard", "go")


def test_log_reads_like_sentences():
    g = rig(players=4, hands=["7h 8h 9h", "2c 5d 9s", "Ac 6d Ts", "Qc Qd 2h"],
            stock="2c Qs 4d 7h", pile="Kc", current=1)
    g.apply("draw stock")
    g.apply("discard 9s")
    g.apply("draw stock")
    g.apply("discard Ts")
    g.apply("draw discard")
    g.apply("discard 2h")
    g.apply("draw stock")
    g.apply("go out Qs")
    assert g.log[-9:-1] == [
        "Ben draws from the stock.",
        "Ben discards 9s.",
        "Cleo draws from the stock.",
        "Cleo discards Ts.",
        "Dev takes Ts from the discard pile.",
        "Dev discards 2h.",
        "Ana draws from the stock.",
        "Ana goes out: [7h 8h 9h], discarding Qs.",
    ]


def test_observation_shows_own_hand_and_public_facts_only():
    g = new_game("three_thirteen", players=3, seed=6)
    p = g.current_player
    g.apply("draw discard")
    taken = g.hands[p][-1]
    obs = g.observe(p)
    assert obs.hand == tuple(sorted(g.hands[p], key=Card.sort_key))
    assert obs.taken == taken and obs.drawn == taken and obs.phase == "discard"
    other = g.observe((p + 1) % 3)
    assert other.legal_actions == () and other.taken is None and other.drawn is None
    assert other.picked[p] == (taken,)  # everyone saw that card being taken
    assert other.hand_sizes == (3 + (p == 0), 3 + (p == 1), 3 + (p == 2))
    for field in ("stock", "rng", "seed", "hands"):
        assert not hasattr(other, field)
    with pytest.raises(GameError, match="player must be a seat"):
        g.observe(7)


def test_json_round_trip_is_exact_including_rng():
    g = new_game("three_thirteen_jokers", seed=12, jokers=4, aces="high")
    rnd = random.Random(1)
    for _ in range(150):
        g.apply(rnd.choice(g.legal_actions()))
    text = g.to_json()
    obj = json.loads(text)
    assert obj["variant"] == "three_thirteen_jokers" and obj["seed"] == 12
    assert obj["options"] == {"jokers": 4, "aces": "high"}
    assert obj["actions"][0][1] in ("draw stock", "draw discard")
    h = load_game(text)
    assert h.to_json() == text
    assert h.log == g.log and h.hands == g.hands and h.rng.getstate() == g.rng.getstate()
    assert h.stock.cards == g.stock.cards
    # the loaded game goes on exactly like the original
    for _ in range(40):
        a = rnd.choice(g.legal_actions())
        g.apply(a)
        h.apply(a)
    assert h.to_json() == g.to_json()


def test_json_tampering_is_detected():
    g = new_game("three_thirteen", players=2, seed=3)
    g.apply("draw stock")
    obj = json.loads(g.to_json())
    obj["rng"][1][5] += 1
    with pytest.raises(GameError, match="does not replay to the same shuffle position"):
        load_game(obj)
    obj = json.loads(g.to_json())
    obj["actions"].append([0, "draw stock"])
    with pytest.raises(GameError, match=r"move 2 \(0: draw stock\) does not replay"):
        load_game(obj)
    with pytest.raises(GameError, match="needs the key 'seed'"):
        load_game({"variant": "three_thirteen", "players": 2, "actions": []})


def test_replay_from_seed_and_actions():
    g = new_game("tre_tretton", players=3, seed=21)
    rnd = random.Random(4)
    for _ in range(60):
        g.apply(rnd.choice(g.legal_actions()))
    h = replay("tre_tretton", 3, 21, [(s, str(a)) for s, a in g.history])
    assert h.log == g.log and h.hands == g.hands


def test_undo_never_reveals_an_unseen_card():
    g = new_game("three_thirteen", players=2, seed=31)
    p = g.current_player
    g.apply("draw stock")
    first = g.drawn
    undone = g.undo()
    assert [str(a) for _, a in undone] == ["draw stock"] and g.phase == "draw"
    g.apply("draw stock")
    assert g.drawn == first  # the stock order is fixed by the seed
    before_log = list(g.log)
    g.apply([a for a in g.legal_actions() if a.verb == "discard"][0])
    g.apply("draw stock")
    g.undo(player=p)  # back to before p's discard (Ben's draw goes too)
    assert g.log == before_log and g.phase == "discard"
    with pytest.raises(GameError, match="nothing to undo"):
        new_game("three_thirteen", players=2, seed=1).undo()


def test_score_sheet_is_a_dataframe():
    g = rig(players=3, hands=["7h 8h 9h", "2c 9s Kd", "6d 6s 3h"], stock="Qs Jc Ac Kh",
            pile="Qh")
    g.apply("draw stock")
    g.apply("go out Kh")
    for _ in range(2):
        g.apply("draw stock")
        g.apply("discard " + str(g.hands[g.current_player][-1]))
    df = g.score_sheet()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["Ana", "Ben", "Cleo"]
    # Ben threw the Ac he drew: 2c 9s Kd = 21; Cleo 0
    assert df.loc["Round 1"].tolist() == [0, 21, 0]
    assert df.loc["Total"].tolist() == [0, 21, 0]


def test_unknown_variant_and_bad_players():
    with pytest.raises(VariantError, match="unknown variant 'canasta'; the variants are"):
        new_game("canasta")
    with pytest.raises(VariantError, match="three_thirteen is for 2 to 12 players"):
        new_game("three_thirteen", players=13, seed=1)
    with pytest.raises(GameError, match="seed must be a whole number"):
        new_game("three_thirteen", players=2, seed="x")


def test_seedless_game_still_replays():
    g = new_game("three_thirteen", players=2)
    assert isinstance(g.seed, int)
    g.apply("draw stock")
    assert load_game(g.to_json()).hands == g.hands
