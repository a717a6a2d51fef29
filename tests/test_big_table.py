"""Big Table (RULES.md BT-1..BT-8): one test per rule id, match calls, errors,
saving, undo and the caller's narration.

Positions are set with ``BigTableGame.arrange``; every expected value is
worked out by hand in the comments.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rummy import GameError, load_game, new_game
from rummy.action import Action
from rummy.big_table import STALL_CYCLES, BigTableGame, cards_needed
from rummy.cards import Card, deck
from rummy.variants import VariantError

C = Card.parse


def act_all(g: BigTableGame, choices: dict[int, str]) -> None:
    """Apply one action per seat, in seat order."""
    for seat in sorted(choices):
        g.apply(choices[seat], player=seat)


def random_until(g: BigTableGame, rng: random.Random, stop) -> None:
    while not g.is_over and not stop(g):
        p = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(p)), player=p)


# ---------------------------------------------------------------------------
# BT-1 players, packs, options; TT-2 wild rank


def test_BT_1_two_to_twelve_players_four_packs_no_jokers():
    for n in (2, 5, 12):
        g = new_game("big_table", players=n, seed=n)
        assert g.n == n and g.packs == 4
        total = g.card_counts()
        # 4 decks, no jokers: 208 cards, every card exactly 4 times
        assert sum(total.values()) == 208
        assert set(total.values()) == {4}
        assert all(not c.is_joker for c in total)
    for bad in (1, 13):
        with pytest.raises(GameError, match="2 to 12 players"):
            new_game("big_table", players=bad, seed=1)


def test_BT_1_options_more_packs_and_players_with_a_clear_error():
    g = new_game("big_table", players=12, seed=1, packs=6)
    assert sum(g.card_counts().values()) == 6 * 52
    # 16 players: 16 * (13 + 1 + 1) = 240 cards > 208 in 4 packs; 5 packs hold 260
    assert cards_needed(16) == 240
    with pytest.raises(GameError, match="max_players"):
        new_game("big_table", players=16, seed=1)
    # a bad player count is a VariantError in every family, too few packs too
    with pytest.raises(VariantError, match=r"need 240 cards .* 4 packs hold 208; use packs=5"):
        new_game("big_table", players=16, seed=1, max_players=16)
    g = new_game("big_table", players=16, seed=1, max_players=16, packs=5)
    assert len(g.players) == 16 and g.players[12:] == ("Max", "Nia", "Oto", "Pia")
    # 24 players need 360 cards: 7 packs (364)
    new_game("big_table", players=24, seed=2, max_players=24, packs=7)
    with pytest.raises(GameError, match="use packs=7"):
        new_game("big_table", players=24, seed=2, max_players=24, packs=6)
    with pytest.raises(ValueError, match="packs is one of 4, 5, 6, 7, 8"):
        new_game("big_table", players=4, seed=1, packs=3)
    with pytest.raises(ValueError, match="no option 'jokers'"):
        new_game("big_table", players=4, seed=1, jokers=2)


def test_TT_2_wild_rank_per_hand_in_big_table():
    # hand h deals h+2 cards; that rank is wild: 3s in hand 1 ... 10s in hand 8,
    # then jacks (11), queens (12), kings (13)
    expected = {1: 3, 2: 4, 8: 10, 9: 11, 10: 12, 11: 13}
    g = new_game("big_table", players=2, seed=3)
    rng = random.Random(3)
    seen = {}
    while not g.is_over:
        o = g.observe(0)
        seen[o.hand_number] = (o.wild_rank, o.rules.wild_rank, o.hand_size)
        p = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(p)), player=p)
    for h, wild in expected.items():
        assert seen[h] == (wild, wild, h + 2)
    assert sorted(seen) == list(range(1, 12))


# ---------------------------------------------------------------------------
# BT-2 the deal


def test_BT_2_each_hand_deals_h_plus_2_and_one_card_face_up_on_each_pile():
    rng = random.Random(5)
    g = new_game("big_table", players=5, seed=5)
    checked = set()
    while not g.is_over:
        if g.hand_number not in checked:
            h = g.hand_number
            # straight after the deal: h+2 cards each, one card on every pile,
            # the pool holds 208 - 5 * (h + 3)
            assert [len(x) for x in g.hands] == [h + 2] * 5
            assert [len(p) for p in g.piles] == [1] * 5
            assert len(g.pool) == 208 - 5 * (h + 3)
            o = g.observe(2)
            assert o.piles == tuple((p[0],) for p in g.piles)
            assert f"Hand {h} of 11: everyone draws {h + 2} cards" in " ".join(g.log)
            checked.add(h)
        p = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(p)), player=p)
    assert checked == set(range(1, 12))


# ---------------------------------------------------------------------------
# BT-3 a cycle


def test_BT_3_draws_are_collected_then_carried_out_together():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=1)
    # hand 1, threes wild; nobody complete, so the caller calls draw at once
    g.arrange(["Kc Qd 9s", "Kh 8d As", "2c 7s Jd"], ["4h", "5c", "6d"], pool_top="Td 2h 9h")
    assert g.phase == "draw" and g.to_act() == [0, 1, 2]
    # Ana (seat 0) draws from her right neighbour Cleo's pile (seat 2: 6d);
    # Ben takes Ana's 4h; Cleo draws from the pool
    assert [str(a) for a in g.legal_actions(0)] == ["draw pool", "draw pile 6d"]
    assert [str(a) for a in g.legal_actions(1)] == ["draw pool", "draw pile 4h"]
    g.apply("draw pile", player=0)
    g.apply("draw pile 4h", player=1)
    # nothing has moved yet: the draws are face down until everyone has chosen
    assert [len(h) for h in g.hands] == [3, 3, 3] and g.piles == [[C("4h")], [C("5c")], [C("6d")]]
    g.apply("draw pool", player=2)
    assert g.phase == "choose discard"
    assert C("6d") in g.hands[0] and C("4h") in g.hands[1] and C("Td") in g.hands[2]
    assert g.piles == [[], [C("5c")], []]
    # discards face down, then revealed together onto each player's OWN pile
    g.apply("discard Kc", player=0)
    g.apply("discard Kh", player=1)
    assert g.piles == [[], [C("5c")], []] and C("Kc") in g.hands[0]
    g.apply("discard Jd", player=2)
    assert g.piles == [[C("Kc")], [C("5c"), C("Kh")], [C("Jd")]]
    assert g.phase == "draw" and g.cycle == 2


def test_BT_3_a_player_never_takes_from_their_own_pile():
    g = new_game("big_table", players=["Ana", "Ben"], seed=2)
    g.arrange(["Kc Qd 9s", "Kh 8d As"], ["4h", "5c"])
    # with two players Ana's right neighbour is Ben: only Ben's 5c is offered
    assert [str(a) for a in g.legal_actions(0)] == ["draw pool", "draw pile 5c"]
    before = g.to_json()
    with pytest.raises(GameError, match="Ben's pile shows 5c, not 4h; allowed: draw pool, draw pile 5c"):
        g.apply("draw pile 4h", player=0)
    with pytest.raises(GameError, match="never take from their own pile"):
        g.apply("draw own pile", player=0)
    assert g.to_json() == before


def test_BT_3_pile_topology_left_and_right_neighbours():
    g = new_game("big_table", players=5, seed=9)
    for seat in range(5):
        o = g.observe(seat)
        assert o.right == (seat - 1) % 5 and o.left == (seat + 1) % 5
        # the seat on my left takes from my pile
        assert g.observe(o.left).right == seat


# ---------------------------------------------------------------------------
# BT-4 match calls


def test_BT_4_complete_after_deal_may_call_before_the_first_draw():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=3)
    # 5h 6h 7h is a run: Ana is complete straight after the deal
    g.arrange(["5h 6h 7h", "Kc Qd 9s", "Kh 8d As"], ["4h", "5c", "6d"])
    assert g.phase == "match call after deal"
    assert g.to_act() == [0] and g.current_player == 0
    assert g.legal_actions(1) == [] and g.observe(1).legal_actions == ()
    with pytest.raises(GameError, match="Ben has no complete hand"):
        g.apply("call match", player=1)
    g.apply("call match")  # the only seat to act may be left out
    assert g.matched == [0]
    assert "Ana calls match: [5h 6h 7h]" in g.log
    # the final cycle is for everyone else
    assert g.phase == "final cycle: draw" and g.to_act() == [1, 2]


def test_BT_4_match_window_after_discard_only_for_complete_hands():
    g = new_game("big_table", players=["Ana", "Ben"], seed=4)
    # hand 1 (threes wild).  Ana holds 5h 6h Kc and draws 7h from the pool;
    # after discarding Kc her 3 cards are the run 5h 6h 7h
    g.arrange(["5h 6h Kc", "Qd 9s 8d"], ["2c", "Jc"], pool_top="7h 4s")
    act_all(g, {0: "draw pool", 1: "draw pool"})
    assert C("7h") in g.hands[0] and C("4s") in g.hands[1]
    act_all(g, {0: "discard Kc", 1: "discard Qd"})
    assert g.phase == "match calls" and g.to_act() == [0]
    assert [str(a) for a in g.observe(0).legal_actions] == ["call match", "play on"]
    assert g.observe(1).legal_actions == ()


# ---------------------------------------------------------------------------
# BT-5 one more cycle; a match counts only when called


def test_BT_5_after_the_first_match_one_more_cycle_then_scoring():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=5)
    g.arrange(["5h 6h 7h", "Kc Qd 9s", "Kh 8d As"], ["4h", "5c", "6d"], pool_top="2d 2s")
    g.apply("call match", player=0)
    assert g.log[-2:] == ["Caller: one more draw and discard for everyone else!", "Caller: draw!"]
    assert g.observe(1).final_cycle
    # Ana sits out: she has nothing to do
    with pytest.raises(GameError, match="Ana has matched and sits out"):
        g.apply("draw pool", player=0)
    act_all(g, {1: "draw pool", 2: "draw pool"})
    assert g.phase == "final cycle: choose discard"
    act_all(g, {1: "discard Kc", 2: "discard Kh"})
    # scored and hand 2 dealt: Ben holds Qd 9s 2d = 10+9+2 = 21,
    # Cleo 8d As 2s = 8+1+2 = 11 (no melds, threes wild but none held)
    assert g.rows == [[0, 21, 11]] and g.scores == [0, 21, 11]
    assert g.hand_number == 2 and "Hand 1 scores: Ana 0 (match), Ben 21, Cleo 11." in g.log


def test_BT_5_a_learner_who_misses_the_match_plays_on_and_is_not_scored_as_matched():
    g = new_game("big_table", players=["Ana", "Ben"], seed=6)
    # Ana (the learner) is complete after the deal: 5h 6h 7h.  Ben gets 9d from
    # the pool to make 9s 9c 9d.
    g.arrange(["5h 6h 7h", "9s 9c Kd"], ["2c", "Jc"], pool_top="Qs 9d")
    assert g.to_act() == [0]
    g.apply("play on", player=0)  # missed: the caller does not call it for her
    assert g.matched == [] and g.phase == "draw" and not g.observe(0).final_cycle
    # Ana draws Qs, Ben draws 9d
    act_all(g, {0: "draw pool", 1: "draw pool"})
    # Ana breaks her run by keeping the queen; Ben discards Kd and is complete
    act_all(g, {0: "discard 5h", 1: "discard Kd"})
    assert g.phase == "match calls" and g.to_act() == [1]
    g.apply("call match", player=1)
    assert g.phase == "final cycle: draw" and g.to_act() == [0]
    pool_next = g.pool.cards[-1]
    g.apply("draw pool", player=0)
    g.apply(f"discard {pool_next}" if pool_next != C("Qs") else "discard Qs", player=0)
    # Ana holds 6h 7h Qs: 6 + 7 + 10 = 23 points; only Ben matched
    assert g.rows[0] == [23, 0]
    assert [s["went_out"] for s in g.summary()] == [0, 1]


def test_BT_5_missed_match_with_nobody_else_matching_plays_on_to_the_next_cycle():
    g = new_game("big_table", players=["Ana", "Ben"], seed=7)
    g.arrange(["5h 6h 7h", "Kc Qd 9s"], ["2c", "Jc"], pool_top="Ks 8s")
    g.apply("play on", player=0)
    act_all(g, {0: "draw pool", 1: "draw pool"})
    act_all(g, {0: "discard Ks", 1: "discard Kc"})
    # still complete, so Ana is asked again; she still plays on
    assert g.to_act() == [0]
    g.apply("play on", player=0)
    assert g.phase == "draw" and g.cycle == 2 and g.matched == [] and g.rows == []


def test_two_players_complete_in_the_final_cycle_both_score_0():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=8)
    # Ana matches after the deal.  In the final cycle Ben draws 9d from the
    # pool (9s 9c 9d) and Cleo takes Ben's pile top Jc (Jh Qh + Jc? no: Cleo
    # holds Jd Js Kh and takes Ben's Jc: Jd Js Jc, discarding Kh)
    g.arrange(["5h 6h 7h", "9s 9c Kd", "Jd Js Kh"], ["2c", "Jc", "4d"], pool_top="9d")
    g.apply("call match", player=0)
    assert g.to_act() == [1, 2]
    # Cleo's right neighbour is Ben (seat 1)
    assert [str(a) for a in g.legal_actions(2)] == ["draw pool", "draw pile Jc"]
    act_all(g, {1: "draw pool", 2: "draw pile Jc"})
    act_all(g, {1: "discard Kd", 2: "discard Kh"})
    assert g.rows[0] == [0, 0, 0]
    assert "Hand 1 scores: Ana 0 (match), Ben 0 (complete), Cleo 0 (complete)." in g.log
    # only Ana called match
    assert [s["went_out"] for s in g.summary()] == [1, 0, 0]


def test_BT_5_several_players_may_call_in_the_same_window():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=9)
    g.arrange(["5h 6h 7h", "9s 9c 9d", "Kh 8d As"], ["2c", "Jc", "4d"], pool_top="Qs")
    assert g.to_act() == [0, 1]
    g.apply("call match", player=0)
    g.apply("call match", player=1)
    assert g.phase == "final cycle: draw" and g.to_act() == [2]
    g.apply("draw pool")
    g.apply("discard Qs")
    # Cleo: Kh 8d As = 10 + 8 + 1 = 19
    assert g.rows[0] == [0, 0, 19]


# ---------------------------------------------------------------------------
# BT-6 scoring


def test_BT_6_scoring_best_arrangement_with_wilds_at_face_value():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=10)
    # hand 2: 4 cards, fours wild.  Ana matches at once: 7c 8c 4h (wild) 9c.
    # Ben: 4s Kd Kh 2c -> 4s Kd Kh is a set (wild), 2c left: 2 points.
    # Cleo: 4d Qs 5h 9h: a wild alone can't meld with no partner... 4d+Qs+?
    # needs 3 cards; 5h and 9h are 4 apart (5h 4d=6h 7h? no 8h missing), so
    # best is no meld or 4d used? 5h 4d(=6h) needs a third card: none.
    # Qs 4d 5h 9h all deadwood: 10 + 4 (wild at face value) + 5 + 9 = 28.
    g.arrange(["7c 8c 4h 9c", "4s Kd Kh 2c", "4d Qs 5h 9h"], ["2d", "3s", "Ac"],
              pool_top="Ad Jc", hand=2)
    assert g.hand_number == 2 and g.rules.wild_rank == 4
    g.apply("call match", player=0)
    act_all(g, {1: "draw pool", 2: "draw pool"})  # Ben Ad, Cleo Jc
    act_all(g, {1: "discard Ad", 2: "discard Jc"})
    assert g.rows[0] == [0, 2, 28]
    assert g.score_sheet().loc["Hand 2"].tolist() == [0, 2, 28]


# ---------------------------------------------------------------------------
# BT-7 lowest total wins; ties as TT-9


def test_BT_7_lowest_total_after_11_hands_wins_ties_nobody():
    g = new_game("big_table", players=3, seed=11)
    rng = random.Random(11)
    random_until(g, rng, lambda g: False)
    assert g.is_over and g.phase == "over" and len(g.rows) == 11
    sheet = g.score_sheet()
    assert list(sheet.index) == [f"Hand {h}" for h in range(1, 12)] + ["Total"]
    assert sheet.loc["Total"].tolist() == [sum(r[i] for r in g.rows) for i in range(3)]
    best = min(g.scores)
    s = g.summary()
    if g.scores.count(best) == 1:
        assert [x["won"] for x in s] == [x == best for x in g.scores]
    with pytest.raises(GameError, match="the game is over"):
        g.apply("draw pool", player=0)
    # a tie for the lowest total: nobody wins, both share rank 1
    g.scores = [40, 40, 55]
    s = g.summary()
    assert [x["won"] for x in s] == [False, False, False]
    assert [x["rank"] for x in s] == [1, 1, 3]
    g.scores = [41, 40, 55]
    assert [x["won"] for x in g.summary()] == [False, True, False]


# ---------------------------------------------------------------------------
# BT-8 pool exhaustion


def test_BT_8_empty_pool_shuffles_all_piles_but_their_tops_into_a_new_pool():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=12)
    # the pool holds one card; the other 208 - 9 - 3 - 1 = 195 cards go under
    # the piles (65 each), whose tops stay 4h, 5c, 6d
    g.arrange(["Kc Qd 9s", "Kh 8d As", "2c 7s Jd"], ["4h", "5c", "6d"], pool="Td")
    assert len(g.pool) == 1 and sum(len(p) for p in g.piles) == 198
    under_5c = g.piles[1][-2]
    act_all(g, {0: "draw pool", 1: "draw pool", 2: "draw pile 5c"})
    # Cleo took 5c first (pile takes first), uncovering the card under it; Ana
    # got Td, the pool ran out and every pile but its top (4h, that card, 6d)
    # went into a new pool: 198 - 1 taken - 3 tops = 194 cards, then Ben drew
    # one: 193 left
    assert C("Td") in g.hands[0] and C("5c") in g.hands[2]
    assert g.piles == [[C("4h")], [under_5c], [C("6d")]]
    assert len(g.pool) == 193
    assert any("The pool is empty: the caller shuffles 194 cards" in line for line in g.log)
    g.check()


# ---------------------------------------------------------------------------
# TT-12 stall cap


def test_TT_12_a_hand_without_a_match_ends_after_200_cycles():
    g = new_game("big_table", players=2, seed=13)
    rng = random.Random(13)
    # nobody ever calls match
    while g.hand_number == 1:
        p = g.to_act()[0]
        acts = [a for a in g.legal_actions(p) if a.verb != "call match"]
        g.apply(rng.choice(acts), player=p)
    assert STALL_CYCLES == 200
    assert "No match after 200 cycles: the caller ends the hand (TT-12)." in g.log
    assert g.log.count("Caller: draw!") >= 200
    assert g.summary()[0]["went_out"] == g.summary()[1]["went_out"] == 0


# ---------------------------------------------------------------------------
# errors leave the game untouched


def test_bad_input_says_what_is_allowed_and_changes_nothing():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=14)
    g.arrange(["Kc Qd 9s", "Kh 8d As", "2c 7s Jd"], ["4h", "5c", "6d"])
    snap = (g.to_json(), [g.observe(i) for i in range(3)])
    with pytest.raises(GameError, match=r"several players act at once now \(Ana, Ben, Cleo\)"):
        g.apply("draw pool")
    with pytest.raises(GameError, match="discard Kc is not allowed for Ana now \\(draw\\); allowed: draw pool, draw pile 6d"):
        g.apply("discard Kc", player=0)
    with pytest.raises(GameError, match="not a seat: seats are 0 to 2"):
        g.apply("draw pool", player=7)
    with pytest.raises(GameError, match="is not an action"):
        g.apply("", player=0)
    g.apply("draw pool", player=0)
    with pytest.raises(GameError, match="Ana has already chosen"):
        g.apply("draw pool", player=0)
    act_all(g, {1: "draw pool", 2: "draw pool"})
    with pytest.raises(GameError, match="cannot discard 5s: it is not in their hand"):
        g.apply("discard 5s", player=0)
    with pytest.raises(GameError, match="'1x' is not a card|1x"):
        g.apply("discard 1x", player=0)
    with pytest.raises(GameError, match="call match is not allowed"):
        g.apply("call match", player=0)
    assert g.to_act() == [0, 1, 2]
    g2 = load_game(snap[0])
    assert [g2.observe(i) for i in range(3)] == snap[1]


def test_arrange_checks_its_cards():
    g = new_game("big_table", players=2, seed=15)
    with pytest.raises(GameError, match="every player holds 3 cards; seat 1 was given 2"):
        g.arrange(["Kc Qd 9s", "Kh 8d"], ["4h", "5c"])
    with pytest.raises(GameError, match="too many of As \\(5\\)"):
        g.arrange(["As As As", "As As Kd"], ["4h", "5c"])
    with pytest.raises(GameError, match="is not a card"):
        g.arrange(["Kc Qd 1x", "Kh 8d Kd"], ["4h", "5c"])
    g.arrange(["Kc Qd 9s", "Kh 8d Kd"], ["4h", "5c"])
    g.apply("draw pool", player=0)
    with pytest.raises(GameError, match="only at the start of a hand"):
        g.arrange(["Kc Qd 9s", "Kh 8d Kd"], ["4h", "5c"])


# ---------------------------------------------------------------------------
# narration, saving, undo


def test_the_log_narrates_the_caller():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=16)
    g.arrange(["Kc Qd 9s", "Kh 8d As", "Jd Js 2c"], ["7h", "5c", "Jc"], pool_top="Td 2h")
    act_all(g, {0: "draw pool", 1: "draw pile 7h", 2: "draw pile 5c"})
    act_all(g, {0: "discard Kc", 1: "discard Kh", 2: "discard 2c"})
    # Cleo took Ben's 5c and threw 2c: Jd Js 5c is not complete, so no window
    log = g.log
    i = log.index("Caller: draw!", log.index("The table is set for hand 1: piles show "
                                             "Ana 7h, Ben 5c, Cleo Jc."))
    assert log[i:i + 4] == [
        "Caller: draw!",
        "Ben takes 7h from Ana's pile",
        "Cleo takes 5c from Ben's pile",
        "Ana draws from the pool",
    ]
    assert log[i + 4:i + 8] == ["Caller: discard!", "Ana discards Kc", "Ben discards Kh",
                                "Cleo discards 2c"]
    assert log[i + 8] == "Caller: draw!"
    # the card Ana drew from the pool (Td) is never named in the log
    assert not any("Td" in line for line in log)


def test_call_match_is_narrated():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=17)
    g.arrange(["Kc Qd 9s", "Kh 8d As", "Jd Js 2c"], ["7h", "Jc", "5c"], pool_top="Td 2h")
    act_all(g, {0: "draw pool", 1: "draw pool", 2: "draw pile Jc"})
    act_all(g, {0: "discard Kc", 1: "discard Kh", 2: "discard 2c"})
    g.apply("call match", player=2)
    assert "Cleo calls match: [Jc Jd Js]" in g.log


def test_json_round_trip_and_undo():
    g = new_game("big_table", players=4, seed=18)
    g.arrange(["Kc Qd 9s", "Kh 8d As", "Jd Js 2c", "5h 6h 7h"], ["7h", "5c", "Jc", "2d"])
    rng = random.Random(18)
    for _ in range(150):
        p = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(p)), player=p)
    text = g.to_json()
    data = json.loads(text)
    assert set(data) >= {"variant", "players", "seed", "options", "actions", "setups"}
    assert data["variant"] == "big_table" and data["options"] == {"packs": 4, "max_players": 12}
    g2 = load_game(text)
    assert g2.to_json() == text
    assert [g2.observe(i) for i in range(4)] == [g.observe(i) for i in range(4)]
    assert g2.hands == g.hands and g2.pool.cards == g.pool.cards
    # undo one action, then the same action again gives the same game
    seat, last = g.history[-1]
    g.undo()
    assert len(g.history) == 149
    g.apply(last, player=seat)
    assert g.to_json() == text
    # undo back to a player's own last action: it and everything after go
    last_of_2 = max(i for i, (s, _a) in enumerate(g.history) if s == 2)
    g.undo(player=2)
    assert len(g.history) == last_of_2
    assert g.to_json() == load_game(json.dumps(data | {"actions": data["actions"][:last_of_2]})
                                    ).to_json()


def test_summary_and_observation_fields():
    g = new_game("big_table", players=2, seed=19)
    s = g.summary()
    assert s == [{"seat": i, "player": name, "score": 0, "rank": 1, "won": False, "went_out": 0}
                 for i, name in enumerate(["Ana", "Ben"])]
    o = g.observe(0)
    assert o.variant.family == "big_table" and o.players == ("Ana", "Ben")
    assert o.packs == 4 and o.hand_number == 1 and o.scores == (0, 0)
    assert isinstance(o.log, tuple) and o.hand == tuple(sorted(g.hands[0]))
    assert o.pool_size == 208 - 2 * 4
    assert Counter(deck(4)) == g.card_counts()
    assert all(isinstance(a, Action) for a in o.legal_actions)


def test_BT_5_when_everybody_matches_the_hand_is_scored_at_once():
    g = new_game("big_table", players=["Ana", "Ben"], seed=24)
    g.arrange(["5h 6h 7h", "9s 9c 9d"], ["2c", "Jc"])
    g.apply("call match", player=0)
    g.apply("call match", player=1)
    assert "Everybody has matched: the hand is scored at once." in g.log
    assert g.rows == [[0, 0]] and g.hand_number == 2
