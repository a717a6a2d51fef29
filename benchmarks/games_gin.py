"""How fast gin_three plays: hands per second with random bots, next to
OpenSpiel's gin_rummy measured in the same run.

Run: ``.venv/bin/python benchmarks/games_gin.py [--hands 400] [--repeats 3]``
(``benchmarks/games.py`` imports this module and calls :func:`main`).

Three figures, each the median of ``--repeats`` runs, in hands per second
of wall time and of CPU time (the CPU figure is steadier on a shared
machine):

* ours: ``rummy`` gin_three, three ``RandomBot`` players through the
  generic loop every front end uses (``observe`` -> ``choose`` ->
  ``apply``), whole games, counting every hand dealt (drawn hands too);
* OpenSpiel, Python loop: ``pyspiel`` gin_rummy, one hand per game, a
  uniformly random legal action at each decision and a sampled chance
  outcome at each chance node, driven from Python;
* OpenSpiel, C++ loop: ``pyspiel.evaluate_bots`` with OpenSpiel's C++
  uniform random bots, the whole game played in C++;
* OpenSpiel, C++ ``random_sim_test`` (OpenSpiel's own random-play test; it
  also checks every state as it goes, so it is far below the raw speed).

OpenSpiel's C++ loop is not much faster than its Python loop: every move
recomputes the mover's minimum deadwood and appends an observation string
for each player to its action-observation histories.

A random player hardly ever knocks, so almost every random hand runs down
to the 2-card stock limit in both engines (about 115 moves a hand in ours,
110 in OpenSpiel's): the figures compare like with like.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rummy import new_game  # noqa: E402
from rummy.bots import RandomBot  # noqa: E402


def ours(hands: int, seed: int) -> int:
    """Play gin_three games with random bots until ``hands`` hands are over
    (drawn hands count: each is a full hand of play)."""
    done = 0
    game = 0
    while done < hands:
        g = new_game("gin_three", seed=seed * 1000 + game)
        bots = [RandomBot(seed=seed * 7 + game * 3 + i) for i in range(3)]
        while not g.is_over and done + len(g.results) < hands:
            p = g.to_act()[0]
            g.apply(bots[p].choose(g.observe(p)), player=p)
        done += len(g.results)
        game += 1
    return done


def openspiel_python(hands: int, seed: int) -> int:
    """OpenSpiel gin_rummy, random play driven from a Python loop."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    for _ in range(hands):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    return hands


def openspiel_cpp_bots(hands: int, seed: int) -> int:
    """OpenSpiel's C++ game loop (``evaluate_bots``) with its C++ uniform
    random bots: no Python between moves."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(p, seed * 10 + p) for p in range(2)]
    for i in range(hands):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 100_000 + i)
    return hands


def openspiel_cpp(hands: int, seed: int) -> int:
    """OpenSpiel's own C++ random simulation (with its test checks)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    pyspiel.random_sim_test(game, hands, False, False, mask_test=False)
    return hands


def _rate(fn: Callable[[int, int], int], hands: int, repeats: int) -> tuple[float, float]:
    walls, cpus = [], []
    for r in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        n = fn(hands, 1 + r)
        w1, c1 = time.perf_counter(), time.process_time()
        walls.append(n / (w1 - w0))
        cpus.append(n / max(c1 - c0, 1e-9))
        print(".", end="", file=sys.stderr, flush=True)
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> None:
    """Print gin hands per second: ours (random bots) and OpenSpiel's, same run."""
    ap = argparse.ArgumentParser(description="gin_three hands per second vs OpenSpiel")
    ap.add_argument("--hands", type=int, default=400, help="hands per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="measurements (median shown)")
    args = ap.parse_args([] if argv is None and __name__ != "__main__" else argv)
    print("gin: random play, hands per second (median of "
          f"{args.repeats} runs of {args.hands} hands)", flush=True)
    rows = [("rummy gin_three, random bots (observe/choose/apply)",
             _rate(ours, args.hands, args.repeats))]
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("  open_spiel is not installed: no OpenSpiel figures (pip install open-spiel)")
    else:
        rows.append(("OpenSpiel gin_rummy, Python loop",
                     _rate(openspiel_python, args.hands, args.repeats)))
        rows.append(("OpenSpiel gin_rummy, C++ loop (evaluate_bots, random bots)",
                     _rate(openspiel_cpp_bots, args.hands, args.repeats)))
        # random_sim_test checks every state as it goes: fewer hands keep it short
        rows.append(("OpenSpiel gin_rummy, C++ random_sim_test",
                     _rate(openspiel_cpp, max(20, args.hands // 5), args.repeats)))
    print(file=sys.stderr)
    base_wall, base_cpu = rows[0][1]
    print(f"  {'':60s} {'wall':>9s} {'cpu':>9s}   ours / this (cpu)")
    for label, (wall, cpu) in rows:
        ratio = base_cpu / cpu
        print(f"  {label:60s} {wall:9.1f} {cpu:9.1f}   {ratio:6.2f}x")


if __name__ == "__main__":
    main()
