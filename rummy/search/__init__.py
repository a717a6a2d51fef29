"""rummy.search: the meld search, the one place that arranges hands into melds.

Every enumeration of melds is in this package: the general search's moves,
the one-pack melds as bit masks, and the odds' meld parts
(:func:`rummy.search.wilds.meld_parts`, an enumeration kept independent of
the search on purpose, so that the odds' exact counts check it).

Which question each public function answers, and which module answers it:

=============================  ===============================================  ==============
function                       question                                         module
=============================  ===============================================  ==============
``best_arrangement``           the arrangement with the lowest penalty (M-7)    ``answers``
``penalty``                    that arrangement's penalty alone                 ``answers``
``penalty_less``               the penalty of the hand less each card asked     ``answers``
``best_discard``               the discard leaving the lowest penalty           ``answers``
``best_discard_choice``        that discard's card and penalty alone            ``answers``
``all_melded``                 is every card melded (with ``discard=True``:     ``answers``
                               every card but one)?
``may_go_out``                 a quick "certainly not" before ``all_melded``    ``answers``
``go_out_discards``            which discards go out (TT-6)                     ``answers``
``lone_cards``, ``is_lone``    natural cards no other card could meld with      ``answers``
``clear_memo``                 forget every answer and memo kept between calls  ``answers``
``mask_penalty``               the lowest deadwood of a one-pack hand as a      ``onepack``
                               52-bit mask (gin's hot path)
``best_layoffs_masks``         the defender's best lay-offs (G-8), as masks     ``onepack``
``extension_bits``             the cards that extend a meld, as a mask          ``onepack``
``GIN_RULES``                  gin's meld rules (G-1)                           ``onepack``
``min_wilds``,                 how many wilds meld every natural card (the      ``wilds``
``min_wilds_counts``,          odds' question)
``covers_counts``
=============================  ===============================================  ==============

The modules, one per algorithm:

* :mod:`rummy.search.answers`: the public questions above, which search
  answers each, the solvers and answers kept between calls, and the tie
  rule among equal arrangements.
* :mod:`rummy.search.general`: the general search, exact, each meld's
  room for wilds counted (any rules).
* :mod:`rummy.search.roomy`: the roomy search, for rules whose sets take
  any number of wilds (every variant with wilds); it finds the general
  search's very arrangements, and falls back on it when a wild lacks room.
* :mod:`rummy.search.onewild`: the roomy search on bit masks, for hands
  with at most three wilds and no card three times (its very answers, ties
  included, for less: no solver object and no count vectors).
* :mod:`rummy.search.onepack`: one pack and no wilds as 52-bit masks: the
  fast path (gin, and every hand without a wild), the melds one pack can
  make, and gin's mask helpers (its engine and bots use them).
* :mod:`rummy.search.wilds`: how many wilds complete the natural cards.
* :mod:`rummy.search.tables`: what the general and roomy searches share:
  the count vectors, their per-rule tables, a hand checked and encoded.

Whatever path answers, the penalty and the discard are the same (tests
check every path against the general search and a brute force).

Ties.  Among arrangements with the lowest penalty, the search returns the
one with the fewest deadwood cards; among those, the first in a fixed
search order over the *sorted* hand (runs before sets before deadwood,
lower cards first), so the answer never depends on the order the cards
were given in (:mod:`rummy.search.general` spells the order out: of two
equal runs from one card, the longer); then naturals go in sets and wilds
fill runs (:func:`rummy.search.answers.naturals_in_sets`).
``best_discard`` returns, among the discards leaving the lowest penalty,
a natural card before a wild, then the card worth the most points, then
the first in suit-then-rank order.

:mod:`rummy.melds` holds the values (``Meld``, ``Arrangement``,
``Discard``, ``MeldRules``) and the meld checks.  The package imports only
:mod:`rummy.cards`, :mod:`rummy.errors` and :mod:`rummy.melds`, none of
which imports it.

>>> from rummy.cards import cards
>>> penalty(cards("Qh Kh 3s 5c 5d 5s"))
23
>>> best_arrangement(cards("Qh Kh 3s 5c 5d 5s")).deadwood
(Card.parse('Qh'), Card.parse('Kh'), Card.parse('3s'))
>>> min_wilds(cards("7h 8h Th Kc Kd"))     # 9h fills the run, a third king the set
2
"""

from __future__ import annotations

from rummy.search.answers import (
    all_melded,
    best_arrangement,
    best_discard,
    best_discard_choice,
    clear_memo,
    go_out_discards,
    is_lone,
    lone_cards,
    may_go_out,
    penalty,
    penalty_less,
)
from rummy.search.onepack import GIN_RULES, best_layoffs_masks, extension_bits, mask_penalty
from rummy.search.wilds import covers_counts, min_wilds, min_wilds_counts

__all__ = [
    "penalty",
    "best_arrangement",
    "best_discard",
    "best_discard_choice",
    "all_melded",
    "may_go_out",
    "go_out_discards",
    "penalty_less",
    "lone_cards",
    "is_lone",
    "extension_bits",
    "min_wilds",
    "min_wilds_counts",
    "covers_counts",
    "mask_penalty",
    "best_layoffs_masks",
    "GIN_RULES",
    "clear_memo",
]
