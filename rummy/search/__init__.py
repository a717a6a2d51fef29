"""rummy.search: the meld search, the one place that arranges hands into melds.

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
``is_complete``                ``all_melded`` under Big Table's name (BT-4)     ``answers``
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
* :mod:`rummy.search.onepack`: one pack and no wilds as 52-bit masks: the
  fast path (gin, and every hand without a wild), the melds one pack can
  make, and gin's mask helpers (its engine and bots use them).
* :mod:`rummy.search.wilds`: how many wilds complete the natural cards.
* :mod:`rummy.search.tables`: what the general and roomy searches share:
  the count vectors, their per-rule tables, a hand checked and encoded.

Whatever path answers, the answer is the same (tests check every path
against the general search and a brute force); the search's docstrings
spell out its tie rules.  :mod:`rummy.melds` holds the values (``Meld``,
``Arrangement``, ``Discard``, ``MeldRules``) and the meld checks; the
package imports only :mod:`rummy.cards`, :mod:`rummy.errors` and
:mod:`rummy.melds`, and none of them imports it.

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
    is_complete,
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
    "is_complete",
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
