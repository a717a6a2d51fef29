"""How fast is the meld solver?  Median and p99 microseconds per call, four hand shapes.

The four shapes (fixed seeds, 2,000 hands each by default):

  A  10 cards, one pack, no wilds                     best_arrangement
  B  14 cards, 2 packs + 4 jokers, kings wild         best_discard
  C  13 cards, 2 packs, kings wild                    best_arrangement
  D   9 cards, 4 packs, nines wild (the Big Table)    best_arrangement

plus Gin's ``penalty`` on set A's hands (its ratio to OpenSpiel's C++ is
``benchmarks/gin_peer.py --speed``).

Every shape is timed twice: **warm** (the search's memos kept from hand to
hand, as in a long game) and **cold** (every memo ``rummy.search.clear_memo``
empties emptied before each hand, outside the timed call: a hand seen for
the first time).  What stays across cold calls are the static tables that
depend only on the rules, never on a hand.  Each line gives the median,
the p99, the p99's ratio to the median (target: under 3) and the slowest
hand.  The cold medians are set against :data:`TARGETS`, the medians of an
independent pure-Python solver (written apart from the kit) on the
reference machine, idle.

Run: ``.venv/bin/python benchmarks/solver.py`` (``--hands N`` for a quick
look, ``--clock cpu`` to time by this thread's CPU time on a busy machine).

``--against REV`` times the same cold sets with the ``rummy`` package of a
past commit (``git archive REV rummy``, run in a subprocess), then with
this one, in turn ``--rounds`` times (default 3: a machine whose speed
drifts slows both alike), and prints both medians and the speed-up of
each round.  ``--chunk K`` instead times the two hand by hand in K-hand
chunks in worker processes of their own (the past code cold, the past
code warm, this code cold), the order turning from chunk to chunk, so
that all three meet the same moments of a shared machine.  ``--paired
K`` (the steadiest on a busy machine) loads both packages into this one
process and times every hand cold with each in turn, ``K`` rounds, the
order turning from round to round, and keeps each hand's fastest time
(what the load did not slow) before taking the medians.  Every way prints
the load: on a machine shared with other work compare ratios, or the
bytecode counts of ``benchmarks/solver_ops.py``.

Where the time goes (targets missed: B, C, D; measured with each stage
timed apart, the fastest of 7 rounds per hand, a D hand with a wild, load
about 4 on 2 CPUs, so about twice the idle figures): checking and
reading the hand about 3.5 us, splitting it and its count vector with the
isolated cards 5, a new solver with its memos 7 (cold: nothing is kept),
the search itself 15, reading its choices and building the Meld values
12.  The search proper is a third; the rest is paid once per hand, which a
warm call (about 3 us) skips.  Tried and measured: reading the cards with
``map``/``compress`` in C instead of comprehensions counts a fifth fewer
bytecodes but runs slower on CPython 3.11 (whose comprehensions over slot
attributes are specialised); a bit-parallel isolated-card test with
shifts ran slower than the card-by-card test for hands of 9 to 14 cards;
both were dropped.  Kept: the one-pack path arranges a hand whose runs and
sets share no card without weighing packings (A, and D's hands without a
wild), and the quick paths read a hand's mask without first collecting
its items' types.

Measured next and dropped (one-process A/B timing, load 9 to 13 on 2
CPUs, so each figure about twice the idle one; a change under a few
per cent is lost in that noise):

* a new solver per hand (cold D, one wild): ``Roomy(...)`` costs 2.3 us
  of 31; a solver kept per rule set and wilds' points and reset for
  the next hand (memos emptied, the isolated cards set, the meld lists
  fetched again) costs 1.5 us: 0.8 us saved (2.5%), not worth keeping
  a solver's state alive across :func:`rummy.search.clear_memo`;
* splitting and encoding a hand in one function instead of
  ``split_hand`` then ``encode`` (one table look-up and one call
  fewer): 3.05 us against 3.07 us, no gain;
* reading a D hand's answer (``rarrangement``: 8.9 us) splits as its
  choices, the wilds' order and the room check 4 us, and the Meld
  values 4 to 7 us (``_indexes`` of each meld's count vector, then
  ``natural_meld``/``make_set``: a typical D hand has one meld of two
  naturals and a wild and three isolated cards); a table of Meld
  values per rule set would have to be filled per hand (about 1,100
  pair-and-wild melds per rule set: 5 ms to build, more than a whole
  game of Three-Thirteen), which a cold hand must not find filled;
* Three-Thirteen's go-out check answered by the best discard (it
  leaves no deadwood exactly when the hand can go out, and the greedy
  bot asks it next) instead of a ready search: greedy 1.00x, expert
  0.96x (it asks other questions), ``benchmarks/games.py --against``.

The mask search (``rummy.search.onewild``, kept): a hand with at most one
wild and no card three times, under rules whose sets take any number of
wilds (aces low or high), is searched on bit masks (the naturals held, and
those held twice), with the roomy search's very moves and ties and no
solver object, count vectors or kept memos; with the wild and no meld of
three naturals (most D hands), every meld takes the wild and only the
states with it are searched.  Its answers are the roomy search's
(tests/test_search.py, against it and the brute force; ``game_hashes.py
--check`` and ``--all --check`` identical).  It takes 57% of D's hands
(78% of those the one-pack path leaves: all but two wilds or more) and
61% of C's (70%).
Also kept: the hot paths read a hand's cards in plain loops (CPython 3.11
makes a frame and a list for each comprehension: a 10-card mask 290 ns by
a loop, 385 by a comprehension, 610 by ``map``), and ``best_arrangement``
/ ``penalty`` of a tuple under the rules asked last go straight to the
one-pack tables.  Paired against main (``--against main --paired 5
--hands 2000``, load 23 on 2 CPUs): A 2.21 -> 1.87 us (0.84x), B 85.5 ->
82.2 (0.96x), C 51.3 -> 39.4 (0.77x), D 29.5 -> 18.9 (0.64x), gin
penalty 1.15 -> 0.97 (0.84x).  Bytecodes (``solver_ops.py``, median): A
355 -> 342, B 11747 -> 11778, C 6452 -> 4833, D 3026 -> 1750, gin 226 ->
219.  Whole games unchanged (``games.py --against main``: greedy 1.00x,
expert 0.98x): they ask mostly for best discards, which the mask search
does not answer.

Where a D hand went before the next steps (the fastest of 5 rounds per
hand, by class, load 2.7): no wild and no card twice (27% of hands) 5 us,
the one-pack path; one wild (26%) 22.6 us (37.9 on main); no wild, a card
twice (20%) 17.1 (28.0); one wild and a card twice (13%) 29.7 (36.9); two
wilds or more (14%) 52 (50.5 on main: the general search, and the p99).

The mask search extended (kept; each step its own commit, every answer
the roomy search's: tests/test_search.py against it and the brute force,
80k random hands and the C and D benchmark hands, ``game_hashes.py --all
--observations --check`` identical):

* one wild and no meld of three naturals (most one-wild D hands): the
  best meld taking the wild found in one pass over the cards
  (``_one_meld``), stopping when the cards left cost no more than the
  best saving, instead of a search of states with a memo;
* cards held twice read in C (the indexes equal to the one before them
  in the sorted key, their bits summed: a carry shows a card three
  times), and masks turned back into card indexes by compressing the key;
* a one-wild hand's deadwood cost summed from its key through a per-rule
  table instead of seven 8-bit chunks of its mask;
* two wilds or three, with or without cards held twice (``_wilds_search``,
  ``_twice_wilds_search``): the roomy search's states with two wilds left
  or more kept apart (every card has a set of its own with two wilds; a
  card starts a run with any of the next n + 1 cards of its suit), the
  isolated cards kept out and the costliest rescued by two wilds the
  search leaves unused, three left over a set of their own when melds may
  be all wilds; the walk down a suit stops at its last card;
* ``best_arrangement`` of a tuple under rules with a wild rank reads the
  card indexes first and the fast-path mask from them (a hand that goes
  on to the search is read once, not twice); gin and set A keep the mask
  loop;
* in a game (a solver kept for the rules: the bots' best discards make
  them) a hand of two or three wilds goes to the kept solvers, whose
  memos a game's hands share: the mask search, which keeps nothing, is
  the faster for a hand seen cold and the slower there (expert
  Three-Thirteen: 5.147M bytecodes a game with it, 4.973M without, main
  5.061M).

The mask search now takes 72% of D's hands (57% before; all but those
with a card three times or four wilds) and 87% of C's (61%).

Measured (session of 2026-12-08, load 1 to 4 on 2 CPUs, so each figure
above its idle value): paired against main (``--against main --paired 5
--hands 2000``, load 4): A 1.60 -> 1.61 us, B 85.2 -> 81.2 (0.95x), C
38.9 -> 36.9 (0.95x; p99 110 -> 96), D 16.8 -> 14.6 (0.87x; p99 59 ->
49), gin penalty 0.83 -> 0.81.  Single cold calls in chunks of 100 hands
(``--against main --chunk 100``, load 2; this mode read gin's unchanged
code 3-4% slower on the second worker, so read ratios against that): D
18.1 -> 16.1 us (1.12x), C 39.7 -> 40.0 (0.99x), B 88.5 -> 90.0 (0.98x),
A 0.95x, gin 0.96x.  Bytecodes (``solver_ops.py --hands 1000``, median
/ p99): A 342 -> 345, B 11582 -> 11603, C 4611 / 15671 -> 4202 / 13289, D
1768 / 7230 -> 1439 / 5573, gin 219.  By class (median bytecodes, main ->
now): D one wild 1867 -> 1525, no wild and a card twice 1735 -> 1375,
two wilds 5480 -> 3525, two wilds and a card twice 4770 -> 3420; C two
wilds 11139 -> 8497, two wilds and a card twice 9229 -> 8083, three wilds
11759 -> 9420.  Gin (``gin_peer.py --speed``, load 3): penalty 1.06x
OpenSpiel's ``min_deadwood`` (main 1.06x), best_arrangement 1.9x (main
1.9x).  Whole games (``games.py --against main``): greedy 1.00x (50.9
games per CPU second at load 3.6), expert 0.97-1.0x; an expert bot's move
at a 12-player Big Table: median 0.18 ms, p99 0.8 ms (main 0.20 / 0.9).

Where the time goes now, and what is missed:

* D (target 13 us): single cold calls 16 us at load 2.  By class (single
  cold calls, load 2): no wild, no card twice (26%) 4.3 us; no wild and a
  card twice (20%) 15.3; one wild (24%) 16.6; one wild and a card twice
  (14%) 29; two wilds or three (15%) 37 to 48.  The median hand is a
  one-wild or card-twice hand of about 1,400 to 1,500 bytecodes: the
  question's set-up (the key and mask, three kept-answer dicts, the tie
  rule: about 450), the search (about 600: ``_one_meld`` or ``_solve2``),
  reading the answer and building the Meld values (about 400).  A single
  cold call costs about 10 ns a bytecode here (caches cold), against
  about 7 when the same hand repeats.  p99 (3.4x the median, paired):
  the hands of two wilds or three (3,400 to 3,700 bytecodes).
* C (target 39 us): met or within a few per cent (36.7 paired, 39 to 41
  single cold calls at load 2).  The median hand holds one wild (and
  often a card twice): 13 cards, 10 to 20 states.
* B (target 66 us, best discard): 81 paired, 87 to 90 single cold calls;
  untouched this session: the roomy search with a discard owed (27
  states a hand, 8 of them owing the discard; ``_rsolve`` 51% of the
  bytecodes and ``_rmelds_of`` 15%, the meld lists rebuilt for every cold
  hand), then building the arrangement (about 12 us) and the solver
  (about 8 us cold).  The mask search does not answer discards: its ties
  would have to follow the roomy search's with a discard owed (runs that
  leave out a better discard, a copy thrown before a set of the others,
  a wild thrown), not tried.
* Greedy bots (target 100 games per CPU second): 50 to 53 at load 2 to
  4, unchanged: a game is about 1.69M bytecodes once the tables are
  built, 34% in the roomy search (the bots' best discards: about 365 a
  game, 25 us each), 18% in the engine (observations, moves), 15% in
  the questions' set-up (``answers.py``); ``best_discard_choice`` 51% of a
  game's time, ``go_out_discards`` 14%, the round's scoring 7%.  Reaching
  100 would need the best discard itself about four times faster.
* The p99 ratio of A and gin (about 6x a 1.6 us and 0.9 us median: the
  hands whose sets share cards with runs, and the machine's
  interruptions at this load) is far under the other shapes' medians.

Where a greedy Three-Thirteen move goes (40 games, thread CPU time, load
10): the bots' choice 44 us (the search), the observation 19 us (draw
phase 5.7 us median, all engine; discard phase 20 us, its go-out search
included), the move 16.5 us (a draw 5 to 7 us; a discard 8.7 us median,
the round's scoring at its end included in the mean of 19.7 us).
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

#: the independent pure-Python solver's cold medians on the reference
#: machine (idle), in microseconds: the targets for this search's cold medians
TARGETS = {"A": 11.0, "B": 66.0, "C": 39.0, "D": 13.0}
#: the p99 of every shape stays under this many times its median
P99_RATIO = 3.0
#: the shapes' descriptions
LABELS = {"A": "10 cards, one pack, best_arrangement",
          "B": "14 cards, 2 packs + 4 jokers, kings wild, best_discard",
          "C": "13 cards, 2 packs, kings wild, best_arrangement",
          "D": "9 cards, 4 packs, nines wild, best_arrangement",
          "gin": "Gin penalty: set A's hands, penalty"}

#: the clock calls are timed with: wall time (default) or this thread's CPU
#: time (``--clock cpu``: steadier when other work shares the machine)
CLOCK = [time.perf_counter_ns]


def forget() -> None:
    """Empty every memo the solver keeps between hands (not the per-rule
    tables, which a program builds once)."""
    from rummy.search import clear_memo

    clear_memo()


def hands(seed: int, n: int, packs: int, jokers: int, size: int,
          deal: Callable[[int, int], list[Card]] = deck) -> list[tuple[Card, ...]]:
    """``n`` hands of ``size`` cards dealt from ``packs`` packs and ``jokers``
    jokers (``deal``: the ``deck`` of the package timed)."""
    rng = random.Random(seed)
    shoe = deal(packs, jokers)
    return [tuple(rng.sample(shoe, size)) for _ in range(n)]


def shapes(n: int) -> dict[str, tuple[Callable[[Any], Any], list[tuple[Card, ...]]]]:
    """The four shapes (and Gin's penalty on set A), ``n`` hands each, with
    what is asked of them."""
    plain, kings, nines = MeldRules(), MeldRules(wild_rank=13), MeldRules(wild_rank=9)
    a = hands(1, n, 1, 0, 10)
    return {"A": (lambda h: best_arrangement(h, plain), a),
            "B": (lambda h: best_discard(h, kings), hands(3, n, 2, 4, 14)),
            "C": (lambda h: best_arrangement(h, kings), hands(4, n, 2, 0, 13)),
            "D": (lambda h: best_arrangement(h, nines), hands(5, n, 4, 0, 9)),
            "gin": (lambda h: penalty(h, plain), a)}


def timed(fn: Callable[[Any], Any], items: Sequence[Any], cold: bool = False) -> list[float]:
    """Microseconds per call for each item.  ``cold``: the kept memos are
    emptied before every call (outside the timing)."""
    for item in items:  # build the per-rule tables (every number of wilds met)
        fn(item)
    times: list[float] = []
    clock = CLOCK[0]
    gc.disable()
    try:
        for item in items:
            if cold:
                forget()
            t0 = clock()
            fn(item)
            times.append((clock() - t0) / 1000)
    finally:
        gc.enable()
    return times


def stats(times: list[float]) -> tuple[float, float, float]:
    """(median, p99, slowest)."""
    s = sorted(times)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.99))], s[-1]


def line(label: str, times: list[float]) -> tuple[float, float, float]:
    """Print one timing line; return its (median, p99, slowest)."""
    med, p99, worst = stats(times)
    print(f"  {label:<6} median {med:8.1f} us   p99 {p99:8.1f} us ({p99 / med:4.1f}x median)"
          f"   max {worst:8.1f} us")
    return med, p99, worst


def load() -> str:
    """The machine's load, for a heading."""
    return f"load {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} CPUs"


def cold_sets(n: int, cold: bool = True) -> dict[str, list[float]]:
    """The microseconds of every hand of each shape, cold (or warm):
    what ``--against`` compares."""
    return {name: timed(fn, items, cold=cold) for name, (fn, items) in shapes(n).items()}


def against(rev: str, n: int, clock: str, rounds: int = 3) -> int:
    """Time the shapes cold with the solver of commit ``rev``, then with
    this one, ``rounds`` times in turn; print the medians and p99 of each
    and the speed-up of each round."""
    olds: list[dict[str, list[float]]] = []
    news: list[dict[str, list[float]]] = []
    with past_rummy(rev) as tmp:
        env = dict(os.environ, PYTHONPATH=tmp)
        for _ in range(rounds):
            olds.append(json.loads(subprocess.run(
                [sys.executable, __file__, "--hands", str(n), "--clock", clock, "--cold-json"],
                env=env, capture_output=True, check=True, text=True).stdout))
            news.append(cold_sets(n))
    print(f"Cold medians, {n} hands per shape, {clock} clock, {rounds} rounds of {rev} then this "
          f"one, {load()}")
    for key in LABELS:
        old = [stats(o[key]) for o in olds]
        new = [stats(m[key]) for m in news]
        ups = sorted(o[0] / m[0] for o, m in zip(old, new))
        old_med = statistics.median(o[0] for o in old)
        new_med = statistics.median(m[0] for m in new)
        new_p99 = statistics.median(m[1] for m in new)
        print(f"  {key:<4} {rev}: {old_med:8.1f} us   now: {new_med:8.1f} us (p99 {new_p99:.1f})   "
              f"speed-up {statistics.median(ups):.2f}x (rounds {ups[0]:.2f}-{ups[-1]:.2f})"
              + (f"   target {TARGETS[key]:g} us" if key in TARGETS else ""))
    return 0


def _worker(n: int) -> int:
    """Serve timing requests on stdin, one per line: ``SHAPE cold|warm START
    STOP`` times those hands of a shape (after the same warm-up as
    :func:`timed`) and prints their microseconds as a JSON list.  Warm keeps
    the memo from hand to hand, across requests too."""
    sets = shapes(n)
    for fn, items in sets.values():
        for item in items:
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
            for name in LABELS:
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
    print(f"Cold medians, {n} hands per shape, {clock} clock, {rev} (cold and warm) and this one "
          f"timed in turn in chunks of {chunk} hands ({pin_note()}), {load()}")
    for name in LABELS:
        (old, _, _), (warm, _, _), (new, p99, _) = (
            stats(times[name, label]) for label in ("old cold", "old warm", "now"))
        spread = sorted(ups[name])
        print(f"  {name:<4} {rev}: {old:8.1f} us cold ({warm:.1f} warm)   now: {new:8.1f} us cold "
              f"(p99 {p99:.1f})   speed-up {old / new:.2f}x (chunks: median "
              f"{statistics.median(spread):.2f}x, middle half {spread[len(spread) // 4]:.2f}-"
              f"{spread[(3 * len(spread)) // 4]:.2f}x)")
    return 0


def _packages(path: str) -> dict[str, Any]:
    """The modules of the ``rummy`` package found at ``path``, imported
    apart from any other copy (their functions keep their own globals)."""
    for k in [k for k in sys.modules if k == "rummy" or k.startswith("rummy.")]:
        del sys.modules[k]
    sys.path.insert(0, path)
    try:
        __import__("rummy.search")
        return {k: v for k, v in sys.modules.items() if k == "rummy" or k.startswith("rummy.")}
    finally:
        sys.path.remove(path)


def _shapes_of(mods: dict[str, Any], n: int) -> tuple[dict[str, Any], Callable[[], None]]:
    """:func:`shapes` and ``clear_memo`` of the package ``mods``."""
    r = mods["rummy"]
    plain, kings, nines = r.MeldRules(), r.MeldRules(wild_rank=13), r.MeldRules(wild_rank=9)
    a = hands(1, n, 1, 0, 10, r.deck)
    return ({"A": (lambda h: r.best_arrangement(h, plain), a),
             "B": (lambda h: r.best_discard(h, kings), hands(3, n, 2, 4, 14, r.deck)),
             "C": (lambda h: r.best_arrangement(h, kings), hands(4, n, 2, 0, 13, r.deck)),
             "D": (lambda h: r.best_arrangement(h, nines), hands(5, n, 4, 0, 9, r.deck)),
             "gin": (lambda h: r.penalty(h, plain), a)}, mods["rummy.search"].clear_memo)


def against_paired(rev: str, n: int, rounds: int) -> int:
    """``--against REV --paired K``: both packages in this process, each
    hand timed cold with each in turn ``K`` times, its fastest kept."""
    clock = CLOCK[0]
    with past_rummy(rev) as tmp:
        codes = [_shapes_of(_packages(tmp), n), _shapes_of(_packages(str(ROOT)), n)]
        print(f"Cold, {n} hands per shape, each hand's fastest of {rounds} rounds, {rev} and this "
              f"code in turn in one process; {load()}")
        for name in LABELS:
            best: list[list[float]] = [[float("inf")] * n, [float("inf")] * n]
            for sets, _clear in codes:
                fn, items = sets[name]
                for item in items:
                    fn(item)
            gc.disable()
            try:
                for k in range(rounds):
                    for j in ((0, 1) if k % 2 == 0 else (1, 0)):
                        (fn, items), clear = codes[j][0][name], codes[j][1]
                        mins = best[j]
                        for i, item in enumerate(items):
                            clear()
                            t0 = clock()
                            fn(item)
                            t = (clock() - t0) / 1000
                            if t < mins[i]:
                                mins[i] = t
            finally:
                gc.enable()
            (old, old99, _), (new, new99, _) = stats(best[0]), stats(best[1])
            print(f"  {name:<4} {rev}: median {old:7.2f} us (p99 {old99:7.1f})   now: median {new:7.2f} us "
                  f"(p99 {new99:7.1f}, {new99 / new:.1f}x the median)   now/{rev} {new / old:.2f}"
                  + (f"   target {TARGETS[name]:g} us" if name in TARGETS else ""))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                   help="time calls by the wall clock (default) or by this thread's CPU time")
    p.add_argument("--against", metavar="REV",
                   help="also time the shapes cold with the solver of this git commit")
    p.add_argument("--rounds", type=int, default=3,
                   help="with --against: how many times to time the two in turn (default 3)")
    p.add_argument("--chunk", type=int, default=0,
                   help="with --against: time the past code and this one in turn in chunks of this "
                        "many hands, each in a worker process (see the module's docstring)")
    p.add_argument("--paired", type=int, default=0, metavar="K",
                   help="with --against: both codes in this process, every hand timed K times "
                        "with each in turn, its fastest kept (see the module's docstring)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--cold-json", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    CLOCK[0] = time.perf_counter_ns if args.clock == "wall" else time.thread_time_ns
    n = args.hands
    if args.cold_json:
        print(json.dumps(cold_sets(n)))
        return 0
    if args.worker:
        return _worker(n)
    if args.against and args.paired > 0:
        return against_paired(args.against, n, args.paired)
    if args.against and args.chunk > 0:
        return against_chunked(args.against, n, args.clock, args.chunk)
    if args.against:
        return against(args.against, n, args.clock, max(1, args.rounds))
    print(f"Meld solver, {n} hands per shape, one core, pure Python, {args.clock} clock; {load()}")
    for name, (fn, items) in shapes(n).items():
        print(f"{name}: {LABELS[name]}")
        line("warm", timed(fn, items))
        med, p99, _ = line("cold", timed(fn, items, cold=True))
        target = TARGETS.get(name)
        if target is not None:
            print(f"         target (cold, the independent solver's median on the reference "
                  f"machine): {target:g} us: {'met' if med <= target else 'MISSED'} here; "
                  f"p99 under {P99_RATIO:g}x the median: {'met' if p99 < P99_RATIO * med else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
