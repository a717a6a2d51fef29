"""Self-play of whole games with invariants checked after every action.

The test plays a few full games per variant with RandomBots and GreedyBots;
the same code run as a script plays as many as asked (2,000 per variant and
bot for a thorough run) over a process pool:

    .venv/bin/python tests/test_three_thirteen_selfplay.py --games 2000 --jobs 2

After every action: every card of the shoe is in exactly one place (stock,
pile or a hand), every hand has the right size, the player to act sees
exactly the engine's legal moves, nobody's observation shows another hand;
at the end: 11 rounds were scored, totals add up, and every game ended.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import sys
import time
from typing import Any

import pytest

from rummy import new_game
from rummy.bots import make_bot

VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("three_thirteen", {}, 4),
    ("tre_tretton", {}, 4),
    ("three_thirteen_jokers", {"jokers": 2}, 4),
]


def play_checked(variant: str, options: dict[str, Any], players: int, bot: str,
                 seed: int) -> dict[str, int]:
    """One full game between ``players`` bots called ``bot``, checking the
    invariants after every action; returns counts for the report."""
    g = new_game(variant, players=players, seed=seed, **options)
    bots = [make_bot(bot, seed=seed * 10 + i) for i in range(players)]
    g.check_invariants()
    actions = 0
    limit = 11 * 2 * (g.stall_turns + players) + 50
    while not g.is_over:
        p = g.to_act()[0]
        obs = g.observe(p)
        assert list(obs.legal_actions) == g.legal_actions(p)
        assert len(obs.hand) == len(g.hands[p])
        g.apply(bots[p].choose(obs), player=p)
        g.check_invariants()
        actions += 1
        assert actions <= limit, f"{variant} seed {seed}: the game does not end"
    assert len(g.round_scores) == 11
    assert [sum(col) for col in zip(*g.round_scores)] == g.scores
    outs = [s for s in g.round_out if s is not None]
    return {"games": 1, "actions": actions, "rounds out": len(outs),
            "rounds stalled": 11 - len(outs), "ties": int(g.winner is None)}


@pytest.mark.parametrize("variant, options, players", VARIANTS)
@pytest.mark.parametrize("bot, games", [("random", 1), ("greedy", 1)])
def test_selfplay_whole_games_keep_the_invariants(variant, options, players, bot, games):
    total = {"games": 0, "rounds out": 0}
    for seed in range(games):
        r = play_checked(variant, options, players, bot, seed)
        total["games"] += 1
        total["rounds out"] += r["rounds out"]
    assert total["games"] == games
    if bot == "greedy":  # greedy players go out in most rounds
        assert total["rounds out"] >= 8 * games


def _chunk(variant: str, options: dict[str, Any], players: int, bot: str,
           seeds: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in seeds:
        for k, v in play_checked(variant, options, players, bot, s).items():
            out[k] = out.get(k, 0) + v
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Three-Thirteen self-play with invariants.")
    p.add_argument("--games", type=int, default=2000, help="games per variant and bot")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--bots", default="random,greedy")
    p.add_argument("--variants", default=",".join(v for v, _, _ in VARIANTS))
    args = p.parse_args(argv)
    wanted = args.variants.split(",")
    with cf.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for variant, options, players in VARIANTS:
            if variant not in wanted:
                continue
            for bot in args.bots.split(","):
                t0 = time.perf_counter()
                step = 10
                futures = [pool.submit(_chunk, variant, options, players, bot,
                                       list(range(i, min(i + step, args.games))))
                           for i in range(0, args.games, step)]
                total: dict[str, int] = {}
                for f in cf.as_completed(futures):
                    for k, v in f.result().items():
                        total[k] = total.get(k, 0) + v
                    print(f"\r{variant} {bot}: {total.get('games', 0)}/{args.games} games",
                          end="", file=sys.stderr)
                print(file=sys.stderr)
                dt = time.perf_counter() - t0
                print(f"{variant:>22} {bot:>6}: {total['games']} games, {total['actions']} "
                      f"actions, all invariants held after every action; rounds out "
                      f"{total['rounds out']}, rounds stalled {total['rounds stalled']}, "
                      f"tied games {total['ties']}; {dt:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
