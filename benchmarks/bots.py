"""Bot strength: ExpertBot against three GreedyBots, and GreedyBot against
three RandomBots, over many seeded games of ``three_thirteen`` (4 players).

For each game the paired difference is (mean total of the stronger bot's
seats) - (mean total of the other seats); the script prints its mean with a
95% confidence interval (mean +- 1.96 standard errors over games) and says
whether the interval excludes zero.  Lower totals are better, so a stronger
bot shows a negative difference.

    .venv/bin/python benchmarks/bots.py --games 2000 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import time

from rummy.simulate import paired_difference, simulate, summarize


def matchup(variant: str, strong: str, weak: str, games: int, seed: int, jobs: int) -> None:
    bots = [strong, weak, weak, weak]
    t0 = time.perf_counter()
    with cf.ProcessPoolExecutor(max_workers=jobs) as pool:
        df = simulate(variant, bots, games, seed, executor=pool, progress=True)
    elapsed = time.perf_counter() - t0
    table = summarize(df)
    print(f"\n== {variant}: {strong} vs three {weak} bots, {games} games, seed {seed} "
          f"({elapsed:.0f} s on {jobs} processes) ==")
    for seat, row in table.iterrows():
        print(f"  seat {seat} {row['bot']:>7}: mean total {row['mean score']:7.2f} "
              f"(95% CI {row['ci95 low']:.2f} to {row['ci95 high']:.2f}), "
              f"win rate {row['win rate']:.1%}, went out {row['went out / game']:.2f}/game")
    by_bot = df.groupby("bot").agg(mean=("score", "mean"), win_rate=("won", "mean"))
    for bot, row in by_bot.iterrows():
        print(f"  all {bot} seats: mean total {row['mean']:.2f}, win rate {row['win_rate']:.1%}")
    d = paired_difference(df, strong, weak)
    excludes = d["ci95 high"] < 0 or d["ci95 low"] > 0
    print(f"  paired difference {strong} - {weak}: {d['mean']:.2f} points per game "
          f"(95% CI {d['ci95 low']:.2f} to {d['ci95 high']:.2f}; n = {d['games']}); "
          f"CI excludes zero: {'yes' if excludes else 'NO'}")
    print(f"  ratio of mean totals {strong}/{weak}: "
          f"{by_bot.loc[strong, 'mean'] / by_bot.loc[weak, 'mean']:.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--variant", default="three_thirteen")
    p.add_argument("--only", choices=["expert", "greedy"], default=None,
                   help="run one matchup only")
    args = p.parse_args()
    if args.only in (None, "expert"):
        matchup(args.variant, "expert", "greedy", args.games, args.seed, args.jobs)
    if args.only in (None, "greedy"):
        matchup(args.variant, "greedy", "random", args.games, args.seed, args.jobs)


if __name__ == "__main__":
    main()
