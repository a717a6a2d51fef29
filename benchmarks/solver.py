"""How fast is the meld solver?  Median and p99 microseconds per call.

Every set is timed twice: **cold** (the solver's kept memo emptied before
every hand, outside the timed call: what the coach, the odds explorer and a
bot's look-ahead pay for a hand seen for the first time) and **warm** (the
memo kept from hand to hand, as in a long game).  The targets apply to cold.
Cold empties everything ``rummy.search.clear_memo`` empties: the kept
searches, the answers kept per hand, the cover and mask memos.  What stays
are static tables that depend only on the rules, never on a hand: per rule
set the position, points, discard-order, run, set and "better discard"
tables of the general search (and, per number of wilds in hand, which
cards a run could reach: the roomy search's), and the one-pack fast path's tables over the
8,192 masks of one suit: points, cards, the deadwood left when the suit
makes runs only, the cards that lie in a row of 3+ (this one built at
import), plus the 208 set choices per rank and pattern of suits held (built
on first use, then kept).  Set A's ``penalty`` reads a hand from these
tables; no hand and no answer is kept between cold calls.

Five fixed-seed sets of 2,000 hands each:

  A  10-card hands from one pack, no wilds          best_arrangement / penalty
  B  11-card hands from one pack, no wilds          best_discard
  C  14-card hands from 2 packs + 4 jokers, K wild  best_discard
  D  13-card hands from 2 packs, kings wild         best_arrangement
  E   9-card hands from 4 packs, nines wild         best_arrangement

When the benchmark extra is installed (``pip install -e '.[bench]'``) it also
times OpenSpiel's C++ ``GinRummyUtils(13, 4, 10).min_deadwood`` and RLCard's
``get_best_meld_clusters`` on set A in the same run, prints the ratios (for
OpenSpiel also hand by hand: ours cold, then OpenSpiel, on each hand), and
counts how often each peer's deadwood disagrees with ours (and on set B how
often OpenSpiel's 11-card answer is not the true minimum).

Run: ``.venv/bin/python benchmarks/solver.py`` (``--hands N`` for a quick look,
``--clock cpu`` to time by CPU time on a busy machine).

The targets are microseconds measured on one machine, the reference
machine, where the code of ``b0a9e78`` took A 3.2 us, C 294 us, D 120 us.
To read them on another, ``--against REV`` times the same cold sets with
the solver of a past commit (``git archive REV rummy``, run in a
subprocess), then with this one, in turn ``--rounds`` times (default 3, so
that a machine whose speed drifts slows both alike), and prints the
medians, the speed-up of each round, and each target scaled by how much
slower the past code runs here than on the reference machine (``--against
b0a9e78``), with the speed-up over the past code's cold median that it
needs.  The reference figures were timed with the memo kept from hand to
hand, so the past code is also timed warm, and that is what the scale
compares with them; the targets apply to this code's cold medians.

On a machine whose speed drifts within seconds (a shared VM), whole rounds
may still meet different speeds.  ``--chunk K`` times the two codes hand
by hand in K-hand chunks instead: three worker processes (the past code
cold, the past code warm, this code cold) each time one chunk of a set in
turn, the order changing from chunk to chunk, so that all three meet the
same moments of the machine; the medians are over every hand.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from _pastcode import ROOT, ask, past_rummy, pin_note, workers

from rummy import MeldRules, best_arrangement, best_discard, deck, penalty
from rummy.cards import Card

#: OpenSpiel's C++ ``min_deadwood`` on set A on the reference machine (used when
#: OpenSpiel is not installed here)
OPENSPIEL_US = 0.8
#: the reference machine's medians of the code of b0a9e78 and the targets there:
#: set -> (then, target) in microseconds
REFERENCE = {"A": (3.2, None), "C": (294.0, 80.0), "C p99": (1025.0, 300.0), "D": (120.0, 45.0)}


#: the clock calls are timed with: wall time (default) or this thread's CPU
#: time (``--clock cpu``: steadier when other work shares the machine)
CLOCK = [time.perf_counter_ns]


def forget() -> None:
    """Empty every memo the solver keeps between hands (not the per-rule
    tables, which a program builds once)."""
    try:
        from rummy.search import clear_memo
    except ImportError:  # before the one search core existed (the --against code)
        import rummy.melds

        getattr(rummy.melds, "_SOLVERS").clear()  # noqa: B009 - not in this code's melds
        return
    clear_memo()


def timed(fn: Callable[[Any], Any], items: Sequence[Any],
          cold: bool = False) -> tuple[list[float], list[Any]]:
    """Microseconds per call for each item, and the results.  ``cold``:
    the kept memo is emptied before every call (outside the timing)."""
    for item in items[:50]:  # warm up per-rule tables and code paths
        fn(item)
    times: list[float] = []
    results: list[Any] = []
    clock = CLOCK[0]
    gc.disable()
    try:
        for item in items:
            if cold:
                forget()
            t0 = clock()
            r = fn(item)
            times.append((clock() - t0) / 1000)
            results.append(r)
    finally:
        gc.enable()
    return times, results


def interleaved(fn: Callable[[Any], Any], items: Sequence[Any], peer: Callable[[Any], Any],
                peer_items: Sequence[Any]) -> tuple[list[float], list[float]]:
    """Microseconds per call of ``fn`` (cold: the memo emptied first) and of
    ``peer`` on the same hand right after it, hand by hand, so that a load
    that changes during the run weighs on both alike."""
    for item, other in zip(items[:50], peer_items[:50]):
        fn(item)
        peer(other)
    ours: list[float] = []
    theirs: list[float] = []
    clock = CLOCK[0]
    gc.disable()
    try:
        for item, other in zip(items, peer_items):
            forget()
            t0 = clock()
            fn(item)
            t1 = clock()
            peer(other)
            t2 = clock()
            ours.append((t1 - t0) / 1000)
            theirs.append((t2 - t1) / 1000)
    finally:
        gc.enable()
    return ours, theirs


def stats(times: list[float]) -> tuple[float, float, float]:
    s = sorted(times)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.99))], s[-1]


def line(label: str, times: list[float]) -> tuple[float, float, float]:
    med, p99, worst = stats(times)
    print(f"  {label:<44} median {med:8.1f} us   p99 {med and p99:8.1f} us   max {worst:8.1f} us")
    return med, p99, worst


def both(label: str, fn: Callable[[Any], Any], items: Sequence[Any]
         ) -> tuple[tuple[float, float, float], list[Any]]:
    """Time ``fn`` warm, then cold; print both lines; return cold stats."""
    t_warm, _ = timed(fn, items)
    line(f"{label}, warm", t_warm)
    t_cold, results = timed(fn, items, cold=True)
    return line(f"{label}, cold", t_cold), results


def hands(seed: int, n: int, packs: int, jokers: int, size: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    shoe = deck(packs, jokers)
    return [tuple(rng.sample(shoe, size)) for _ in range(n)]


def openspiel() -> Any | None:
    try:
        import pyspiel

        return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    except Exception:
        return None


def rlcard_melding() -> tuple[Any, Any] | None:
    try:
        from rlcard.games.gin_rummy.utils import melding, utils

        return melding, utils
    except Exception:
        return None


def target_sets(n: int) -> dict[str, tuple[Callable[[Any], Any], list[tuple[Card, ...]]]]:
    """Sets A (penalty), C and D of ``n`` hands each, with what is asked of
    them: the sets the targets are for."""
    plain, kings = MeldRules(), MeldRules(wild_rank=13)
    return {"A": (lambda h: penalty(h, plain), hands(1, n, 1, 0, 10)),
            "C": (lambda h: best_discard(h, kings), hands(3, n, 2, 4, 14)),
            "D": (lambda h: best_arrangement(h, kings), hands(4, n, 2, 0, 13))}


def cold_sets(n: int, cold: bool = True) -> dict[str, float]:
    """Cold medians (and set C's p99) of sets A (penalty), C and D, in
    microseconds: what ``--against`` compares (``cold=False``: warm, the
    memo kept from hand to hand, as the reference figures were timed)."""
    out = {}
    for name, (fn, items) in target_sets(n).items():
        med, p99, _ = stats(timed(fn, items, cold=cold)[0])
        out[name] = med
        if name == "C":
            out["C p99"] = p99
    return out


def against(rev: str, n: int, clock: str, rounds: int = 3) -> int:
    """Time the cold sets with the solver of commit ``rev``, then with this
    one, ``rounds`` times in turn (a machine whose speed drifts slows both
    alike within a round); print the median of each, the speed-up of each
    round, and the targets scaled to this machine (by how much slower
    ``rev`` runs here than on the reference machine, when ``rev`` is the
    code timed there: timed warm, as the reference figures were, with the
    memo kept from hand to hand)."""
    olds: list[dict[str, float]] = []
    old_warm: list[dict[str, float]] = []
    news: list[dict[str, float]] = []
    with past_rummy(rev) as tmp:
        env = dict(os.environ, PYTHONPATH=tmp)
        for _ in range(rounds):
            for kind, out in (("--cold-json", olds), ("--warm-json", old_warm)):
                out.append(json.loads(subprocess.run(
                    [sys.executable, __file__, "--hands", str(n), "--clock", clock, kind],
                    env=env, capture_output=True, check=True, text=True).stdout))
            news.append(cold_sets(n))
    print(f"Cold medians, {n} hands per set, {clock} clock, {rounds} rounds of {rev} then this "
          f"one, load {os.getloadavg()[0]:.2f}")
    for key in ("A", "C", "C p99", "D"):
        then, target = REFERENCE[key]
        old = statistics.median(o[key] for o in olds)
        warm = statistics.median(o[key] for o in old_warm)
        new = statistics.median(m[key] for m in news)
        ups = sorted(o[key] / m[key] for o, m in zip(olds, news))
        factor = warm / then
        line_ = (f"  {key:<6} {rev}: {old:8.1f} us cold ({warm:.1f} warm)   now: {new:8.1f} us "
                 f"cold   speed-up {statistics.median(ups):.2f}x (rounds {ups[0]:.2f}-"
                 f"{ups[-1]:.2f})")
        if target is not None:
            here = target * factor
            line_ += (f"   target {target:g} us x {factor:.2f} (this machine against the "
                      f"reference machine: {rev} warm here / {then:g} us) = {here:.0f} us: "
                      f"{'met' if new < here else 'MISSED'}; needs {old / here:.2f}x over "
                      f"{rev} cold")
        print(line_)
    return 0


def _worker(n: int) -> int:
    """Serve timing requests on stdin, one per line: ``SET cold|warm START
    STOP`` times those hands of set A, C or D (as :func:`cold_sets` does,
    after the same warm-up) and prints their microseconds as a JSON list.
    Warm keeps the memo from hand to hand, across requests too."""
    sets = target_sets(n)
    for fn, items in sets.values():
        for item in items[:50]:
            fn(item)
    clock = CLOCK[0]
    for request in sys.stdin:
        name, kind, start, stop = request.split()
        fn, items = sets[name]
        times: list[float] = []
        gc.disable()
        try:
            for item in items[int(start):int(stop)]:
                if kind == "cold":
                    forget()
                t0 = clock()
                fn(item)
                times.append((clock() - t0) / 1000)
        finally:
            gc.enable()
        print(json.dumps(times), flush=True)
    return 0


def against_chunked(rev: str, n: int, clock: str, chunk: int) -> int:
    """:func:`against`, with the past code (cold and warm) and this code
    (cold) timed in turn chunk by chunk, each in a worker process of its
    own (see the module's docstring)."""
    times: dict[tuple[str, str], list[float]] = {}
    ups: dict[str, list[float]] = {}
    with past_rummy(rev) as tmp:
        streams = (("old cold", tmp, "cold"), ("old warm", tmp, "warm"), ("now", str(ROOT), "cold"))
        args = ["--worker", "--hands", str(n), "--clock", clock]
        with workers(__file__, args, [path for _label, path, _kind in streams]) as procs:
            for name in ("A", "C", "D"):
                for k, start in enumerate(range(0, n, chunk)):
                    stop = min(n, start + chunk)
                    got = {}
                    for j in range(3):  # the order turns from chunk to chunk
                        i = (j + k) % 3
                        got[streams[i][0]] = json.loads(
                            ask(procs[i], f"{name} {streams[i][2]} {start} {stop}"))
                    for label, t in got.items():
                        times.setdefault((name, label), []).extend(t)
                    ups.setdefault(name, []).append(statistics.median(got["old cold"])
                                                    / statistics.median(got["now"]))
    print(f"Cold medians, {n} hands per set, {clock} clock, {rev} (cold and warm) and this one "
          f"timed in turn in chunks of {chunk} hands ({pin_note()}), load "
          f"{os.getloadavg()[0]:.2f}")
    for key in ("A", "C", "C p99", "D"):
        name = key[0]
        then, target = REFERENCE[key]
        pick = (lambda t: stats(t)[1]) if key.endswith("p99") else statistics.median
        old, warm, new = (pick(times[name, label]) for label in ("old cold", "old warm", "now"))
        spread = sorted(ups[name])
        line_ = (f"  {key:<6} {rev}: {old:8.1f} us cold ({warm:.1f} warm)   now: {new:8.1f} us "
                 f"cold   speed-up {old / new:.2f}x (chunks: median {statistics.median(spread):.2f}x, "
                 f"middle half {spread[len(spread) // 4]:.2f}-{spread[(3 * len(spread)) // 4]:.2f}x)")
        if target is not None:
            factor = warm / then
            here = target * factor
            line_ += (f"   target {target:g} us x {factor:.2f} ({rev} warm here / {then:g} us) = "
                      f"{here:.0f} us: {'met' if new < here else 'MISSED'}; needs {old / here:.2f}x "
                      f"over {rev} cold")
        print(line_)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                   help="time calls by the wall clock (default) or by this thread's CPU time")
    p.add_argument("--against", metavar="REV",
                   help="also time the cold sets with the solver of this git commit, and scale "
                        "the targets to this machine (b0a9e78: the code the targets were set against)")
    p.add_argument("--rounds", type=int, default=3,
                   help="with --against: how many times to time the two in turn (default 3)")
    p.add_argument("--chunk", type=int, default=0,
                   help="with --against: time the past code and this one in turn in chunks of this "
                        "many hands, each in a worker process (see the module's docstring)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--cold-json", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--warm-json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    CLOCK[0] = time.perf_counter_ns if args.clock == "wall" else time.thread_time_ns
    n = args.hands
    if args.cold_json or args.warm_json:
        print(json.dumps(cold_sets(n, cold=args.cold_json)))
        return 0
    if args.worker:
        return _worker(n)
    if args.against and args.chunk > 0:
        return against_chunked(args.against, n, args.clock, args.chunk)
    if args.against:
        return against(args.against, n, args.clock, max(1, args.rounds))
    plain = MeldRules()
    kings = MeldRules(wild_rank=13)
    A = hands(1, n, 1, 0, 10)
    B = hands(2, n, 1, 0, 11)
    C = hands(3, n, 2, 4, 14)
    D = hands(4, n, 2, 0, 13)
    nines = MeldRules(wild_rank=9)
    E = hands(5, n, 4, 0, 9)
    worst_all = 0.0
    print(f"Meld solver, {n} hands per set, one core, pure Python, {args.clock} clock; "
          f"load {os.getloadavg()[0]:.2f}")

    print("A: 10 cards, one pack, no wilds")
    (med_a, _, w), ours_a = both("penalty", lambda h: penalty(h, plain), A)
    worst_all = max(worst_all, w)
    (med_arr, _, w), _ = both("best_arrangement", lambda h: best_arrangement(h, plain), A)
    worst_all = max(worst_all, w)

    u = openspiel()
    if u is not None:
        suit_ix = {"s": 0, "c": 1, "d": 2, "h": 3}  # OpenSpiel's card order
        ids = [[suit_ix[c.suit] * 13 + c.rank - 1 for c in h] for h in A]
        t_os, os_a = timed(u.min_deadwood, ids)
        med_os, _, _ = line("OpenSpiel C++ min_deadwood", t_os)
        bad = sum(a != b for a, b in zip(ours_a, os_a))
        print(f"    ratio ours (cold)/OpenSpiel: penalty {med_a / med_os:.2f}x, "
              f"best_arrangement {med_arr / med_os:.2f}x (target: within 2x); "
              f"disagreements: {bad} of {n}")
        t_ours, t_peer = interleaved(lambda h: penalty(h, plain), A, u.min_deadwood, ids)
        med_o, med_p = statistics.median(t_ours), statistics.median(t_peer)
        print(f"    hand by hand (ours cold, then OpenSpiel, on each hand: the same load): "
              f"penalty median {med_o:.1f} us, OpenSpiel {med_p:.1f} us, ratio {med_o / med_p:.2f}x")
    else:
        print("  (OpenSpiel not installed: pip install -e '.[bench]'); against the 0.8 us "
              f"on the reference machine: penalty {med_a / OPENSPIEL_US:.2f}x (target: within 2x)")

    rl = rlcard_melding()
    if rl is not None:
        melding, rutils = rl
        rl_hands = [[rutils.card_from_text(str(c).upper().replace("T", "T")) for c in h] for h in A]

        def rl_deadwood(hand: list[Any]) -> int:
            clusters = melding.get_best_meld_clusters(hand)
            if not clusters:
                return sum(rutils.get_deadwood_value(c) for c in hand)
            return int(rutils.get_deadwood_count(hand, clusters[0]))

        t_rl, rl_a = timed(rl_deadwood, rl_hands)
        med_rl, _, _ = line("RLCard get_best_meld_clusters + deadwood", t_rl)
        bad = sum(a != b for a, b in zip(ours_a, rl_a))
        print(f"    RLCard/ours: {med_rl / med_a:.1f}x (penalty), {med_rl / med_arr:.1f}x "
              f"(best_arrangement) (target: at least 4x); disagreements: {bad} of {n}")
    else:
        print("  (RLCard not installed: pip install -e '.[bench]')")

    print("B: best discard of 11 cards, one pack, no wilds")
    (_, _, w), ours_b = both("best_discard", lambda h: best_discard(h, plain), B)
    worst_all = max(worst_all, w)
    if u is not None:
        ids_b = [[suit_ix[c.suit] * 13 + c.rank - 1 for c in h] for h in B]
        t_osb, os_b = timed(u.min_deadwood, ids_b)
        line("OpenSpiel C++ min_deadwood (11 cards)", t_osb)
        wrong = sum(o != d.penalty for o, d in zip(os_b, ours_b))
        worse = sum(o > d.penalty for o, d in zip(os_b, ours_b))
        print(f"    OpenSpiel's 11-card answer is not the true minimum in {wrong} of {n} hands "
              f"({worse} higher than the minimum)")

    print("C: best discard of 14 cards, 2 packs + 4 jokers, kings wild")
    (med_c, p99_c, w), _ = both("best_discard", lambda h: best_discard(h, kings), C)
    worst_all = max(worst_all, w)
    print(f"    target (cold): median under 80 us ({'met' if med_c < 80 else 'MISSED'}), "
          f"p99 under 300 us ({'met' if p99_c < 300 else 'MISSED'})")

    print("D: 13 cards, 2 packs, kings wild")
    (med_d, _, w), _ = both("best_arrangement", lambda h: best_arrangement(h, kings), D)
    worst_all = max(worst_all, w)
    print(f"    target (cold): median under 45 us ({'met' if med_d < 45 else 'MISSED'})")
    print("E: 9 cards, 4 packs, nines wild")
    (_, _, w), _ = both("best_arrangement", lambda h: best_arrangement(h, nines), E)
    worst_all = max(worst_all, w)
    print(f"Slowest hand in any set: {worst_all / 1000:.2f} ms "
          f"(target: none over 5 ms: {'met' if worst_all < 5000 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
