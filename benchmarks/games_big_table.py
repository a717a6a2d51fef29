"""Big Table speed: full 11-hand games per second with 12 greedy bots.

Plays whole games (hands 1..11, 3 to 13 cards, 12 seats) with
``rummy.bots.GreedyBot`` through the common loop (``to_act`` / ``observe`` /
``apply``) and prints median figures over repeats, with the ratio to the
same games' engine-only cost (random bots) so that bot time and engine time
can be told apart.

Run::

    .venv/bin/python benchmarks/games_big_table.py            # 3 repeats of 3 games
    .venv/bin/python benchmarks/games_big_table.py --games 5 --repeats 5

``benchmarks/games.py`` imports this module and calls :func:`main`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from rummy import new_game
from rummy.bots import make_bot

PLAYERS = 12


def play(bot: str, seed: int) -> tuple[float, float, int, int]:
    """One full game; returns (wall seconds, CPU seconds, actions, cycles over
    all 11 hands)."""
    g = new_game("big_table", players=PLAYERS, seed=seed)
    bots = [make_bot(bot, seed=seed * 100 + i) for i in range(PLAYERS)]
    actions = cycles = 0
    hand, last_cycle = g.hand_number, g.cycle
    t = time.perf_counter()
    cpu = time.process_time()
    while not g.is_over:
        p = g.to_act()[0]
        g.apply(bots[p].choose(g.observe(p)), player=p)
        actions += 1
        if g.is_over or g.hand_number != hand:
            cycles += last_cycle
            hand = g.hand_number
        last_cycle = g.cycle
    return time.perf_counter() - t, time.process_time() - cpu, actions, cycles


def measure(bot: str, games: int, repeats: int, seed: int,
            progress: bool = True) -> dict[str, float]:
    """Median games/s (wall clock and CPU time), actions/s and cycles per
    hand over ``repeats`` runs."""
    rates, cpu_rates, action_rates, cycles_per_hand = [], [], [], []
    for r in range(repeats):
        secs = cpu = 0.0
        acts = cyc = 0
        for i in range(games):
            s, u, a, c = play(bot, seed + r * games + i)
            secs += s
            cpu += u
            acts += a
            cyc += c
        rates.append(games / secs)
        cpu_rates.append(games / cpu)
        action_rates.append(acts / secs)
        cycles_per_hand.append(cyc / (games * 11))
        if progress:
            print(f"  {bot}: run {r + 1}/{repeats}: {games / secs:.3f} games/s "
                  f"({secs:.1f} s for {games} games)", file=sys.stderr, flush=True)
    return {
        "games_per_s": statistics.median(rates),
        "games_per_cpu_s": statistics.median(cpu_rates),
        "actions_per_s": statistics.median(action_rates),
        "cycles_per_hand": statistics.median(cycles_per_hand),
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Print full 11-hand games per second with 12 greedy bots (medians).

    ``argv`` defaults to no arguments (not ``sys.argv``), so another script
    can call ``main()`` whatever its own command line.
    """
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=3, help="games per run (default 3)")
    p.add_argument("--repeats", type=int, default=3, help="runs; medians are printed (3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    args = p.parse_args(list(argv or []))
    print(f"Big Table, {PLAYERS} players, full 11-hand games "
          f"({args.repeats} runs of {args.games} games; medians)")
    greedy = measure("greedy", args.games, args.repeats, args.seed, not args.quiet)
    engine = measure("random", args.games, args.repeats, args.seed, not args.quiet)
    print(f"  12 greedy bots: {greedy['games_per_s']:.3f} games/s "
          f"({1 / greedy['games_per_s']:.2f} s per game; "
          f"{greedy['games_per_cpu_s']:.3f} per CPU second), "
          f"{greedy['actions_per_s']:,.0f} actions/s, "
          f"{greedy['cycles_per_hand']:.1f} cycles per hand")
    print(f"  12 random bots: {engine['games_per_s']:.3f} games/s "
          f"({engine['games_per_cpu_s']:.3f} per CPU second), "
          f"{engine['actions_per_s']:,.0f} actions/s, "
          f"{engine['cycles_per_hand']:.1f} cycles per hand")
    ratio = engine["actions_per_s"] / greedy["actions_per_s"]
    print(f"  ratio: an action with a greedy bot costs {ratio:.1f}x an action with a random bot "
          "(the rest is the greedy bot's solver calls)")


if __name__ == "__main__":
    main(sys.argv[1:])
