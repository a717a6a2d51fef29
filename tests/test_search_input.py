"""The meld search's quick paths read a hand of Card values without first
checking every item's type: a hand given as text, as Card values, or as a
mix of both gets the same answer (the brute force's), and anything else is
refused as before."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy import MeldRules, best_arrangement, best_discard, penalty
from rummy.cards import Card, CardError, deck
from rummy.melds import MeldError
from tests.brute import brute_min_penalty

PACK = list(deck())
RULES = [MeldRules(), MeldRules(max_set_size=4, jokers_wild=False), MeldRules(aces="high")]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PACK), min_size=1, max_size=10, unique=True),
       st.lists(st.booleans(), min_size=10, max_size=10), st.sampled_from(RULES))
def test_text_cards_and_mixed_hands_agree_with_the_brute_force(hand, as_text, rules):
    mixed = [str(c) if t else c for c, t in zip(hand, as_text)]
    want = brute_min_penalty(hand, aces=rules.aces, max_set=rules.max_set_size)
    for given_ in (hand, tuple(hand), [str(c) for c in hand], mixed, tuple(mixed)):
        assert penalty(given_, rules) == want
        assert best_arrangement(given_, rules).penalty == want


@pytest.mark.parametrize("bad", [[1, 2, 3], [Card.parse("7h"), 8], [Card.parse("7h"), None],
                                 (Card.parse("7h"), object())])
def test_items_that_are_not_cards_are_refused(bad):
    for ask in (penalty, best_arrangement):
        with pytest.raises((CardError, MeldError, TypeError)):
            ask(bad)


def test_a_discard_of_text_and_cards_mixed():
    hand = [Card.parse("7h"), "8h", "9h", Card.parse("Kc")]
    assert best_discard(hand).card == Card.parse("Kc")
    assert best_discard(hand).penalty == 0


ONE_PACK_RULES = [MeldRules(), MeldRules(aces="high"), MeldRules(max_set_size=4, jokers_wild=False),
                  MeldRules(max_set_size=3)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PACK), min_size=0, max_size=16, unique=True),
       st.sampled_from(ONE_PACK_RULES))
def test_runs_only_hands_are_arranged_as_the_packing_search_arranges_them(hand, rules):
    """A hand whose runs and sets share no card is arranged without
    weighing packings: the same melds, in the same order, and deadwood as
    the search over every packing, whose penalty is the brute force's."""
    from rummy.search.onepack import (
        fast_arrangement,
        fast_best,
        fast_total,
        quick_mask,
        runs_arrangement,
    )

    got = quick_mask(tuple(hand), rules)
    assert type(got) is tuple
    m, q = got
    ft = q[3]
    pts, melds, chosen = fast_best(m, ft)
    want = fast_arrangement(m, melds, chosen, ft, fast_total(m, ft[0]) - pts)
    assert want.penalty == brute_min_penalty(hand, aces=rules.aces, max_set=rules.max_set_size)
    quick = runs_arrangement(m, q)
    if quick is not None:
        assert (quick.melds, quick.deadwood, quick.penalty) == (want.melds, want.deadwood, want.penalty)
    assert best_arrangement(hand, rules) == want
    assert best_arrangement(hand, rules).melds == want.melds


def test_the_kept_tables_survive_a_thread_that_drops_the_same_key_first() -> None:
    """Games simulated in threads share the search's kept tables: the oldest
    key may be gone by the time this thread drops it (a KeyError before)."""
    from rummy.search.tables import latest

    class Racing(dict):
        def __iter__(self):  # another thread drops the oldest key as it is read
            first = next(super().__iter__())
            super().pop(first)
            return iter([first])

    kept = Racing(a=1, b=2)
    assert latest(kept, "c", 2, lambda: 3) == 3
    assert dict(kept) == {"b": 2, "c": 3}
