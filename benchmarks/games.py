"""Game speed: full games per second, one core, for every family.

Three-Thirteen: whole 11-round games of ``three_thirteen`` with 4 GreedyBots
and with 4 ExpertBots, through the common loop (``to_act`` / ``observe`` /
``apply``).  Prints the median over repeats of games per second (CPU time of
this process, so other load on the machine counts less) and the ratio to the
targets (20 greedy games/s, 5 expert games/s).  Then runs
``benchmarks/games_big_table.py`` and ``benchmarks/games_gin.py`` when they
exist, so one script reports all families.

    .venv/bin/python benchmarks/games.py                   # 3 repeats of 5 games
    .venv/bin/python benchmarks/games.py --games 10 --repeats 5 --only three_thirteen
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from pathlib import Path

from rummy import new_game
from rummy.bots import make_bot

TARGETS = {"greedy": 20.0, "expert": 5.0}


def play(bot: str, seed: int, players: int = 4) -> tuple[float, float, int]:
    """One full game; returns (CPU seconds, wall seconds, actions)."""
    g = new_game("three_thirteen", players=players, seed=seed)
    bots = [make_bot(bot, seed=seed * 10 + i) for i in range(players)]
    cpu, wall = time.process_time(), time.perf_counter()
    actions = 0
    while not g.is_over:
        p = g.to_act()[0]
        g.apply(bots[p].choose(g.observe(p)), player=p)
        actions += 1
    return time.process_time() - cpu, time.perf_counter() - wall, actions


def three_thirteen(games: int, repeats: int) -> None:
    print(f"three_thirteen, 4 players, {games} games x {repeats} repeats (one core)")
    for bot in ("greedy", "expert"):
        rates, walls, acts = [], [], []
        for r in range(repeats):
            cpu_total = wall_total = 0.0
            for i in range(games):
                cpu, wall, n = play(bot, seed=1000 * r + i)
                cpu_total += cpu
                wall_total += wall
                acts.append(n)
            rates.append(games / cpu_total)
            walls.append(games / wall_total)
        med = statistics.median(rates)
        print(f"  4 x {bot:>6}: {med:6.2f} games/s (CPU; wall {statistics.median(walls):.2f}), "
              f"{statistics.median(acts):.0f} actions/game, "
              f"{1000 / med / statistics.median(acts):.2f} ms/action; "
              f"target {TARGETS[bot]:g}/s, ratio {med / TARGETS[bot]:.2f}")


def _run_other(path: Path) -> None:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print(f"\n== {path.name} ==")
    try:
        module.main([])
    except TypeError:  # a main() without arguments
        module.main()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Full games per second for every family.")
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--only", choices=["three_thirteen", "big_table", "gin"], default=None)
    args = p.parse_args(argv)
    if args.only in (None, "three_thirteen"):
        three_thirteen(args.games, args.repeats)
    here = Path(__file__).resolve().parent
    for family, name in (("big_table", "games_big_table.py"), ("gin", "games_gin.py")):
        if args.only in (None, family) and (here / name).exists():
            _run_other(here / name)


if __name__ == "__main__":
    main()
