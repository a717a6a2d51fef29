"""Gin bots: greedy and expert choices in hand-made positions, the expert's
memory and knock judgment, the captain weighing the advisor's advice, and
the simulate command line."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from rummy import cards, new_game
from rummy.action import Action
from rummy.bots import ExpertBot, GreedyBot, RandomBot, make_bot
from rummy.bots.gin import expert, greedy
from tests.positions import position

ROOT = Path(__file__).resolve().parents[1]


def test_greedy_takes_the_upcard_only_when_it_lowers_deadwood():
    # Qs joins 9s-Ts-Js: deadwood 10 (Kd) -> 0 after discarding Kd
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Kd",
                 discard="Qs", phase="upcard")
    a, why = greedy(g.observe(1), random.Random(0))
    assert a == Action.parse("take upcard") and "from 10 to 0" in why
    g2 = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Kd",
                  discard="Qh", phase="upcard")   # Qh for Kd: still 10
    assert greedy(g2.observe(1), random.Random(0))[0] == Action.parse("pass")


def test_greedy_knocks_and_goes_gin_as_soon_as_it_may():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Qs Kd")
    assert greedy(g.observe(1), random.Random(0))[0] == Action.parse("gin Kd")
    g = position("Ah 2h 6h 6d 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s Ad 2d 3h 4s Kh")
    assert greedy(g.observe(1), random.Random(0))[0] == Action.parse("knock Kh")


# Captain: melds 2c3c4c, 7h7d7s; Qd or Qh leaves 25 (Q + 5s 9c Ah).
FEED_CAP = "2c 3c 4c 7h 7d 7s Qd Qh 5s 9c Ah"
FEED_BOX = "Jd Kd 2h 3h 4h 5c 6c 8s 9s Ts"


def _feeding_position():
    g = position(FEED_BOX, FEED_CAP)
    g.taken = {0: list(cards("Jd Kd")), 1: []}   # the box took Jd and Kd face up
    return g


def test_expert_does_not_feed_the_opponent_greedy_does():
    g = _feeding_position()
    obs = g.observe(1)
    assert greedy(obs, random.Random(0))[0] == Action.parse("discard Qd")   # tie: first card
    a, why = expert(obs, random.Random(0), {})
    assert a == Action.parse("discard Qh")                                  # Jd Qd Kd is a run
    assert "safe against what the opponent took" in why


def test_expert_remembers_what_the_opponent_passed_by():
    g = _feeding_position()
    memory: dict = {}
    a, _ = expert(g.observe(1), random.Random(0), memory)
    g.apply(a)
    g.apply("draw stock", player=0)             # the box passes the expert's discard by
    g.apply("discard 2h", player=0)
    expert(g.observe(1), random.Random(0), memory)
    assert a.card in memory["declined"]


def test_expert_waits_instead_of_knocking_into_an_undercut():
    # knock Kh would leave 10; the box took 9 cards face up that are three melds,
    # so its deadwood is at most one card: an undercut is near certain.
    g = position("9c 9d 9h Tc Jc Qc 4d 5d 6d Ks", "2c 3c 4c 7h 7d 7s Ad 2d 3h 4s Kh")
    g.taken = {0: list(cards("9c 9d 9h Tc Jc Qc 4d 5d 6d")), 1: []}
    g.turns = 30
    obs = g.observe(1)
    assert greedy(obs, random.Random(0))[0].verb == "knock"
    a, why = expert(obs, random.Random(0), {})
    assert a.verb == "discard" and "undercut" in why


def test_expert_knocks_when_the_odds_favour_it():
    g = position("Ah 2h 6h 6d 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Ad Kh")
    g.turns = 2
    a, why = expert(g.observe(1), random.Random(0), {})
    assert a == Action.parse("knock Kh") and "chance of an undercut" in why


def test_captain_bot_weighs_the_advisors_advice():
    for bot in (GreedyBot(seed=1), ExpertBot(seed=1)):
        g = _feeding_position()
        g.advise("discard 9c")                       # 26 against 25: about as good
        obs = g.observe(1)
        assert obs.advice is not None and obs.advice.action == Action.parse("discard 9c")
        assert bot.choose(obs) == Action.parse("discard 9c")
        assert bot.explain(obs).startswith("I take the advice")
        g = _feeding_position()
        g.advise("discard 2c")                       # breaks 2c-3c-4c: much worse
        obs = g.observe(1)
        assert bot.choose(obs) != Action.parse("discard 2c")
        assert bot.explain(obs).startswith("I ignore the advice")


def test_bot_advisor_offers_advice_with_a_reason_when_the_learner_is_captain():
    g = position("Ah 2h 3h 5c 5d 8c 9d Th Kc Ks", "2c 3c 4c 7h 7d 7s 9s Ts Js Qs Kd")
    adv = g.advice(bot="expert")
    assert adv.action == Action.parse("gin Kd") and "gin" in adv.reason
    assert g.advice(bot="greedy").action == Action.parse("gin Kd")


def test_every_bot_plays_only_legal_moves_in_whole_games():
    for lineup in (("expert", "greedy", "random"), ("random", "expert", "expert")):
        g = new_game("gin_three", seed=len(lineup[0]), target=50)
        bots = [make_bot(n, seed=i) for i, n in enumerate(lineup)]
        while not g.is_over:
            p = g.to_act()[0]
            obs = g.observe(p)
            a = bots[p].choose(obs)
            assert a in obs.legal_actions and bots[p].explain(obs)
            g.apply(a, player=p)
    assert isinstance(bots[0], RandomBot)


def test_simulate_command_line_plays_gin_three():
    out = subprocess.run(
        [sys.executable, "-m", "rummy", "simulate", "gin_three", "--bots", "expert,greedy,greedy",
         "--games", "2", "--seed", "1", "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "gin_three" in out.stdout and "expert" in out.stdout


def test_expert_bots_finish_a_game_where_a_card_is_taken_twice() -> None:
    # seed 0: the opponent takes the same card from the pile twice; the expert's
    # knock judgment once counted it twice ("3c is twice in the hand")
    game = new_game("gin_three", players=3, seed=0)
    bots = [make_bot("expert", seed=i) for i in range(3)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].choose(game.observe(seat)))
    assert game.is_over
