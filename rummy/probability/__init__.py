"""Meld odds: exact fractions, sympy formulas and Monte Carlo estimates.

Three questions a learner asks, answered exactly where counting is feasible
and by simulation with an honest 95% interval where it is not:

* **Dealt hands**: :func:`dealt_complete`, :func:`dealt_table`, :func:`dealt_gin`,
  :func:`plot_dealt_table`.
* **Outs**: :func:`outs`, :func:`p_at_least_one`, :func:`draw_formula`,
  :func:`chance_opponent_first`.
* **Going out**: :func:`going_out_chance` (within n draws from the stock,
  exact or simulated), :func:`going_out`, :func:`expected_penalty`
  (simulated against the bots).

>>> from rummy import probability as pr
>>> pr.dealt_complete("three_thirteen", 1, players=2).probability
Fraction(241, 5525)
>>> pr.p_at_least_one(outs=8, unseen=40, draws=3)
Fraction(123, 247)
>>> pr.draw_formula()
1 - binomial(U - o, k)/binomial(U, k)
"""

from __future__ import annotations

from rummy.probability.cli import cli_main
from rummy.probability.dealt import (
    Odds,
    OddsError,
    dealt_complete,
    dealt_gin,
    dealt_table,
    plot_dealt_table,
    wilson,
)
from rummy.probability.draws import going_out_chance
from rummy.probability.outs import (
    Outs,
    chance_opponent_first,
    draw_formula,
    outs,
    p_at_least_one,
)
from rummy.probability.play import Estimate, expected_penalty, going_out

__all__ = [
    "Odds",
    "OddsError",
    "Outs",
    "Estimate",
    "dealt_complete",
    "dealt_table",
    "dealt_gin",
    "plot_dealt_table",
    "wilson",
    "outs",
    "p_at_least_one",
    "draw_formula",
    "chance_opponent_first",
    "going_out",
    "going_out_chance",
    "expected_penalty",
    "cli_main",
]
