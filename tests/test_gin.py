"""gin_three rules, one test (or more) per RULES.md id G-1..G-13.

Every expected score below is worked out by hand in the comments.  Seats in
``position`` games: box 0 ("Box"), captain 1 ("Cap"), advisor 2 ("Adv").
"""

from __future__ import annotations

import json
import random

import pytest

from rummy import GameError, VariantError, cards, load_game, new_game
from rummy.action import Action
from rummy.cards import Card, deck
from rummy.gin import STALL_TURNS, deadwood, draw_roles
from tests.positions import position, texts, where

C = Card.parse


# -- G-1 ---------------------------------------------------------------------

def test_G_1_one_pack_aces_low_no_wilds_sets_of_at_most_four():
    g = new_game("gin_three", seed=3)
    assert g.rules.wild_rank is None and not g.rules.jokers_wild and g.rules.aces == "low"
    assert g.rules.max_set_size == 4
    places = where(g)  # 52 different cards, each in one place
    assert len(places) == 52
    assert deadwood(cards("Qh Kh Ah")) == 21        # 10 + 10 + 1: Q-K-A is no run
    assert deadwood(cards("Ah 2h 3h")) == 0         # A-2-3 is a run
    assert deadwood(cards("7c 7d 7h 7s")) == 0      # a set of four
    assert deadwood(cards("Kh Kd Kc 5s")) == 5      # an ace counts 1, faces 10


# -- G-2 ---------------------------------------------------------------------

def test_G_2_role_draw_highest_box_middle_captain_lowest_advisor_ties_draw_again():
    ties = 0
    for seed in range(300):
        (box, cap, adv), draws = draw_roles(random.Random(seed))
        for d in draws[:-1]:                       # every earlier draw had a tie
            assert len({c.rank for c in d}) < 3
            ties += 1
        last = draws[-1]
        ranks = [c.rank for c in last]
        assert len(set(ranks)) == 3
        assert ranks[box] == max(ranks) and ranks[adv] == min(ranks)
        assert ranks[cap] == sorted(ranks)[1]
    assert ties > 0  # the redraw path was exercised


def test_G_2_game_log_shows_the_draw_and_a_redraw():
    g = new_game("gin_three", seed=4)  # seed 4: Ana 3d, Ben 7d, Cleo 7c ties, then a redraw
    assert "all draw again" in g.log[0]
    assert g.role_of(g.box) == "box" and sorted((g.box, g.captain, g.advisor)) == [0, 1, 2]
    assert f"{g.players[g.box]} (highest) is in the box" in g.log[1]


# -- G-3 ---------------------------------------------------------------------

def test_G_3_the_box_deals_ten_and_ten_and_an_upcard():
    g = new_game("gin_three", seed=11)
    assert len(g.hands[g.box]) == 10 and len(g.hands[g.captain]) == 10
    assert g.advisor not in g.hands
    assert len(g.discards) == 1 and len(g.stock) == 52 - 21 == 31
    assert f"{g.players[g.box]} deals" in g.log[-1]
    assert g.current_player == g.captain and g.phase == "upcard"


# -- G-4 ---------------------------------------------------------------------

def test_G_4_captain_takes_the_upcard_discards_then_box_plays():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Kd",
                 discard="Qs", phase="upcard")
    assert texts(g.legal_actions()) == ["take upcard", "pass"]
    g.apply("take upcard")
    assert g.phase == "discard" and C("Qs") in g.hands[1]
    with pytest.raises(GameError, match="can't throw back Qs"):
        g.apply("discard Qs")
    g.apply("discard Kd")
    assert g.current_player == 0 and texts(g.legal_actions()) == ["draw stock", "draw discard"]


def test_G_4_captain_passes_box_takes():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Kd",
                 discard="Qs", phase="upcard")
    g.apply("pass")
    assert g.current_player == 0 and texts(g.legal_actions()) == ["take upcard", "pass"]
    g.apply("take upcard", player=0)
    g.apply("discard Kc", player=0)
    assert g.current_player == 1 and texts(g.legal_actions()) == ["draw stock", "draw discard"]


def test_G_4_both_pass_then_the_captain_draws_from_the_stock():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Kd",
                 discard="Qs", stock_top="6h", phase="upcard")
    g.apply("pass")
    g.apply("pass")
    assert g.current_player == 1 and texts(g.legal_actions()) == ["draw stock"]
    before = g.to_json()
    with pytest.raises(GameError, match="both players passed the upcard"):
        g.apply("draw discard")
    assert g.to_json() == before
    g.apply("draw stock")
    assert C("6h") in g.hands[1] and g.phase == "discard"


def test_G_4_a_knock_on_the_first_turn_is_allowed():
    # captain: 2c3c4c 7h7d7s 9sTsJs + 5d; the upcard Qs joins the run 9s-Qs,
    # discarding 5d leaves no deadwood: gin on the first turn.
    g = position("Ah 2h 3h 5c 6d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js 5d",
                 discard="Qs", phase="upcard")
    g.apply("take upcard")
    assert "gin 5d" in texts(g.legal_actions())


# -- G-5 ---------------------------------------------------------------------

def test_G_5_normal_turn_draw_then_discard_and_knocking_is_never_forced():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Kd",
                 discard="6s", stock_top="Qs", phase="draw")
    assert texts(g.legal_actions()) == ["draw stock", "draw discard"]
    with pytest.raises(GameError, match="not allowed now"):
        g.apply("discard Kd")  # must draw first
    g.apply("draw stock")
    legal = texts(g.legal_actions())
    assert "gin Kd" in legal and "discard Kd" in legal  # never have to knock
    g.apply("discard Kd")
    assert g.current_player == 0 and g.phase == "draw"


def test_G_5_the_card_taken_from_the_discard_pile_cant_be_thrown_back():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Kd",
                 discard="6s", phase="draw")
    g.apply("draw discard")
    assert "discard 6s" not in texts(g.legal_actions())
    with pytest.raises(GameError, match="just took from the discard pile"):
        g.apply("discard 6s")


# -- G-6 ---------------------------------------------------------------------

def test_G_6_knock_with_ten_or_less_after_drawing():
    # melds 2c3c4c, 7h7d7s; deadwood after discarding Kh: Ad 2d 3h 4s = 1+2+3+4 = 10.
    g = position("Ah 2h 5c 5d 8c 9d Th Kc Ks Qd", "2c 3c 4c 7h 7d 7s Ad 2d 3h 4s Kh")
    legal = texts(g.legal_actions())
    assert "knock Kh" in legal        # exactly 10: allowed
    assert "knock 4s" not in legal    # Ad 2d 3h Kh = 16
    g2 = position("Ah 2h 4h 5c 5d 8c 9d Th Kc Ks",
                  "2c 3c 4c 7h 7d 7s Ad 2d 3h 5s Kh")  # 1+2+3+5 = 11
    assert not any(a.verb == "knock" for a in g2.legal_actions())
    with pytest.raises(GameError, match="leaves 11 points of deadwood; a knock needs 10"):
        g2.apply("knock Kh")


def test_G_6_knock_lays_out_the_knockers_best_melds():
    # the box holds nothing that extends 2c-3c-4c or 7h-7d-7s
    g = position("Ah 2h 6h 6d 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s Ad 2d 3h 4s Kh")
    g.apply("knock Kh")
    r = g.results[-1]          # the box can't lay anything off: scored at once
    assert r.knocker == 1 and r.knocker_points == 10
    assert sorted(len(m.cards) for m in r.knocker_melds) == [3, 3]
    assert "knocks, discarding Kh" in "\n".join(g.log)


# -- G-7 ---------------------------------------------------------------------

GIN_BOX = "Ah 2h 3h 5c 5d 8c 9d Th Kc Ks"          # run A-2-3h; deadwood 5+5+8+9+10+10+10 = 57
GIN_CAP = "2c 3c 4c 7h 7d 7s 9s Ts Js Qs Kd"       # discard Kd: all melded


def test_G_7_gin_scores_25_plus_the_opponents_deadwood_no_layoffs():
    g = position(GIN_BOX, GIN_CAP)
    g.apply("gin Kd")
    r = g.results[-1]
    # Ks would extend 9s-Ts-Js-Qs, but no lay-offs on gin: box deadwood stays 57.
    assert r.kind == "gin" and r.defender_points == 57 and r.layoffs == ()
    assert r.points == 25 + 57 == 82
    assert g.scores == [0, 82, 0]
    assert "may not lay off" in r.explain()


def test_G_7_gin_bonus_option_20():
    g = position(GIN_BOX, GIN_CAP, gin_bonus=20)
    g.apply("gin Kd")
    assert g.scores[1] == 20 + 57 == 77


def test_G_7_opponent_with_no_deadwood_scores_nothing_against_gin():
    # box: A-2-3h, 5c5d5s, 8c9cTc + ... all melded: Ah2h3h 5c5d5s 8c9cTcJc = 10 cards
    g = position("Ah 2h 3h 5c 5d 5s 8c 9c Tc Jc", GIN_CAP)
    g.apply("gin Kd")
    assert g.results[-1].defender_points == 0
    assert g.scores == [0, 25, 0]


def test_G_7_knock_with_zero_deadwood_must_be_written_gin():
    g = position(GIN_BOX, GIN_CAP)
    with pytest.raises(GameError, match="that is gin, write 'gin Kd'"):
        g.apply("knock Kd")
    with pytest.raises(GameError, match="not 0"):
        g.apply("gin 2c")


# -- G-8 ---------------------------------------------------------------------

# Captain knocks with Ks: melds 5h6h7h, 9c9d9s, JcQcKc; deadwood 2d = 2.
LAY_CAP = "5h 6h 7h 9c 9d 9s Jc Qc Kc 2d Ks"
# Box: 4h and then 3h chain below 5h-7h, 8h above it, 9h onto the set (or the
# run once 8h is on), Tc below Jc-Kc; own meld 2s3s4s; Kh Qd stay: 20.
LAY_BOX = "4h 3h 8h 9h Tc 2s 3s 4s Kh Qd"


def test_G_8_layoffs_including_a_chain_then_score():
    g = position(LAY_BOX, LAY_CAP)
    g.apply("knock Ks")
    assert g.phase == "lay off" and g.current_player == 0
    legal = texts(g.legal_actions(0))
    assert "lay off 4h onto 5h 6h 7h" in legal
    assert not any(t.startswith("lay off 3h") for t in legal)  # only after 4h (a chain)
    assert "lay out" not in legal                               # that would cost points
    obs = g.observe(0)
    assert "4h lays off on 5h-6h-7h" in obs.layoff_hint
    assert "3h lays off on 4h-5h-6h-7h" in obs.layoff_hint
    g.apply("lay off 4h onto 7h 5h 6h")          # the meld's cards in any order
    assert "lay off 3h onto 4h 5h 6h 7h" in texts(g.legal_actions())
    g.apply("lay off 3h onto 5h 6h 7h")          # the meld as first laid also names it
    assert g.history[-1][1] == Action.parse("lay off 3h onto 4h 5h 6h 7h")
    # play the rest of the offered plan (the observation lists it in order)
    while g.phase == "lay off":
        g.apply(g.observe(0).layoff_plan[0])
    r = g.results[-1]
    assert {str(c) for c, _ in r.layoffs} == {"4h", "3h", "8h", "9h", "Tc"}
    assert r.defender_points == 10 + 10 == 20
    assert r.kind == "knock" and r.points == 20 - 2 == 18
    assert g.scores == [0, 18, 0]


def test_G_8_only_layoffs_that_keep_the_defenders_best_count_are_offered():
    # The box's 8h would extend the knocker's 5h-6h-7h, but it is also in the
    # box's own set 8h-8c-8d.
    g = position("8h 8c 8d Th Jh Qh Kd 2s 3c Ac", LAY_CAP.replace("9s", "9h").replace("Ks", "Kh"))
    # knocker: 5h6h7h 9c9d9h JcQcKc, deadwood 2d; discard Kh
    g.apply("knock Kh")
    # laying 8h off would break 8h8c8d (3 cards): 8c 8d would then cost 16 > 8.
    # The box's best: keep 8h8c8d, ThJhQh; deadwood Kd 2s 3c Ac = 16.
    r = g.results[-1]
    assert r.layoffs == () and r.defender_points == 16
    assert r.points == 16 - 2 == 14


def test_G_8_lay_off_errors_say_why():
    g = position(LAY_BOX, LAY_CAP)
    g.apply("knock Ks")
    with pytest.raises(GameError, match="3h does not extend 5h-6h-7h"):
        g.apply("lay off 3h onto 5h 6h 7h")
    with pytest.raises(GameError, match="not one of the knocker's melds"):
        g.apply("lay off 4h onto 2s 3s 4s")
    with pytest.raises(GameError, match="not in your hand"):
        g.apply("lay off 8s onto 5h 6h 7h")


# -- G-8a --------------------------------------------------------------------
# A knock where the arrangement decides the score: box 2c 6c 7c 8c 2d 6d 7d 2h 6h As, captain 3c 4c 5c 3d 4d 5d
# 3h 4h 5h Ks draws Tc and knocks it, keeping Ks = 10 points of deadwood.
# * As three sets (3c 3d 3h, 4c 4d 4h, 5c 5d 5h) nothing of the box fits (only 3s 4s 5s
#   would); the box's best is 2c 2d 2h + 6c 7c 8c, deadwood 6d 7d 6h As = 6+7+6+1 = 20,
#   so the captain scores 20 - 10 = 10 (G-9).
# * As three runs the box can lay off all nine cards but As; keeping 2c 2d 2h and
#   6c 7c 8c it needs only 6d 7d (onto 3d-4d-5d) and 6h (onto 3h-4h-5h): the same
#   deadwood As = 1 with the fewest lay-offs (G-8 tie rule), and undercuts: 10 + 9 = 19.
G8A_BOX = "2c 6c 7c 8c 2d 6d 7d 2h 6h As"
G8A_CAPTAIN = "3c 4c 5c 3d 4d 5d 3h 4h 5h Ks"


def _g8a():
    g = position(G8A_BOX, G8A_CAPTAIN, stock_top="Tc", phase="draw")
    g.apply("draw stock")
    return g


def test_G_8a_a_knock_lays_out_the_arrangement_best_for_the_knocker():
    g = _g8a()
    g.apply("knock Tc")
    r = g.results[-1]
    assert sorted(sorted(str(c) for c in m.cards) for m in r.knocker_melds) == [
        ["3c", "3d", "3h"], ["4c", "4d", "4h"], ["5c", "5d", "5h"]]
    assert r.layoffs == () and r.defender_points == 20
    assert r.kind == "knock" and r.winner == 1 and r.points == 10 and g.scores == [0, 10, 0]


def test_G_8a_the_knocker_may_name_the_arrangement():
    g = _g8a()
    g.apply("knock Tc with 5c 3c 4c, 3d 4d 5d, 3h 4h 5h")   # any order within a meld
    assert str(g.history[-1][1]) == "knock Tc with 3c 4c 5c, 3d 4d 5d, 3h 4h 5h"
    assert Action.parse(str(g.history[-1][1])) == g.history[-1][1]
    while not g.results:
        g.apply(g.observe(0).layoff_plan[0] if g.observe(0).layoff_plan else "lay out")
    r = g.results[-1]
    assert sorted(str(c) for c, _ in r.layoffs) == ["6d", "6h", "7d"] and r.defender_points == 1
    assert r.kind == "undercut" and r.winner == 0 and r.points == 19
    g = _g8a()
    g.apply("knock Tc with 3c 3d 3h, 4c 4d 4h, 5c 5d 5h")
    assert g.results[-1].points == 10 and g.results[-1].winner == 1


@pytest.mark.parametrize("text, why", [
    ("knock Tc with 3c 4c 5d", "3c 4c 5d is not a meld"),
    ("knock Tc with 3c 3d 3h", "37 points of deadwood; a knock keeps at most 10"),  # 4+4+4+5+5+5+10
    ("knock Tc with 3c 3d 3h, 3c 4c 5c, 3d 4d 5d", "named in two melds"),
    ("knock Tc with 9s 9h 9d", "is not in your hand"),
    ("knock Tc with 3c 4c 5c Tc, 3d 4d 5d, 3h 4h 5h", "3c 4c 5c Tc is not a meld"),
    ("gin Tc with 3c 4c 5c, 3d 4d 5d, 3h 4h 5h", r"leaves 10 points of deadwood, not 0 \(G-7\)"),
    ("knock 3c with 4c 4d 4h, 5c 5d 5h", r"leaves 26 points of deadwood; a knock needs 10"),
])
def test_G_8a_a_named_arrangement_is_checked(text, why):
    g = _g8a()
    before = g.to_json()
    with pytest.raises(GameError, match=why):
        g.apply(text)
    assert g.to_json() == before and g.phase == "discard"


def test_G_8a_knock_options_list_every_layout_without_the_defenders_cards():
    g = _g8a()
    opts = [o for o in g.knock_options() if o.action.card == C("Tc")]
    assert [o.deadwood_points for o in opts] == [10, 10]
    # sets: 3s 4s 5s could be laid off (3); runs: 2c 6c 2d 6d 2h 6h (6), all unseen
    assert [o.open_cards for o in opts] == [3, 6]
    assert g.observe(1).knock_options() == g.knock_options()
    assert g.observe(0).knock_options() == []


# -- G-9 ---------------------------------------------------------------------

# Captain knocks with Kh: melds 2c3c4c, 7h7d7s, 9sTsJs; deadwood 5d = 5.
UND_CAP = "2c 3c 4c 7h 7d 7s 9s Ts Js 5d Kh"
UND_BOX9 = "Ah 2h 3h 8c 8d 8h Jd Qd Kd"   # all melded; the tenth card decides


@pytest.mark.parametrize("tenth, winner, points, kind", [
    ("Kc", 1, 10 - 5, "knock"),         # box 10 > 5: captain scores the difference, 5
    ("5s", 0, 10 + 0, "undercut"),      # equal (5 and 5) is an undercut: 10 + 0
    ("3s", 0, 10 + 2, "undercut"),      # box 3 < 5: 10 + (5 - 3) = 12
    ("5c", 0, 10 + 5, "undercut"),      # 5c lays off on 2c-3c-4c: box 0: 10 + 5 = 15
])
def test_G_9_knock_and_undercut_scores(tenth, winner, points, kind):
    g = position(f"{UND_BOX9} {tenth}", UND_CAP)
    g.apply("knock Kh")
    while g.phase == "lay off":
        g.apply(g.legal_actions()[0])
    r = g.results[-1]
    assert (r.kind, r.winner, r.points) == (kind, winner, points)
    assert g.scores[winner] == points and sum(g.scores) == points


def test_G_9_undercut_bonus_option_25():
    g = position(f"{UND_BOX9} 3s", UND_CAP, undercut_bonus=25)
    g.apply("knock Kh")
    assert g.scores == [25 + 2, 0, 0]


# -- G-10 --------------------------------------------------------------------

def test_G_10_the_advisor_never_scores_totals_are_individual():
    g = position(GIN_BOX, GIN_CAP)
    g.scores = [7, 11, 13]
    g.apply("gin Kd")
    assert g.scores == [7, 11 + 82, 13]          # only the captain's own total moves
    assert list(g.score_sheet().loc["Hand 1"]) == [0, 82, 0]
    assert g.observe(g.advisor).hand == ()        # the advisor holds no cards


# -- G-11 --------------------------------------------------------------------

def test_G_11_box_loses_box_sits_out_captain_into_box_advisor_captain():
    g = position(GIN_BOX, GIN_CAP)
    g.apply("gin Kd")                             # the captain (seat 1) wins
    assert (g.box, g.captain, g.advisor) == (1, 2, 0)
    assert "The box lost" in "\n".join(g.log)
    assert g.hand_number == 2 and g.current_player == 2 and g.phase == "upcard"


def test_G_11_box_wins_stays_in_the_box_others_swap():
    g = position(f"{UND_BOX9} 3s", UND_CAP)
    g.apply("knock Kh")                           # the box undercuts and wins
    assert (g.box, g.captain, g.advisor) == (0, 2, 1)
    assert "stays there" in "\n".join(g.log)


# -- G-12 --------------------------------------------------------------------

def test_G_12_two_cards_left_after_a_discard_is_a_draw_redealt_by_the_same_box():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Kd Qd",
                 phase="draw", stock_size=3, stock_top="6s")
    g.scores = [30, 40, 50]
    g.apply("draw stock")                         # 2 cards left in the stock
    assert len(g.stock) == 2
    g.apply("discard Qd")
    r = g.results[-1]
    assert r.kind == "draw" and r.winner is None
    assert g.scores == [30, 40, 50]
    assert (g.box, g.captain, g.advisor) == (0, 1, 2)      # same roles, same box
    assert g.hand_number == 2 and len(g.stock) == 31 and g.phase == "upcard"
    assert "Box deals" in g.log[-1]
    assert list(g.score_sheet().loc["Hand 1"]) == [0, 0, 0]


def test_G_12_a_knock_on_the_last_turn_still_counts():
    g = position(GIN_BOX, "2c 3c 4c 7h 7d 7s 9s Ts Js Kd", phase="draw", stock_size=3,
                 stock_top="Qs")
    g.apply("draw stock")
    g.apply("gin Kd")
    assert g.results[-1].kind == "gin"


def test_TT_12_a_gin_hand_stalled_for_200_turns_is_a_draw():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Kd Qd",
                 phase="draw", discard="Jd")
    g.turns = STALL_TURNS - 1
    g.apply("draw discard")
    g.apply("discard Qd")
    assert g.results[-1].kind == "draw" and "200 turns" in "\n".join(g.log)
    assert g.hand_number == 2 and (g.box, g.captain) == (0, 1)


# -- G-13 --------------------------------------------------------------------

def test_G_13_the_game_ends_when_a_total_reaches_the_target():
    g = position(GIN_BOX, GIN_CAP)
    g.scores = [90, 18, 95]
    g.apply("gin Kd")                             # 18 + 82 = 100: exactly the target
    assert g.is_over and g.winner == 1 and g.current_player is None and g.to_act() == []
    assert g.legal_actions() == [] and g.phase == "over"
    with pytest.raises(GameError, match="the game is over"):
        g.apply("draw stock")
    s = g.summary()
    assert [d["rank"] for d in s] == [3, 1, 2] and [d["won"] for d in s] == [False, True, False]
    assert g.score_sheet().loc["Total"].tolist() == [90, 100, 95]


def test_G_13_target_option():
    g = position(GIN_BOX, GIN_CAP, target=50)
    g.scores = [0, 0, 49]
    g.apply("gin Kd")                             # 82 >= 50
    assert g.is_over and g.winner == 1


# -- options, bad input, saving ---------------------------------------------------

def test_options_bad_values_and_names_say_what_is_allowed():
    with pytest.raises(VariantError, match="gin_bonus is one of 25, 20"):
        new_game("gin_three", gin_bonus=30)
    with pytest.raises(VariantError, match="undercut_bonus is one of 10, 25"):
        new_game("gin_three", undercut_bonus=15)
    with pytest.raises(VariantError, match="no option 'knock'"):
        new_game("gin_three", knock=5)
    with pytest.raises(VariantError, match="exactly 3"):
        new_game("gin_three", players=2)


def test_bad_moves_raise_and_leave_the_game_untouched():
    g = new_game("gin_three", seed=8)
    before = (g.to_json(), list(g.log), g.phase)
    for bad, msg in [("discard 1x", "not allowed now"), ("take upcard 7h", "not allowed"),
                     ("fly", "not allowed")]:
        with pytest.raises(GameError, match=msg):
            g.apply(bad)
    with pytest.raises(GameError, match="never plays; suggest a move with advise"):
        g.apply("pass", player=g.advisor)
    with pytest.raises(GameError, match=r"it is .*'s turn \(captain\)"):
        g.apply("pass", player=g.box)
    assert (g.to_json(), list(g.log), g.phase) == before


def test_json_round_trip_and_undo():
    g = new_game("gin_three", seed=21, undercut_bonus=25)
    rng = random.Random(2)
    for _ in range(120):
        g.apply(rng.choice(g.legal_actions()))
    text = g.to_json()
    h = load_game(text)
    assert h.to_json() == text and h.log == g.log and h.hands == g.hands
    assert json.loads(text)["options"] == {"undercut_bonus": 25}
    last_seat, last = g.history[-1]
    assert g.undo() == [(last_seat, last)]  # the moves taken back, as (seat, Action)
    assert len(g.history) == 119
    g.apply(last)
    assert g.to_json() == text


def test_actions_are_text_round_trips():
    g = position(LAY_BOX, LAY_CAP)
    for a in g.legal_actions():
        assert Action.parse(str(a)) == a
    g.apply("knock Ks")
    for a in g.legal_actions():
        assert Action.parse(str(a)) == a


def test_summary_keys_and_score_sheet_shape():
    g = position(GIN_BOX, GIN_CAP)
    g.apply("gin Kd")
    s = g.summary()
    assert set(s[0]) >= {"score", "rank", "won", "went_out"}
    assert [d["went_out"] for d in s] == [0, 1, 0]
    sheet = g.score_sheet()
    assert list(sheet.columns) == ["Box", "Cap", "Adv"] and list(sheet.index) == ["Hand 1", "Total"]


def test_every_card_is_in_one_place_after_every_move():
    g = new_game("gin_three", seed=5)
    rng = random.Random(5)
    for _ in range(300):
        where(g)
        g.apply(rng.choice(g.legal_actions()))
    assert set(deck()) == set(where(g))


# -- properties (hypothesis) ---------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ANY_MOVES = [Action.parse(t) for t in (
    "take upcard", "pass", "draw stock", "draw discard", "lay out", "discard Kh", "knock 2c",
    "gin 5d", "lay off 4h onto 5h 6h 7h")]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 10**6), min_size=1, max_size=150))
def test_random_play_keeps_every_card_in_one_place_and_bad_moves_change_nothing(seed, picks):
    g = new_game("gin_three", seed=seed)
    for k in picks:
        if g.is_over:
            break
        legal = g.legal_actions()
        bad = [a for a in ANY_MOVES if a not in legal]
        before = g.to_json()
        with pytest.raises(GameError):
            g.apply(bad[k % len(bad)])
        assert g.to_json() == before
        g.apply(legal[k % len(legal)])
        where(g)
        assert g.is_over or g.current_player in (g.box, g.captain)
    assert load_game(g.to_json()).to_json() == g.to_json()
