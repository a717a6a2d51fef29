"""Big Table self-play and properties: card conservation and termination
after every phase over thousands of hands, hidden information, and the fast
completeness test against the exact solver.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummy import all_melded, best_arrangement, new_game
from rummy.action import Action
from rummy.big_table import STALL_CYCLES, BigTableGame
from rummy.cards import Card, deck

HANDS = 1000
CALL = Action("call match")


def lean_choice(g: BigTableGame, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """A random player with one habit: it calls match when it can and
    discards, at random, one of its cards with the fewest partners (cards of
    the same rank or of the same suit within two ranks), never a wild.  It
    reads only its own hand.  Hands end far sooner than with uniform play."""
    if legal[0] == CALL:
        return CALL
    if legal[0].verb != "discard":
        return rng.choice(legal)
    hand = g.hands[seat]
    wild = g.rules.wild_rank
    best = None
    pick: list[Action] = []
    for a in legal:
        c = a.card
        assert c is not None
        if c.rank == wild:
            score = 99
        else:
            score = sum(1 for d in hand if d is not c and d.rank != wild and (
                d.rank == c.rank or (d.suit == c.suit and abs(d.rank - c.rank) <= 2)))
        if best is None or score < best:
            best, pick = score, [a]
        elif score == best:
            pick.append(a)
    return rng.choice(pick)


def self_play(players: int, hands: int, seed: int, lean: bool = True) -> dict[str, int]:
    """Random legal moves until ``hands`` hands are scored; checks every
    invariant after every phase.  Returns counts for the report.

    Seat 0 picks uniformly among its legal moves (so it calls match or plays
    on at random); with ``lean`` the others are :func:`lean_choice` players,
    else uniform too (hands then often run to the 200-cycle cap)."""
    rng = random.Random(seed)
    stats: Counter[str] = Counter()
    while stats["hands"] < hands:
        g = new_game("big_table", players=players, seed=rng.randrange(2**32))
        g.check(full=True)
        where = (g.hand_number, g.cycle, g.phase)
        actions_in_hand = 0
        # termination: a cycle is at most 2 actions per seat plus a match
        # window, and a hand at most 200 cycles plus the final one
        limit = (STALL_CYCLES + 1) * 3 * players + players
        while not g.is_over:
            p = g.to_act()[0]
            legal = g.legal_actions(p)
            if p and lean:
                g.apply(lean_choice(g, p, legal, rng), player=p)
            else:
                g.apply(rng.choice(legal), player=p)
            stats["actions"] += 1
            actions_in_hand += 1
            assert actions_in_hand <= limit
            now = (g.hand_number, g.cycle, g.phase)
            if now != where:
                g.check()  # cards conserved, hand sizes, phase
                if now[0] != where[0] or g.is_over:
                    g.check(full=True)
                    stats["hands"] += 1
                    stats["cycles"] += where[1]
                    stats["stalls"] += where[1] >= STALL_CYCLES
                    actions_in_hand = 0
                where = now
        assert len(g.rows) == 11 and g.phase == "over" and g.to_act() == []
        assert g.scores == [sum(r[i] for r in g.rows) for i in range(players)]
        stats["games"] += 1
        stats["matches"] += sum(g.matches)
        stats["reshuffles"] += sum(1 for line in g.log if line.startswith("The pool is empty"))
        stats["played on"] += sum(1 for _s, a in g.history if a.verb == "play on")
    return dict(stats)


@pytest.mark.parametrize("players", [2, 5, 12])
def test_self_play_1000_hands_conserve_cards_and_terminate(players):
    stats = self_play(players, HANDS, seed=players)
    assert stats["hands"] >= HANDS
    assert stats["matches"] > 0 and stats["played on"] > 0
    print(f"{players} players: {stats}")


def test_uniform_random_self_play_reaches_the_stall_cap_and_reshuffles():
    # uniform players rarely complete a hand: hands run to the 200-cycle cap
    # (TT-12), and the pool runs out and is rebuilt from the piles (BT-8)
    stats = self_play(2, 33, seed=7, lean=False)
    assert stats["stalls"] > 0 and stats["reshuffles"] > 0
    print(f"2 players, uniform: {stats}")


def test_greedy_and_expert_self_play_conserves_cards():
    from rummy.bots import make_bot

    g = new_game("big_table", players=4, seed=21)
    bots = [make_bot(name, seed=i) for i, name in enumerate(["greedy", "expert"] * 2)]
    where = None
    while not g.is_over:
        p = g.to_act()[0]
        g.apply(bots[p].choose(g.observe(p)), player=p)
        if (g.hand_number, g.cycle, g.phase) != where:
            g.check()
            where = (g.hand_number, g.cycle, g.phase)
    assert len(g.rows) == 11


# ---------------------------------------------------------------------------
# hidden information


def _scramble_hidden(g: BigTableGame, keep: int, rng: random.Random) -> None:
    """Swap every card the player ``keep`` cannot see (other hands, the pool)
    among themselves, and redo the other players' face-down choices to fit."""
    others = [s for s in range(g.n) if s != keep and s not in g.open_melds]
    hidden = [c for s in others for c in g.hands[s]] + g.pool.cards
    rng.shuffle(hidden)
    k = 0
    for s in others:
        size = len(g.hands[s])
        g.hands[s] = hidden[k:k + size]
        k += size
    g.pool.cards = hidden[k:]
    for s, act in list(g.pending.items()):
        if s != keep and act.verb == "discard":
            g.pending[s] = type(act)("discard", rng.choice(g.hands[s]))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 5, 12]),
       steps=st.integers(0, 400))
def test_observation_holds_no_other_hand_or_face_down_choice(seed, players, steps):
    rng = random.Random(seed)
    g = new_game("big_table", players=players, seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        p = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(p)), player=p)
    # in a match window the other players' hands decide who may act, so the
    # scramble is done where hidden cards decide nothing: draw and discard
    assume(not g.is_over and g.phase in ("draw", "choose discard", "final cycle: draw",
                                         "final cycle: choose discard"))
    me = rng.randrange(players)
    before = g.observe(me)
    _scramble_hidden(g, me, rng)
    g.check()
    assert g.observe(me) == before


def test_face_down_discards_stay_hidden_until_the_caller_reveals_them():
    g = new_game("big_table", players=["Ana", "Ben", "Cleo"], seed=22)
    g.arrange(["Kc Qd 9s", "Kh 8d As", "2c 7s Jd"], ["4h", "5c", "6d"], pool_top="Td 2h 9h")
    for s in range(3):
        g.apply("draw pool", player=s)
    ben_before = g.observe(1)
    g.apply("discard Kc", player=0)
    ben = g.observe(1)
    # Ben sees that Ana has chosen (she is no longer waited for), not what
    assert ben.waiting == (1, 2) and ben_before.waiting == (0, 1, 2)
    assert ben.log == ben_before.log and ben.piles == ben_before.piles
    assert ben.hand_counts == ben_before.hand_counts
    assert g.observe(0).choice is not None and str(g.observe(0).choice) == "discard Kc"
    assert ben.choice is None
    assert "Kc" not in repr(ben)
    g.apply("discard Kh", player=1)
    g.apply("discard Jd", player=2)
    # revealed together
    assert g.observe(1).piles == ((Card.parse("4h"), Card.parse("Kc")),
                                  (Card.parse("5c"), Card.parse("Kh")),
                                  (Card.parse("6d"), Card.parse("Jd")))


def test_no_observation_names_a_pool_draw():
    g = new_game("big_table", players=["Ana", "Ben"], seed=23)
    g.arrange(["Kc Qd 9s", "Kh 8d As"], ["4h", "5c"], pool_top="Td 2h")
    g.apply("draw pool", player=0)
    g.apply("draw pool", player=1)
    # Ana drew Td, Ben 2h: Ben's observation never mentions Td
    ben = g.observe(1)
    assert Card.parse("Td") not in ben.hand
    assert all("Td" not in line for line in ben.log)
    assert Card.parse("Td") not in [c for pile in ben.piles for c in pile]
    assert g.observe(0).hand.count(Card.parse("Td")) == 1


# ---------------------------------------------------------------------------
# the fast completeness test against the exact solver


_SHOE = deck(4)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), size=st.integers(3, 13), wild=st.integers(1, 13))
def test_BT_4_all_melded_agrees_with_the_solver(data, size, wild):
    from rummy.melds import MeldRules

    rules = MeldRules(wild_rank=wild)
    idx = data.draw(st.lists(st.integers(0, len(_SHOE) - 1), min_size=size, max_size=size,
                             unique=True))
    hand = [_SHOE[i] for i in idx]
    assert all_melded(hand, rules) == best_arrangement(hand, rules).is_complete


@settings(max_examples=200, deadline=None)
@given(data=st.data(), size=st.integers(3, 13))
def test_BT_4_all_melded_on_near_complete_hands(data, size):
    """Hands built from melds plus a few random cards, where the answer is
    often yes (random hands are almost always no)."""
    from rummy.melds import MeldRules

    wild = data.draw(st.integers(1, 13))
    rules = MeldRules(wild_rank=wild)
    hand: list[Card] = []
    while len(hand) < size:
        kind = data.draw(st.sampled_from(["run", "set", "wild", "any"]))
        suit = data.draw(st.sampled_from("cdhs"))
        rank = data.draw(st.integers(1, 13))
        if kind == "run":
            hand += [Card(r, suit) for r in range(rank, min(14, rank + 3))]
        elif kind == "set":
            hand += [Card(rank, data.draw(st.sampled_from("cdhs"))) for _ in range(3)]
        elif kind == "wild":
            hand.append(Card(wild, suit))
        else:
            hand.append(Card(rank, suit))
    hand = hand[:size]
    assume(max(Counter(hand).values()) <= 4)  # four packs
    assert all_melded(hand, rules) == best_arrangement(hand, rules).is_complete


@settings(max_examples=150, deadline=None)
@given(data=st.data(), size=st.integers(3, 7), wild=st.integers(1, 13))
def test_BT_4_all_melded_agrees_with_the_brute_force(data, size, wild):
    """Against tests/brute.py, which tries every way to cut a hand into groups
    (independent of both the solver and the fast test)."""
    from tests.brute import brute_min_penalty

    rank = data.draw(st.integers(1, 13))
    suit = data.draw(st.sampled_from("cdhs"))
    # half the cards near one rank and suit, so complete hands come up often
    pool = [Card(r, s) for r in range(max(1, rank - 2), min(13, rank + 2) + 1) for s in "cdhs"]
    pool += [Card(wild, s) for s in "cdhs"] + [Card(rank, suit)]
    hand = data.draw(st.lists(st.sampled_from(pool + list(deck(1))), min_size=size,
                              max_size=size))
    assume(max(Counter(hand).values()) <= 4)  # four packs
    from rummy.melds import MeldRules

    lowest = brute_min_penalty(hand, wild_rank=wild)
    if isinstance(lowest, tuple):  # an older brute.py gave (search, cards)
        search, n = lowest
        lowest = search((1 << n) - 1)
    # every card costs at least 1 point, so complete means a penalty of 0
    assert all_melded(hand, MeldRules(wild_rank=wild)) == (lowest == 0)


# ---------------------------------------------------------------------------
# bad moves change nothing; saving and loading is exact


_BAD = ["draw stock", "draw discard", "discard 1x", "call match", "play on", "knock",
        "draw pile As", "discard Jk", "", "go out 5h", "draw pool"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4, 12]),
       steps=st.integers(0, 300), bad=st.sampled_from(_BAD), who=st.integers(0, 11))
def test_bad_moves_change_nothing_and_json_is_exact(seed, players, steps, bad, who):
    from rummy import GameError, load_game

    rng = random.Random(seed)
    g = new_game("big_table", players=players, seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        p = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(p)), player=p)
    seat = who % players
    text = g.to_json()
    seen = [g.observe(i) for i in range(players)]
    legal = [str(a) for a in g.legal_actions(seat)]
    assume(bad not in legal)  # not a bad move here
    try:
        g.apply(bad, player=seat)
    except GameError as e:
        assert str(e)  # says what was wrong
    else:
        raise AssertionError(f"{bad!r} was accepted for seat {seat} in {g.phase!r}")
    assert g.to_json() == text
    assert [g.observe(i) for i in range(players)] == seen
    g.check(full=True)
    again = load_game(text)
    assert again.to_json() == text and [again.observe(i) for i in range(players)] == seen
