"""Benchmark of rummy.probability: the time of each exact computation and
Monte Carlo samples per second.

Run: ``.venv/bin/python benchmarks/odds.py`` (``--quick`` for fewer cases).
Every figure is the median of ``--repeats`` runs (1 for the slow ones);
memo caches are cleared before each run, so the figures are cold-start.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummy.probability import complete_hands as C  # noqa: E402
from rummy.probability import dealt_gin, going_out, outs  # noqa: E402
from rummy.probability.dealt import exact_complete, shoe_for, simulate_complete  # noqa: E402


def clear_caches() -> None:
    # the completeness searches live in the one meld search (rummy.search)
    from rummy.search import clear_memo

    clear_memo()


T = TypeVar("T")


def timed(fn: Callable[[], T], repeats: int) -> tuple[float, T]:
    times = []
    result: T | None = None
    for _ in range(repeats):
        clear_caches()
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    assert result is not None
    return statistics.median(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="rounds 1-3 only, fewer samples")
    args = ap.parse_args()
    R = args.repeats
    load = os.getloadavg()[0]
    print(f"(wall-clock seconds; load average {load:.1f} on {os.cpu_count()} cores when started)")
    print()
    print("Exact chance that a dealt hand is complete (meld-part generation)")
    print(f"{'variant':<24}{'opts':<18}{'round':>5}{'cards':>6}{'packs':>6}"
          f"{'seconds':>10}{'probability':>14}")
    cases: list[tuple[str, dict[str, Any]]] = [
        ("three_thirteen", {"players": 2}),
        ("three_thirteen", {"players": 4}),
        ("tre_tretton", {"players": 4}),
        ("three_thirteen_jokers", {"jokers": 4}),
        ("big_table", {}),
    ]
    top_round = 3 if args.quick else 4
    round1 = []
    for variant, kw in cases:
        for r in range(1, top_round + 1):
            shoe = shoe_for(variant, r, **kw)
            secs, odds = timed(partial(exact_complete, shoe), R if r <= 3 else 1)
            if r == 1:
                round1.append(secs)
            opts = ",".join(f"{k}={v}" for k, v in kw.items())
            print(f"{variant:<24}{opts:<18}{r:>5}{shoe.cards:>6}{shoe.packs:>6}"
                  f"{secs:>10.3f}{odds.value:>14.6g}")
    print(f"round 1, slowest of the variants: {max(round1):.3f} s (target: under 1 s)")
    secs, odds = timed(dealt_gin, 1)
    print(f"{'gin_three (10 cards)':<42}{'':>5}{10:>6}{1:>6}{secs:>10.3f}{odds.value:>14.6g}")

    print()
    print("Second exact method (suit-orbit enumeration) on the same questions")
    print(f"{'variant':<24}{'opts':<12}{'round':>5}{'generation s':>14}{'enumeration s':>15}"
          f"{'ratio':>8}{'agree':>7}")
    for variant, kw in cases[:2] + cases[4:]:
        for r in (1, 2) if args.quick else (1, 2, 3):
            shoe = shoe_for(variant, r, **kw)
            g_secs, g = timed(partial(C.count_by_generation, shoe), 1)
            e_secs, e = timed(partial(C.count_by_enumeration, shoe), 1)
            opts = ",".join(f"{k}={v}" for k, v in kw.items())
            print(f"{variant:<24}{opts:<12}{r:>5}{g_secs:>14.3f}{e_secs:>15.3f}"
                  f"{e_secs / g_secs:>8.1f}{str(g == e):>7}")

    print()
    print("Monte Carlo deals (samples per second, cold caches)")
    n = 5000 if args.quick else 20000
    sampled: list[tuple[str, dict[str, Any]]] = [("three_thirteen", {"players": 4}), ("big_table", {})]
    for variant, kw in sampled:
        for r in (1, 6, 11):
            shoe = shoe_for(variant, r, **kw)
            secs, odds = timed(partial(simulate_complete, shoe, n, seed=1), 1)
            print(f"{variant:<24} round {r:>2} ({shoe.cards:>2} cards): {n / secs:>9.0f} samples/s"
                  f"  estimate {odds.value:.4g} [{odds.low:.3g}, {odds.high:.3g}]")

    print()
    print("Outs of a hand (53 candidate draws, each a best-discard search)")
    for hand, r in (("7h 8h Kc 2d", 2), ("7h 8h 9h Kc Kd 2s 3s 5d Qc Qh Jd", 9)):
        secs, res = timed(partial(outs, hand, round=r, players=4), R)
        print(f"  round {r:>2}, {len(hand.split()):>2} cards: {secs * 1000:8.1f} ms"
              f"  ({res.count} outs of {res.unseen} unseen)")

    print()
    print("Going out, simulated against the bots (play-outs per second)")
    k = 30 if args.quick else 100
    for learner, opp in (("greedy", "greedy"), ("expert", "greedy"), ("expert", "expert")):
        secs, o = timed(partial(
            going_out, "7h 8h Kc 2d", 3, round=2, players=3, learner=learner, opponents=opp,
            samples=k, progress=False), 1)
        print(f"  {learner} vs {opp}: {k / secs:7.1f} play-outs/s  (P(out in 3) ~ {o.value:.3f})")


if __name__ == "__main__":
    main()
