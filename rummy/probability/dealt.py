"""Dealt hands: the chance that the cards you are dealt are already complete.

Exact where counting is feasible (a :class:`~fractions.Fraction` and the
sympy sum of binomials it comes from), by Monte Carlo with a 95% Wilson
interval otherwise; the ``method`` says which.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rummy.cards import deck
from rummy.probability import complete_hands as C
from rummy.variants import Variant, VariantError, find_variant

__all__ = [
    "Odds",
    "OddsError",
    "Z95",
    "wilson",
    "shoe_for",
    "dealt_complete",
    "dealt_table",
    "dealt_gin",
    "plot_dealt_table",
]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

Method = Literal["exact", "monte carlo"]


class OddsError(ValueError):
    """A question the odds functions can't answer as asked; says why."""


@dataclass(frozen=True, slots=True)
class Odds:
    """A probability, exact or estimated.

    ``probability`` is the exact :class:`~fractions.Fraction` (None for a
    Monte Carlo estimate), ``value`` the decimal (the estimate for Monte
    Carlo), ``low``/``high`` the 95% interval (both equal to ``value`` when
    exact), ``samples`` how many simulated deals or games gave it (None when
    exact), ``formula`` a sympy expression whose value is the probability
    (None when there is no formula).

    >>> o = Odds.exact(Fraction(24, 5525))
    >>> o.to_json()
    {'probability': '24/5525', 'decimal': 0.00434389140271493..., 'method': 'exact'}
    >>> print(Odds.estimate(30, 1000))
    0.03 (Monte Carlo, 95% interval 0.0211 to 0.0425, 1000 samples)
    """

    probability: Fraction | None
    value: float
    low: float
    high: float
    method: Method
    samples: int | None = None
    formula: Any = None

    @classmethod
    def exact(cls, p: Fraction, formula: Any = None) -> Odds:
        """An exact probability."""
        v = float(p)
        return cls(Fraction(p), v, v, v, "exact", None, formula)

    @classmethod
    def estimate(cls, hits: int, samples: int) -> Odds:
        """A Monte Carlo estimate: ``hits`` successes in ``samples`` trials,
        with the 95% Wilson score interval."""
        lo, hi = wilson(hits, samples)
        return cls(None, hits / samples, lo, hi, "monte carlo", samples, None)

    def to_json(self) -> dict[str, Any]:
        """``{"probability": "a/b", "decimal": x, "method": "exact"}``; a Monte
        Carlo estimate has ``"probability": None`` and also ``"interval"``
        and ``"samples"``."""
        out: dict[str, Any] = {
            "probability": None if self.probability is None else str(self.probability),
            "decimal": self.value,
            "method": self.method,
        }
        if self.method == "monte carlo":
            out["interval"] = [self.low, self.high]
            out["samples"] = self.samples
        return out

    def contains(self, p: float | Fraction) -> bool:
        """True if ``p`` lies in the 95% interval (or equals the exact value)."""
        if self.probability is not None:
            return Fraction(p) == self.probability
        return self.low <= float(p) <= self.high

    def __str__(self) -> str:
        if self.probability is not None:
            return f"{self.probability} = {self.value:.6g} (exact)"
        return (f"{self.value:.4g} (Monte Carlo, 95% interval {self.low:.3g} to "
                f"{self.high:.3g}, {self.samples} samples)")

    def _repr_html_(self) -> str:
        import html

        return f"<span>{html.escape(str(self))}</span>"


def wilson(hits: int, samples: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (good even near 0 and 1).

    >>> lo, hi = wilson(0, 100)
    >>> lo, round(hi, 4)
    (0.0, 0.037)
    """
    if samples <= 0:
        raise OddsError(f"samples must be at least 1, not {samples}")
    p = hits / samples
    z2 = z * z
    centre = (p + z2 / (2 * samples)) / (1 + z2 / samples)
    half = z * math.sqrt(p * (1 - p) / samples + z2 / (4 * samples * samples)) / (1 + z2 / samples)
    lo = 0.0 if hits == 0 else max(0.0, centre - half)
    hi = 1.0 if hits == samples else min(1.0, centre + half)
    return lo, hi


def progress_bar(total: int, enabled: bool, desc: str) -> Any:
    """A tqdm bar (plain text, no Jupyter import), or a silent stand-in."""
    if enabled:
        try:
            from tqdm import tqdm

            return tqdm(total=total, desc=desc, leave=False)
        except ImportError:  # tqdm is optional: without it, no bar
            pass
    return _NoBar()


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _options(variant: Variant, **given: Any) -> dict[str, Any]:
    """Keep the options that were given (None means "the default")."""
    opts = {k: v for k, v in given.items() if v is not None}
    variant.resolve(**opts)  # raises VariantError naming the valid options
    return opts


def shoe_for(variant: str | Variant, round: int = 1, *, players: int | None = None,
             jokers: int | None = None, aces: str | None = None,
             packs: int | None = None) -> C.Shoe:
    """The shoe and rules of one deal, from the variant's data.

    >>> s = shoe_for("three_thirteen", 1, players=2)
    >>> s.packs, s.cards, s.rules.wild_rank, s.size
    (1, 3, 3, 52)
    >>> shoe_for("big_table", 11).packs
    4
    """
    v = find_variant(variant)
    if players is None:
        players = v.default_players
    v.check_players(players)
    opts = _options(v, jokers=jokers, aces=aces)
    n_packs = v.packs_for(players, **opts)
    if packs is not None:
        if not isinstance(packs, int) or not 1 <= packs <= 8:
            raise OddsError(f"packs must be a whole number from 1 to 8, not {packs!r}")
        n_packs = packs
    if v.rounds is None:
        if round not in (None, 1):
            raise VariantError(f"{v.name} has no rounds; leave round out")
        round = 1
    rules = v.meld_rules(round, **opts)
    n = v.hand_size(round)
    n_jokers = v.jokers(**opts)
    if n_jokers and not rules.jokers_wild:
        raise OddsError("jokers are only counted where they are wild")
    return C.Shoe(rules=rules, cards=n, packs=n_packs, jokers=n_jokers)


def _formula(shoe: C.Shoe, counts: dict[int, int]) -> Any:
    """sum_w C(wild pool, w) * A_w / C(shoe, cards) as an unevaluated sympy
    expression, ``A_w`` being the weighted count of natural multisets."""
    import sympy as sp

    terms = []
    for w, a in sorted(counts.items()):
        if a == 0:
            continue
        if shoe.wild_pool and w:
            ways = sp.binomial(shoe.wild_pool, w, evaluate=False)
            terms.append(ways if a == 1 else sp.Mul(sp.Integer(a), ways, evaluate=False))
        else:
            terms.append(sp.Integer(a))
    top = sp.Add(*terms, evaluate=False) if len(terms) > 1 else (terms[0] if terms else
                                                                 sp.Integer(0))
    return sp.Mul(top, sp.Pow(sp.binomial(shoe.size, shoe.cards, evaluate=False), -1,
                              evaluate=False), evaluate=False)


#: Search steps an automatic exact count may take (about 2 s) before the
#: question goes to Monte Carlo instead.
AUTO_LIMIT = 1_500_000
#: The cap for ``method="exact"`` (about a minute).
EXACT_LIMIT = 50_000_000


def exact_complete(shoe: C.Shoe, limit: int | None = None, progress: bool = False) -> Odds:
    """The exact chance that a hand dealt from ``shoe`` is complete; raises
    :class:`rummy.probability.complete_hands.TooBig` when counting is too big.
    The progress bar counts the wild counts ``w`` done."""
    steps = min(shoe.cards, shoe.wild_pool) + 1
    with progress_bar(steps, progress, f"counting {shoe.cards}-card hands") as bar:
        counts = C.count_by_generation(shoe, limit=limit if limit is not None else EXACT_LIMIT,
                                       tick=bar.update)
    total = sum(math.comb(shoe.wild_pool, w) * a for w, a in counts.items())
    p = Fraction(total, math.comb(shoe.size, shoe.cards))
    return Odds.exact(p, _formula(shoe, counts))


def _sampler(shoe: C.Shoe) -> tuple[list[int], list[int]]:
    """The shoe as (packed natural increment, is wild) per card."""
    inc = []
    wild = []
    for c in deck(shoe.packs, shoe.jokers):
        if shoe.rules.is_wild(c):
            inc.append(0)
            wild.append(1)
        else:
            inc.append(1 << (4 * C.position(c)))
            wild.append(0)
    return inc, wild


def simulate_complete(shoe: C.Shoe, samples: int, seed: int | random.Random = 0,
                      progress: bool = False) -> Odds:
    """Deal ``samples`` hands from ``shoe`` and count the complete ones."""
    if not isinstance(samples, int) or samples < 1:
        raise OddsError(f"samples must be a whole number of at least 1, not {samples!r}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    inc, wild = _sampler(shoe)
    idx = range(len(inc))
    n = shoe.cards
    rules = shoe.rules
    hits = 0
    chunk = 1000
    cache: dict[tuple[int, int], bool] = {}
    with progress_bar(samples, progress, f"dealing {n}-card hands") as bar:
        done = 0
        while done < samples:
            todo = min(chunk, samples - done)
            for _ in range(todo):
                x = 0
                w = 0
                for i in rng.sample(idx, n):
                    x += inc[i]
                    w += wild[i]
                ok = cache.get((x, w))
                if ok is None:
                    ok = C.is_complete(x, w, rules, n)
                    if ok is None:
                        ok = _solver_complete(x, w, shoe)
                    if len(cache) < 500_000:
                        cache[(x, w)] = ok
                hits += ok
            done += todo
            bar.update(todo)
    return Odds.estimate(hits, samples)


def _solver_complete(x: int, w: int, shoe: C.Shoe) -> bool:
    from rummy.cards import SUITS, Card
    from rummy.search import all_melded

    hand = []
    pp = 0
    while x:
        hand += [Card(pp % 13 + 1, SUITS[pp // 13])] * (x & 15)
        x >>= 4
        pp += 1
    hand += C.wild_cards(shoe, w)
    return all_melded(hand, shoe.rules)


def dealt_complete(variant: str | Variant, round: int = 1, *, players: int | None = None,
                   jokers: int | None = None, aces: str | None = None,
                   packs: int | None = None, method: str = "auto", samples: int = 20000,
                   seed: int = 0, progress: bool = False) -> Odds:
    """The chance that a dealt hand is already complete (every card melded).

    ``method``: ``"exact"`` (count; raises :class:`OddsError` when too big),
    ``"monte carlo"`` (deal ``samples`` hands with ``seed``) or ``"auto"``
    (exact when feasible, else Monte Carlo).  ``players`` decides the packs
    (TT-11); ``jokers`` and ``aces`` are the variant's options.

    >>> o = dealt_complete("three_thirteen", 1, players=2)   # 3 cards, threes wild
    >>> o.probability, o.method
    (Fraction(241, 5525), 'exact')
    >>> o.formula.doit() == 241 / __import__("sympy").Integer(5525)
    True
    >>> mc = dealt_complete("three_thirteen", 1, players=2, method="monte carlo", samples=4000)
    >>> mc.method, mc.samples, mc.contains(o.probability)
    ('monte carlo', 4000, True)
    """
    shoe = shoe_for(variant, round, players=players, jokers=jokers, aces=aces, packs=packs)
    if method not in ("auto", "exact", "monte carlo", "monte_carlo", "mc"):
        raise OddsError(f"method must be 'auto', 'exact' or 'monte carlo', not {method!r}")
    if method in ("auto", "exact"):
        try:
            return exact_complete(shoe, AUTO_LIMIT if method == "auto" else EXACT_LIMIT,
                                  progress=progress)
        except C.TooBig as e:
            if method == "exact":
                raise OddsError(
                    f"an exact count for {shoe.cards}-card hands from {shoe.packs} pack(s) "
                    f"is too big here ({e}); use method='monte carlo'") from None
    return simulate_complete(shoe, samples, seed, progress)


def dealt_gin() -> Odds:
    """The exact chance that 10 cards dealt from one pack are gin (G-1, G-7:
    every card in sets of 3-4 or runs of 3+, no wilds, aces low).

    >>> o = dealt_gin()
    >>> o.probability, o.formula
    (Fraction(68347, 7910012110), 136694/binomial(52, 10))
    """
    return dealt_complete("gin_three", method="exact")


def dealt_table(variant: str | Variant, *, players: int | None = None,
                jokers: int | None = None, aces: str | None = None, samples: int = 20000,
                seed: int = 0, progress: bool = True, method: str = "auto") -> Any:
    """A pandas table of :func:`dealt_complete` for every round (one row for
    a variant without rounds), with a ``method`` column.

    Columns: round, cards, wild (rank), packs, jokers, probability (the
    exact fraction as text, or empty), value, low, high, method, samples.
    Once a round needs Monte Carlo, the later (bigger) rounds use it too.

    >>> dealt_table("gin_three", progress=False)[["cards", "probability", "method"]]
           cards       probability method
    round
    1         10  68347/7910012110  exact
    """
    import pandas as pd

    v = find_variant(variant)
    rounds = list(range(1, (v.rounds or 1) + 1))
    rows = []
    bar = progress_bar(len(rounds), progress, f"{v.name}: rounds")
    with bar:
        for r in rounds:
            o = dealt_complete(v, r, players=players, jokers=jokers, aces=aces, method=method,
                               samples=samples, seed=seed + r, progress=False)
            if method == "auto" and o.method == "monte carlo":
                method = "monte carlo"  # later rounds only get bigger
            shoe = shoe_for(v, r, players=players, jokers=jokers, aces=aces)
            from rummy.cards import RANKS

            rows.append({
                "round": r,
                "cards": shoe.cards,
                "wild": RANKS[shoe.rules.wild_rank] if shoe.rules.wild_rank else "",
                "packs": shoe.packs,
                "jokers": shoe.jokers,
                "probability": "" if o.probability is None else str(o.probability),
                "value": o.value,
                "low": o.low,
                "high": o.high,
                "method": o.method,
                "samples": o.samples,
            })
            bar.update(1)
    table = pd.DataFrame(rows).set_index("round")
    table["samples"] = table["samples"].astype("Int64")
    return table


def plot_dealt_table(table: Any, ax: Any = None, title: str | None = None) -> Any:
    """Plot a :func:`dealt_table`: the chance per round on a log scale,
    exact rounds as dots, Monte Carlo rounds with their 95% interval.
    Needs matplotlib (imported here, not at import time); returns the Axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_dealt_table(dealt_table("gin_three", progress=False))
    >>> ax.get_ylabel()
    'chance the dealt hand is complete'
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    exact = table[table["method"] == "exact"]
    mc = table[table["method"] == "monte carlo"]
    if len(exact):
        ax.plot(exact.index, exact["value"], "o", color="tab:blue", label="exact")
    if len(mc):
        below = (mc["value"] - mc["low"]).clip(lower=0)
        above = (mc["high"] - mc["value"]).clip(lower=0)
        ax.errorbar(mc.index, mc["value"], yerr=[below, above], fmt="s", color="tab:orange",
                    capsize=3, label="Monte Carlo, 95% interval")
    positive = table["value"][table["value"] > 0]
    if len(positive):
        ax.set_yscale("log")
    ax.set_xlabel("round")
    ax.set_xticks(list(table.index))
    ax.set_ylabel("chance the dealt hand is complete")
    if title:
        ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    ax.grid(True, which="both", alpha=0.3)
    return ax
