"""How much work is the meld solver?  Median Python bytecodes per call.

Timings on a machine shared with other work swing by 2x from run to run;
the number of bytecodes the interpreter executes does not.  This script
counts them (``sys.settrace`` with opcode events) for the solver's cold
calls on the four shapes of ``benchmarks/solver.py`` and Gin's ``penalty``
(the kept memos emptied before each hand; the per-rule tables built
first, as a program builds them once), median and p99, and for one whole
game per bot line-up, so that two
versions of the code can be compared anywhere.  Work done inside C (dict
look-ups, sorting, ``map``) is not counted: compare like with like, and
confirm a gain with ``benchmarks/solver.py`` on an idle machine.

Run: ``.venv/bin/python benchmarks/solver_ops.py`` (``--hands N``, ``--no-games``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence
from functools import partial
from types import FrameType
from typing import Any

from solver import LABELS, shapes

from rummy import new_game
from rummy.bots import make_bot
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


def cold(fn: Callable[[Any], Any], items: Sequence[Any]) -> tuple[int, int]:
    """(median, p99) bytecodes of ``fn(item)`` with the memos emptied first."""
    for item in items:  # per-rule tables are built once per program
        fn(item)
    counts = []
    for item in items:
        clear_memo()
        counts.append(bytecodes(partial(fn, item)))
    counts.sort()
    return int(statistics.median(counts)), counts[min(len(counts) - 1, int(len(counts) * 0.99))]


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
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--no-games", action="store_true", help="skip the whole games")
    args = p.parse_args(argv)
    n = args.hands
    print(f"Python bytecodes per cold call, {n} hands per shape: median, p99")
    for name, (fn, items) in shapes(n).items():
        med, p99 = cold(fn, items)
        print(f"  {name:<4} {LABELS[name]:<56} {med:>7} {p99:>8}")
    if not args.no_games:
        game("three_thirteen", 4, "greedy", seed=99)  # build the per-rule tables first
        print("Bytecodes of one whole game (seed 1)")
        for variant, players, bot in (("three_thirteen", 4, "greedy"), ("three_thirteen", 4, "expert"),
                                      ("big_table", 12, "greedy")):
            print(f"  {variant} {players} x {bot}: {game(variant, players, bot) / 1e6:.2f} M")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
