"""The bot framework and the Three-Thirteen bots: names, dispatch, legality,
reading only the observation, greedy and expert choices, explanations, memory."""

from __future__ import annotations

import random
import re
import sys
import types

import pytest

from rummy import Action, cards, new_game
from rummy.bots import (
    Bot,
    BotError,
    ExpertBot,
    GreedyBot,
    RandomBot,
    bot_names,
    hint,
    make_bot,
    strategy_module,
)
from rummy.bots import base as bots_base
from rummy.bots.three_thirteen import expert, greedy, unseen_cards
from rummy.cards import Card
from rummy.table import Stock
from rummy.three_thirteen import Event
from tests.positions import hidden_swap


def rig(variant="three_thirteen", players=2, hands=(), stock="", pile="", current=0, **options):
    g = new_game(variant, players=players, seed=0, **options)
    g.hands = [list(cards(h)) for h in hands]
    g.stock = Stock(list(cards(stock)))
    g.pile = list(cards(pile))
    g.events = [Event("turn up", None, g.pile[-1])] if g.pile else []
    g.current = current
    g.phase = "draw"
    return g


# -- names and dispatch ------------------------------------------------------------------


def test_make_bot_by_name():
    assert bot_names() == ("random", "greedy", "expert")
    assert isinstance(make_bot("RANDOM", seed=1), RandomBot)
    assert isinstance(make_bot(" greedy "), GreedyBot)
    b = ExpertBot(seed=3)
    assert make_bot(b) is b and repr(b) == "ExpertBot(seed=3)"
    with pytest.raises(BotError, match="unknown bot 'clever'; the bots are: random, greedy, expert"):
        make_bot("clever")


def test_strategy_dispatch_on_family_and_missing_module(monkeypatch):
    assert strategy_module("three_thirteen").__name__ == "rummy.bots.three_thirteen"
    with pytest.raises(BotError, match="no bot strategy for the 'bridge' family"):
        strategy_module("bridge")
    monkeypatch.setitem(bots_base.STRATEGY_MODULES, "nowhere", "rummy.bots.nowhere_at_all")
    with pytest.raises(BotError, match="module rummy.bots.nowhere_at_all is missing"):
        strategy_module("nowhere")
    half = types.ModuleType("rummy.bots.half_done")
    half.greedy = lambda obs, rng: None
    monkeypatch.setitem(sys.modules, "rummy.bots.half_done", half)
    monkeypatch.setitem(bots_base.STRATEGY_MODULES, "half", "rummy.bots.half_done")
    with pytest.raises(BotError, match="must define a function expert"):
        strategy_module("half")


def test_bot_without_a_move_says_so():
    g = new_game("three_thirteen", players=2, seed=1)
    waiting = g.observe(1 - g.current_player)
    with pytest.raises(BotError, match="has no legal move now"):
        RandomBot().choose(waiting)


# -- legality, determinism, reading only the observation ----------------------------------


@pytest.mark.parametrize("variant, options, players", [
    ("three_thirteen", {}, 3),
    ("tre_tretton", {}, 4),
    ("three_thirteen_jokers", {"jokers": 4, "aces": "high"}, 4),
    ("three_thirteen", {"aces": "low_or_high", "discard_return": True}, 2),
])
def test_every_bot_plays_legal_moves_and_explains_them(variant, options, players):
    g = new_game(variant, players=players, seed=17, **options)
    bots = [make_bot(name, seed=i) for i, name in
            zip(range(players), ["expert", "greedy", "random", "expert"])]
    for _ in range(260):
        if g.is_over:
            break
        p = g.current_player
        obs = g.observe(p)
        why = bots[p].explain(obs)
        act = bots[p].choose(obs)
        assert act in obs.legal_actions
        assert act == bots[p].choose(obs)  # the same observation, the same move
        assert why and (bots[p].name == "random" or re.search(r"\d", why)), why
        g.apply(act, player=p)


def test_bots_read_only_the_observation():
    """Re-deal every card a bot can't see: greedy and expert choose the same."""
    g = new_game("three_thirteen", players=3, seed=5)
    rnd = random.Random(2)
    compared = 0
    for step in range(120):
        p = g.current_player
        if step % 3 == 0:
            h = hidden_swap(g, p, rnd)
            for name in ("greedy", "expert"):
                a = make_bot(name, seed=9).choose(g.observe(p))
                b = make_bot(name, seed=9).choose(h.observe(p))
                assert a == b
                compared += 1
        g.apply(make_bot("greedy").choose(g.observe(p)), player=p)
    assert compared >= 60


# -- greedy ---------------------------------------------------------------------------------


def test_greedy_takes_a_discard_only_when_it_lowers_the_penalty():
    # round 1 (threes wild): Ana 7h 8h Kc = 25 points.  Top 9h: keep 7h 8h 9h, throw Kc -> 0
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d", pile="9h")
    act, why = greedy(g.observe(0), None)
    assert str(act) == "draw discard"
    assert why == "take 9h: then discarding Kc leaves 0 points instead of 25 now"
    # top Qd: 7h 8h Kc Qd -> best discard Kc or Qd leaves 25 -> no better: draw the stock
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d", pile="Qd")
    act, why = greedy(g.observe(0), None)
    assert str(act) == "draw stock" and why == "draw from the stock: Qd would not lower my 25 points"



def test_greedy_states_the_penalty_now_and_after_taking_the_brute_forces_figures():
    # at every draw of two whole games, the points the greedy bot says it
    # holds now (read off its search of the hand plus the top card when it
    # would throw that card back) and would keep are the brute force's
    from tests.brute import brute_min_after_discard, brute_min_penalty

    told = 0
    for seed in (3, 4):
        g = new_game("three_thirteen", players=3, seed=seed)
        bots = [make_bot("greedy", seed=i) for i in range(3)]
        while not g.is_over:
            p = g.current_player
            obs = g.observe(p)
            act, why = greedy(obs, None)
            if obs.phase == "draw" and obs.discard_top is not None and obs.round <= 6:
                kw = dict(wild_rank=obs.rules.wild_rank, aces=obs.rules.aces)
                now = brute_min_penalty(obs.hand, **kw)
                numbers = [int(n) for n in re.findall(r"(\d+) points", why)]
                if str(act) == "draw stock":
                    assert numbers == [now], why
                else:
                    left = brute_min_after_discard((*obs.hand, obs.discard_top), **kw)
                    assert numbers == [left] and f"instead of {now} now" in why, why
                    assert left < now
                told += 1
            g.apply(bots[p].choose(obs), player=p)
    assert told > 80

def test_greedy_discards_the_card_leaving_the_lowest_penalty_and_goes_out():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="2d", pile="Qd")
    g.apply("draw stock")  # 7h 8h Kc 2d: throw Kc -> 7 + 8 + 2 = 17
    act, why = greedy(g.observe(0), None)
    assert str(act) == "discard Kc"
    assert why == "discard Kc (10 points): it leaves 17 points, the lowest I can keep"
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="9h", pile="Qd")
    g.apply("draw stock")
    act, why = greedy(g.observe(0), None)
    assert str(act) == "go out Kc"
    assert why == "go out discarding Kc: [7h 8h 9h] use every other card, so I score 0"


def test_greedy_never_throws_back_the_card_it_took():
    # Ana takes 9d: 9d Kc Ks Qd... the lowest penalty would throw 9d back; that is not allowed
    g = rig(hands=["Kc Ks Qd", "2c 5d 9s"], stock="4d", pile="9d")
    g.apply("draw discard")
    act, why = greedy(g.observe(0), None)
    assert act != Action.parse("discard 9d") and act in g.legal_actions()
    # each allowed card leaves 29 points (two tens and 9d): the tie goes to the
    # first card in suit order, Kc
    assert str(act) == "discard Kc"
    assert why == "discard Kc (10 points): it leaves 29 points, the lowest I can keep"
    # a learner takes Kd onto 2c 2d Ah: throwing Kd back would be best (5 points)
    # but is not allowed; of the rest, 2c or 2d leave 13 (Ah 14): the tie goes to 2c
    g = rig(hands=["2c 2d Ah", "2h 5d 9s"], stock="4d", pile="Kd")
    g.apply("draw discard")
    act, why = greedy(g.observe(0), None)
    assert why == "discard 2c (2 points): it leaves 13 points, the lowest I can keep"
    assert act in g.legal_actions() and str(act) == "discard 2c"


# -- expert ---------------------------------------------------------------------------------


def test_expert_counts_outs_among_unseen_cards():
    # one pack, 2 players, round 1 (threes wild).  Ana holds 7h 8h Kc and draws Qd.
    # Seen: her 4 cards and the turned-up 2c -> 52 - 5 = 47 unseen.  7h 8h is completed
    # by 6h or 9h (1 each) or one of the 4 threes: 6 outs.
    g = rig(hands=["7h 8h Kc", "2s 5d 9s"], stock="Qd", pile="2c")
    g.apply("draw stock")
    obs = g.observe(0)
    unseen = unseen_cards(obs)
    assert sum(unseen.values()) == 47 and unseen[Card.parse("2c")] == 0
    act, why = expert(obs, None, {})
    assert str(act) == "discard Qd" or str(act) == "discard Kc"
    assert "keep 7h 8h: 6 unseen cards (6h, 9h, 4 wilds left) complete it" in why
    assert why.startswith(f"discard {act.card}: 10 points, no meld uses it")


def test_expert_unseen_cards_are_the_shoe_less_every_card_seen():
    """At every decision of expert games with two packs and jokers: the unseen
    cards are the shoe (Counter of rummy.deck) less the own hand, the pile
    the expert followed, the cards each opponent took and still holds, and
    the melds opponents laid down, each counted once, never below zero (the
    definition, written with Counters; the bot counts by card index)."""
    from collections import Counter

    from rummy import deck

    for seed in (1, 2):
        g = new_game("three_thirteen_jokers", players=4, seed=seed, jokers=2)
        bots = [ExpertBot(seed=i) for i in range(4)]
        checked = 0
        while g.round <= 3:
            p = g.current_player
            obs = g.observe(p)
            act = bots[p].choose(obs)
            memory = bots[p].memory
            want = Counter(deck(obs.packs, obs.jokers))
            want.subtract(obs.hand)
            want.subtract(memory["pile"])
            for q, held in enumerate(memory["known"]):
                if q != p:
                    want.subtract(held)
            for q, melds in obs.shown:
                if q != p:
                    for m in melds:
                        want.subtract(m.cards)
            got = unseen_cards(obs, memory)
            assert got == +want
            assert list(got) == list(+want)  # in shoe order, as a Counter lists them
            assert sum(got.values()) == sum((+want).values()) > 0
            checked += 1
            g.apply(act, player=p)
        assert checked > 50


def test_expert_remembers_what_the_next_player_picked_up():
    # Ben (next after Ana in a 2-player game) took Kc from the pile.  Ana must throw Kd
    # or Qs (both 10 points, both unmelded): greedy throws Kd (first in suit order),
    # the expert keeps Kd away from Ben and throws Qs.
    g = rig(hands=["7h 8h 9h Kd", "2c 5d 9s Ts"], stock="Qs", pile="4c Kc", current=1)
    g.apply("draw discard")  # Ben takes Kc
    g.apply("discard 2c")
    g.apply("draw stock")  # Ana draws Qs
    obs = g.observe(0)
    assert obs.picked[1] == (Card.parse("Kc"),)
    assert str(GreedyBot().choose(obs)) == "discard Kd"
    bot = ExpertBot()
    assert str(bot.choose(obs)) == "discard Qs"
    assert bot.memory["took"][1] == [Card.parse("Kc")]


def test_expert_takes_a_discard_that_lets_it_go_out():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d", pile="9h")
    act, why = expert(g.observe(0), None, {})
    assert str(act) == "draw discard"
    assert why == "take 9h: with it every card but Kc is in melds, so I go out"
    g.apply(act)
    act, why = expert(g.observe(0), None, {})
    assert str(act) == "go out Kc" and "I score 0" in why


def test_expert_memory_resets_on_a_new_round_and_a_new_game():
    bot = ExpertBot(seed=1)
    g = new_game("three_thirteen", players=2, seed=44)
    greedy_bot = GreedyBot()
    keys = set()
    while g.round < 3:
        p = g.current_player
        obs = g.observe(p)
        act = bot.choose(obs) if p == 0 else greedy_bot.choose(obs)
        if p == 0:
            keys.add(bot.memory.key)
            assert bot.memory.key[3] == g.round
            assert bot.memory["seen"] == len(obs.events)
        g.apply(act, player=p)
    assert len(keys) == 2
    fresh = new_game("three_thirteen", players=2, seed=45)
    while fresh.current_player != 0:
        fresh.apply(greedy_bot.choose(fresh.observe(fresh.current_player)))
    bot.choose(fresh.observe(0))
    assert bot.memory.key[3] == 1 and bot.memory["seen"] == len(fresh.observe(0).events)


def test_hint_is_the_expert_choice_and_its_reason():
    g = rig(hands=["7h 8h Kc", "2c 5d 9s"], stock="4d", pile="9h")
    move, why = hint(g.observe(0))
    assert str(move) == "draw discard" and why.startswith("take 9h")
    coach = ExpertBot()
    assert hint(g.observe(0), coach) == (move, why)


def test_bot_subclass_interface():
    class AlwaysStock(Bot):
        name = "stock"

        def decide(self, obs):
            return Action.parse("draw stock"), "always the stock"

    g = new_game("three_thirteen", players=2, seed=1)
    b = AlwaysStock()
    assert str(b.choose(g.observe(g.current_player))) == "draw stock"
    assert b.explain(g.observe(g.current_player)) == "always the stock"


def test_a_bot_decides_once_for_equal_observations():
    # explain(obs) then choose(obs): one decision, for the same observation
    # or an equal one made again; a new one (after a move, or another seat's
    # with a log of the same length) is decided afresh
    class Counting(Bot):
        name = "counting"
        calls = 0

        def decide(self, obs):
            self.calls += 1
            return obs.legal_actions[0], f"decision {self.calls}"

    g = new_game("three_thirteen", players=2, seed=1)
    b = Counting()
    obs = g.observe(g.current_player)
    assert b.explain(obs) == "decision 1" and b.choose(obs) == obs.legal_actions[0]
    again = g.observe(g.current_player)
    assert again is not obs and b.explain(again) == "decision 1" and b.calls == 1
    other = g.observe(1 - g.current_player)  # the same log, another seat
    assert len(other.log) == len(obs.log)
    with pytest.raises(BotError, match="has no legal move now"):
        b.explain(other)
    g.apply(b.choose(obs))
    assert b.explain(g.observe(g.current_player)) == "decision 2" and b.calls == 2


def test_greedy_bot_writes_its_reason_only_when_asked_and_says_what_greedy_says():
    # GreedyBot moves with greedy_deferred, whose reason is a function: choose
    # alone writes no sentence; explain writes it once (before or after
    # choose) and it is greedy's own.  A subclass's decide is still obeyed.
    from rummy.bots import three_thirteen as strategy

    written = []
    deferred = strategy.greedy_deferred

    def counting(obs, rng):
        act, why = deferred(obs, rng)

        def write():
            written.append(1)
            return why()

        return act, write

    g = new_game("three_thirteen", players=3, seed=8)
    bots = [GreedyBot(seed=i) for i in range(3)]
    steps = 0
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(strategy, "greedy_deferred", counting)
        while not g.is_over and steps < 240:
            seat = g.current_player
            obs = g.observe(seat)
            act, why = greedy(obs, None)
            bot = bots[seat]
            before = len(written)
            if steps % 3 == 0:
                assert bot.explain(obs) == why and bot.choose(obs) == act
            else:
                assert bot.choose(obs) == act
                assert len(written) == before  # no sentence written for a move
                if steps % 3 == 1:
                    assert bot.explain(obs) == why and bot.explain(obs) == why
            assert len(written) - before == (steps % 3 != 2)  # at most once
            g.apply(act, player=seat)
            steps += 1
    finally:
        mp.undo()
    assert steps == 240

    class Stubborn(GreedyBot):
        def decide(self, obs):
            return obs.legal_actions[-1], "the last move"

    g = new_game("three_thirteen", players=2, seed=1)
    obs = g.observe(g.current_player)
    b = Stubborn()
    assert b.choose(obs) == obs.legal_actions[-1] and b.explain(obs) == "the last move"
