"""The shared engine base: what every family gets from
:class:`rummy.engine.Engine` and :class:`rummy.engine.Observation`, once.

Expected values are worked by hand in the comments, never read back from
the engine under test.
"""

from __future__ import annotations

import random

import pytest

import rummy
from rummy import GameError, new_game
from rummy.action import Action
from rummy.engine import Engine, Observation
from rummy.game import Game

VARIANTS = rummy.variant_names()


def _moves(g: Engine, count: int, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(count):
        seat = rnd.choice(g.to_act())
        g.apply(rnd.choice(g.legal_actions(seat)), player=seat)


@pytest.mark.parametrize("variant", VARIANTS)
def test_undo_returns_the_moves_it_took_back_in_every_family(variant: str) -> None:
    g = new_game(variant, seed=3)
    assert isinstance(g, Engine)
    _moves(g, 12, 3)
    before = list(g.history)
    seat = before[-1][0]
    last_of_seat = max(i for i, (s, _) in enumerate(before) if s == seat)
    undone = g.undo(player=g.players[seat])  # by name
    # everything from that seat's last move on, as (seat, Action) pairs, oldest first
    assert undone == before[last_of_seat:]
    assert all(isinstance(s, int) and isinstance(a, Action) for s, a in undone)
    assert g.history == before[:last_of_seat]
    for s, a in undone:  # the same moves again give the same game
        g.apply(a, player=s)
    assert g.history == before
    with pytest.raises(GameError, match="nothing to undo"):
        new_game(variant, seed=3).undo()


@pytest.mark.parametrize("variant", VARIANTS)
def test_seats_are_numbers_or_names_in_every_family(variant: str) -> None:
    g = new_game(variant, seed=5)
    seat = g.to_act()[0]
    assert g.legal_actions(g.players[seat]) == g.legal_actions(seat)
    for bad in (99, -1, "Nobody", 1.5, True):
        with pytest.raises(GameError, match="player must be a seat"):
            g.legal_actions(bad)
    before = g.to_json()
    with pytest.raises(GameError, match="player must be a seat"):
        g.apply(g.legal_actions(seat)[0], player="Nobody")
    assert g.to_json() == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_observation_base_with_the_same_names(variant: str) -> None:
    g = new_game(variant, seed=8)
    for seat in range(len(g.players)):
        o = g.observe(g.players[seat])
        assert isinstance(o, Observation)
        assert o.player == seat and o.players == g.players and o.number == g.number == 1
        assert isinstance(o.legal_actions, tuple) and o.my_turn == (seat in g.to_act())
        assert o.is_over is False and o.phase != "over"


def test_TT_9_G_13_rank_and_winner_follow_the_family_scoring_direction() -> None:
    # Three-Thirteen: lowest total wins (TT-9); totals 30, 12, 12 -> ranks 3, 1, 1
    # and a tie for lowest, so nobody wins.
    g = new_game("three_thirteen", players=3, seed=1)
    g.scores = [30, 12, 12]
    g.phase = "over"
    assert [r["rank"] for r in g.summary()] == [3, 1, 1]
    assert g.winners() == [] and g.winner is None
    g.scores = [30, 11, 12]  # Ben alone lowest
    assert g.winners() == [1] and g.winner == 1
    assert [r["won"] for r in g.summary()] == [False, True, False]
    # gin: the highest total wins (G-13); totals 104, 60, 60 -> ranks 1, 2, 2
    gin = new_game("gin_three", seed=1)
    gin.scores = [104, 60, 60]
    gin.phase = "over"
    assert [r["rank"] for r in gin.summary()] == [1, 2, 2]
    assert gin.winners() == [0] and gin.winner == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_score_sheet_has_a_row_per_round_or_hand_and_a_total(variant: str) -> None:
    g = new_game(variant, seed=2)
    sheet = g.score_sheet()
    assert list(sheet.index) == ["Total"] and list(sheet.columns) == list(g.players)
    assert sheet.index.name == ("hand" if g.variant.family in ("big_table", "gin") else "round")
    assert sheet.loc["Total"].tolist() == [0] * len(g.players)


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_invariants_finds_a_lost_or_copied_card(variant: str) -> None:
    g = new_game(variant, seed=4)
    g.check_invariants()
    hands = g.hands if isinstance(g.hands, list) else list(g.hands.values())
    hand = next(h for h in hands if h)
    card = hand.pop()
    with pytest.raises(AssertionError, match="lost or duplicated|not conserved"):
        g.check_invariants()
    hand.append(card)
    hand.append(card)  # the same card twice
    with pytest.raises(AssertionError):
        g.check_invariants()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_bad_saved_move_names_the_move_that_does_not_replay(variant: str) -> None:
    g = new_game(variant, seed=6)
    _moves(g, 3, 6)
    data = g.to_json().replace('"actions": [[', '"actions": [[0, "fold"], [', 1)
    with pytest.raises(GameError, match=r"move 1 \(0: fold\) does not replay"):
        rummy.load_game(data)


def test_the_registry_maps_every_family_to_its_engine_and_observation() -> None:
    from rummy.engine import ENGINES, engine_class
    from rummy.variants import FAMILIES

    for name in VARIANTS:
        g = new_game(name, seed=1)
        cls = engine_class(name)
        assert type(g) is cls and cls.family == g.variant.family
        assert type(g.observe(0)) is cls.observation
        assert isinstance(g, Game)  # the protocol of rummy.game, names and all
    assert sorted(ENGINES) == sorted(FAMILIES)


def test_discards_seen_and_hand_in_play_are_the_public_piles_and_the_hand_to_plan_with() -> None:
    # Three-Thirteen: take the turned-up card, throw another: the pile the table
    # saw is just that discard (the first card went into a hand).
    g = new_game("three_thirteen", players=2, seed=9)
    seat = g.current_player
    g.apply("draw discard")
    thrown = next(a for a in g.legal_actions() if a.verb == "discard").card
    g.apply(f"discard {thrown}")
    for p in range(2):
        assert g.observe(p).discards_seen() == [thrown]
    assert g.observe(seat).hand_in_play == g.observe(seat).hand
    # Big Table: every seat's own pile is face up, one card each after the deal
    bt = new_game("big_table", players=3, seed=2)
    assert bt.observe(1).discards_seen() == [pile[0] for pile in bt.piles]
    # gin: the advisor holds nothing and plans with the captain's hand
    gin = new_game("gin_three", seed=2)
    adv = gin.observe(gin.advisor)
    assert adv.hand == () and list(adv.hand_in_play) == gin.hands[gin.captain]
    assert adv.discards_seen() == gin.discards and adv.packs == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_redeal_hidden_changes_only_what_the_seat_cannot_know(variant: str) -> None:
    g = new_game(variant, seed=12)
    _moves(g, 9, 12)
    seat = g.to_act()[0]
    before = g.to_json()

    def hidden(x: Engine) -> list[str]:
        stock, slots = x._hidden_from(seat)
        return [str(c) for c in stock] + [str(hand[i]) for hand, i in slots]

    changed = 0
    for k in range(5):
        h = g.redeal_hidden(g.players[seat], random.Random(k))
        h.check_invariants()  # still every card once
        assert h.observe(seat) == g.observe(seat)
        assert sorted(hidden(h)) == sorted(hidden(g))  # the same unknown cards ...
        changed += hidden(h) != hidden(g)  # ... in other places
    assert g.to_json() == before  # the game itself is untouched
    assert changed >= 4


def test_shuffle_orders_cards_as_the_standard_library_does() -> None:
    # every game's deal and reshuffle: the same order and the same RNG
    # position as random.Random.shuffle, so seeds and saved games replay
    from rummy.table import shuffle

    for seed in range(150):
        for n in (0, 1, 2, 3, 5, 52, 104, 108):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            shuffle(a, ours)
            theirs.shuffle(b)
            assert a == b
            assert ours.getstate() == theirs.getstate()

    class Fixed(random.Random):  # an RNG of its own class shuffles its own way
        def shuffle(self, x: list) -> None:  # type: ignore[override]
            x.reverse()

    cards = list(range(6))
    shuffle(cards, Fixed(1))
    assert cards == [5, 4, 3, 2, 1, 0]
