"""How much work is the meld solver?  Median Python bytecodes per call.

Timings on a machine shared with other work swing by 2x from run to run;
the number of bytecodes the interpreter executes does not.  This script
counts them (``sys.settrace`` with opcode events) for the solver's cold
calls on sets A, C and D of ``benchmarks/solver.py`` (the kept memo emptied
before each hand), and for one whole game per bot line-up, so that two
versions of the code can be compared anywhere.  Work done inside C (dict
look-ups, sorting, ``map``) is not counted: compare like with like, and
confirm a gain with ``benchmarks/solver.py`` on an idle machine.

Run: ``.venv/bin/python benchmarks/solver_ops.py`` (``--hands N``, ``--no-games``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from functools import partial
from types import FrameType
from typing import Any

from rummy import MeldRules, best_arrangement, best_discard, deck, new_game, penalty
from rummy.bots import make_bot
from rummy.cards import Card
from rummy.search import clear_memo

_COUNT = [0]


def _local(frame: FrameType, event: str, arg: Any) -> Any:
    if event == "opcode":
        _COUNT[0] += 1
    return _local


def _tracer(frame: FrameType, event: str, arg: Any) -> Any:
    frame.f_trace_opcodes = True
    frame.f_trace_lines = False
    return _local


def bytecodes(fn: Callable[[], Any]) -> int:
    """Bytecodes executed by ``fn()`` in Python frames."""
    _COUNT[0] = 0
    sys.settrace(_tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
    return _COUNT[0]


def hands(seed: int, n: int, packs: int, jokers: int, size: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    shoe = deck(packs, jokers)
    return [tuple(rng.sample(shoe, size)) for _ in range(n)]


def cold(fn: Callable[[Any], Any], items: Sequence[Any]) -> int:
    """Median bytecodes of ``fn(item)`` with the memo emptied first."""
    for item in items[:5]:  # per-rule tables are built once per program
        fn(item)
    counts = []
    for item in items:
        clear_memo()
        counts.append(bytecodes(partial(fn, item)))
    return int(statistics.median(counts))


def game(variant: str, players: int, bot: str, seed: int = 1) -> int:
    def play() -> None:
        g = new_game(variant, players=players, seed=seed)
        bots = [make_bot(bot, seed=seed * 100 + i) for i in range(players)]
        while not g.is_over:
            p = g.to_act()[0]
            g.apply(bots[p].choose(g.observe(p)), player=p)

    return bytecodes(play)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=60)
    p.add_argument("--no-games", action="store_true", help="skip the whole games")
    args = p.parse_args(argv)
    plain, kings = MeldRules(), MeldRules(wild_rank=13)
    n = args.hands
    print(f"Median Python bytecodes per cold call, {n} hands per set")
    print(f"  A penalty, 10 cards, one pack:                 {cold(lambda h: penalty(h, plain), hands(1, n, 1, 0, 10)):>9}")
    print(f"  C best_discard, 14 cards, 2 packs + 4 jokers:  {cold(lambda h: best_discard(h, kings), hands(3, n, 2, 4, 14)):>9}")
    print(f"  D best_arrangement, 13 cards, 2 packs:         {cold(lambda h: best_arrangement(h, kings), hands(4, n, 2, 0, 13)):>9}")
    if not args.no_games:
        game("three_thirteen", 4, "greedy", seed=99)  # build the per-rule tables first
        print("Bytecodes of one whole game (seed 1)")
        for variant, players, bot in (("three_thirteen", 4, "greedy"), ("three_thirteen", 4, "expert"),
                                      ("big_table", 12, "greedy")):
            print(f"  {variant} {players} x {bot}: {game(variant, players, bot) / 1e6:.2f} M")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
