"""Big Table bots (greedy, expert, random through rummy.bots) and simulate.

Expected moves are worked out by hand in the comments.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from dataclasses import replace

import pytest

from rummy import new_game
from rummy.action import Action
from rummy.bots import ExpertBot, GreedyBot, RandomBot, make_bot
from rummy.bots import big_table as strategy
from rummy.cards import cards


def _position(hands, piles, pool_top="", hand=None, players=("Ana", "Ben", "Cleo")):
    g = new_game("big_table", players=list(players), seed=31)
    g.arrange(hands, piles, pool_top=pool_top, hand=hand)
    return g


def _sentence_with_numbers(why: str) -> bool:
    return why.endswith(".") and re.search(r"\d", why) is not None


def test_greedy_takes_the_pile_card_only_when_it_lowers_the_penalty():
    # hand 1, threes wild.  Ana: 5h 6h Kc = 5 + 6 + 10 = 21 points.  Her right
    # neighbour is Cleo (seat 2).  Cleo's 7h makes the run 5h 6h 7h; Ana then
    # discards Kc and holds 0 points.
    g = _position(["5h 6h Kc", "Kh 8d As", "2c 7s Jd"], ["4d", "5c", "7h"])
    action, why = strategy.greedy(g.observe(0), random.Random(0))
    assert str(action) == "draw pile 7h"
    assert "from 21 to 0 points" in why and _sentence_with_numbers(why)
    # Qd instead: 5h 6h Kc Qd leaves 21 at best (throw Kc or Qd), no better
    g = _position(["5h 6h Kc", "Kh 8d As", "2c 7s Jd"], ["4d", "5c", "Qd"])
    action, why = strategy.greedy(g.observe(0), random.Random(0))
    assert action == Action("draw pool")
    assert "21 points at best, no better than my 21" in why


def test_greedy_discards_the_card_that_leaves_the_least_and_calls_match():
    g = _position(["5h 6h Kc", "Kh 8d As", "2c 7s Jd"], ["4d", "5c", "7h"], pool_top="2d 9c")
    for seat in range(3):
        g.apply(strategy.greedy(g.observe(seat), random.Random(0))[0], player=seat)
    # Ana took 7h: 5h 6h 7h Kc -> discard Kc, 0 left
    action, why = strategy.greedy(g.observe(0), random.Random(0))
    assert action == Action.parse("discard Kc")
    assert why == "Discarding Kc leaves 0 points of deadwood (0 unmelded cards)."
    for seat in range(3):
        g.apply(strategy.greedy(g.observe(seat), random.Random(0))[0], player=seat)
    assert g.phase == "match calls" and 0 in g.to_act()
    action, why = strategy.greedy(g.observe(0), random.Random(0))
    assert action == Action("call match") and "All 3 of my cards are melded" in why


def _discard_obs(**changes):
    """Ana in hand 2 (fours wild) holding 7c 8c 9c Kd Ks after her draw:
    throwing Kd or Ks both leave 10 points."""
    g = _position(["7c 8c 9c Kd", "Kh 8d As 2s", "2c 7s Jd 6h"], ["5d", "5c", "Ks"],
                  pool_top="Qh Ts", hand=2)
    g.apply("draw pile Ks", player=0)
    g.apply("draw pool", player=1)
    g.apply("draw pool", player=2)
    obs = g.observe(0)
    assert obs.hand == cards("7c 8c 9c Kd Ks")
    return replace(obs, **changes)


def test_expert_does_not_feed_its_left_neighbour():
    # Ben (Ana's left neighbour) has taken Qd from Ana's pile: Kd would help
    # him (Qd Kd + a wild is a run), so the expert throws Ks instead.
    # Greedy breaks the 10-10 tie by suit order and throws Kd.
    obs = _discard_obs(taken=(cards(""), cards("Qd"), cards("")))
    assert obs.left == 1
    g_action, _ = strategy.greedy(obs, random.Random(0))
    assert g_action == Action.parse("discard Kd")
    action, why = strategy.expert(obs, random.Random(0), {})
    assert action == Action.parse("discard Ks")
    assert why.startswith("Discarding Ks leaves 10 points") and _sentence_with_numbers(why)


def test_expert_keeps_cards_that_go_with_what_its_right_neighbour_sends():
    # Cleo (Ana's right neighbour, whose pile Ana draws from) keeps throwing
    # spades near the king: Qs and Js.  Ana keeps Ks and throws Kd.
    obs = _discard_obs(discarded=(cards(""), cards(""), cards("Js Qs")))
    assert obs.right == 2
    action, _ = strategy.expert(obs, random.Random(0), {})
    assert action == Action.parse("discard Kd")


def test_expert_counts_only_points_in_the_final_cycle():
    # 7c 8c 9c Kd 2d: throwing Kd leaves 2 points, throwing 2d leaves 10.
    # Ben has taken Qd (so Kd would feed him) but in the final cycle only the
    # points count: the expert throws Kd.
    g = _position(["7c 8c 9c Kd", "Kh 8d As 2s", "2c 7s Jd 6h"], ["5d", "5c", "2d"],
                  pool_top="Qh Ts", hand=2)
    for seat, act in enumerate(["draw pile 2d", "draw pool", "draw pool"]):
        g.apply(act, player=seat)
    obs = replace(g.observe(0), taken=(cards(""), cards("Qd"), cards("")))
    action, why = strategy.expert(replace(obs, final_cycle=True), random.Random(0), {})
    assert action == Action.parse("discard Kd")
    assert "only points count" in why
    # earlier in the hand it would give up at most 3 points (its slack with 3
    # players) not to feed Ben; 2 against 10 is too far apart, so Kd again
    action, _ = strategy.expert(obs, random.Random(0), {})
    assert action == Action.parse("discard Kd")


def test_expert_takes_a_wild_from_the_pile_and_compares_with_the_pool():
    # hand 1: threes are wild; Cleo's pile shows 3d
    g = _position(["5h 9c Kc", "Kh 8d As", "2c 7s Jd"], ["4d", "5c", "3d"])
    action, why = strategy.expert(g.observe(0), random.Random(0), {})
    # 5h 9c Kc = 24 points.  With the wild 3d no two naturals can share a
    # meld, so nothing melds; discarding Kc leaves 5h 9c 3d = 5 + 9 + 3 = 17
    # (a wild unmelded costs its face value)
    assert str(action) == "draw pile 3d"
    assert why == ("3d on Cleo's pile is wild, so I take it (my penalty goes from 24 to 17 "
                   "after my best discard).")
    # 7h makes 5h 6h 7h: 0 points, which no pool card beats
    g = _position(["5h 6h Kc", "Kh 8d As", "2c 7s Jd"], ["4d", "5c", "7h"])
    action, why = strategy.expert(g.observe(0), random.Random(0), {})
    assert str(action) == "draw pile 7h" and "leaves 0 points" in why
    assert _sentence_with_numbers(why)
    # Ks on the pile with 5h 6h Ac (12 points): the king helps nothing, so it
    # leaves 12 at best; a pool card leaves 12 at worst and less when it is a
    # 4h, 7h, an ace or a three (wild), so the sampled average is lower here
    g = _position(["5h 6h Ac", "Kh 8d As", "2c 7s Jd"], ["4d", "5c", "Ks"])
    action, why = strategy.expert(g.observe(0), random.Random(0), {})
    assert action == Action("draw pool") and "cards tried" in why


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, ExpertBot])
def test_rummy_bots_play_big_table_and_explain(bot):
    g = new_game("big_table", players=5, seed=32)
    b = bot(seed=1)
    for _ in range(60):
        p = g.to_act()[0]
        obs = g.observe(p)
        why = b.explain(obs)
        action = b.choose(obs)
        assert action in obs.legal_actions
        assert why and re.search(r"\d", why)
        g.apply(action, player=p)


def test_expert_beats_random():
    # 4 seats: expert, random, random, random; random players keep most of
    # their cards unmelded, so the expert's total is far lower in every game
    for seed in (1, 2):
        g = new_game("big_table", players=4, seed=seed)
        bots = [make_bot("expert", seed=seed)] + [make_bot("random", seed=seed + i)
                                                  for i in range(1, 4)]
        while not g.is_over:
            p = g.to_act()[0]
            g.apply(bots[p].choose(g.observe(p)), player=p)
        assert g.scores[0] < min(g.scores[1:]), g.scores


def test_simulate_big_table_with_twelve_greedy_bots():
    from rummy.simulate import simulate

    df = simulate("big_table", ["greedy"] * 12, games=1, seed=1, progress=False)
    assert len(df) == 12 and sorted(df["seat"]) == list(range(12))
    assert df["rank"].min() == 1 and df["went_out"].sum() >= 1


def test_simulate_command_line_for_big_table():
    out = subprocess.run(
        [sys.executable, "-m", "rummy", "simulate", "big_table", "--players", "3",
         "--bots", "greedy", "--games", "2", "--seed", "1", "--no-progress"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert "big_table" in out.stdout and "Cleo" in out.stdout
