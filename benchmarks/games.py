"""Game speed: full games per CPU second, greedy and expert bots, every variant.

Whole games through the common loop (``to_act`` / ``observe`` / ``apply``)
of each of the five variants: ``three_thirteen``, ``tre_tretton`` and
``three_thirteen_jokers`` with 4 players, ``big_table`` with 12 and
``gin_three`` with 3, every seat the same bot (``greedy`` or ``expert``).
Prints the median over repeats of games per CPU second (CPU time of this
process, so other load on the machine counts less), actions per game, and
for ``three_thirteen`` the ratio to the targets (20 greedy games/s,
5 expert games/s, and the search-speed issue's 100 greedy games/s on this machine).  Then a profile (cProfile, top entries by own time) of
one game per variant and bot, so that it shows where the time goes, with the
share of that game spent in the meld search (the modules of ``rummy/search/``,
cumulative time of the calls made from outside them):
what is left once the search is subtracted is engine and bot overhead.

    .venv/bin/python benchmarks/games.py                        # 3 repeats of 3 games
    .venv/bin/python benchmarks/games.py --games 10 --repeats 5 --only three_thirteen
    .venv/bin/python benchmarks/games.py --no-profile --others  # also games_big_table/gin.py

``--others`` also runs ``benchmarks/games_big_table.py`` and
``benchmarks/games_gin.py`` (engine-only and OpenSpiel figures).

The targets are games per CPU second on one machine, the reference machine,
where the code of ``b0a9e78`` played 5.1 greedy and 2.2 expert games a second.
To read them on another, ``--against REV`` plays ``three_thirteen`` with the
engine and bots of a past commit (``git archive REV rummy``, in a worker
process) and with this code (in another), game by game in turn (the same
seeds, the order changing from game to game), so that a machine whose speed
drifts within seconds slows both alike.  It prints each code's games per
CPU second, the ratio of the two and of each pair of games, and the target
scaled by how much faster ``REV`` runs here than on the reference machine.
Both workers run on one CPU (see ``_pastcode.workers``; ``PIN_WORKERS=0``
leaves them to the scheduler).  ``--block N`` lets each code play N games
in a row before the other: closer to the reference figures, each of which was
one code playing alone, as a game that follows the other code's starts with
the caches that code filled (this code keeps more between games)::

    .venv/bin/python benchmarks/games.py --against b0a9e78 --games 40
    .venv/bin/python benchmarks/games.py --against b0a9e78 --games 150 --block 10
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

from _pastcode import ROOT, ask, past_rummy, pin_note, workers

from rummy import new_game
from rummy.bots import make_bot

#: variant -> players
VARIANTS = {
    "three_thirteen": 4,
    "tre_tretton": 4,
    "three_thirteen_jokers": 4,
    "big_table": 12,
    "gin_three": 3,
}
#: the targets, three_thirteen with 4 bots: games per CPU second
TARGETS = {"greedy": 20.0, "expert": 5.0}
#: the search-speed issue's aim, on this machine (2 cores, idle): four greedy bots play
#: 100 Three-Thirteen games per CPU second (they played 58 when it was set)
SEARCH_AIM = {"greedy": 100.0}
#: what the code of b0a9e78 played on the reference machine (games per CPU second)
REFERENCE_THEN = {"greedy": 5.1, "expert": 2.2}


def play(variant: str, bot: str, seed: int) -> tuple[float, int]:
    """One full game; returns (CPU seconds, actions)."""
    players = VARIANTS[variant]
    g = new_game(variant, players=players, seed=seed)
    bots = [make_bot(bot, seed=seed * 100 + i) for i in range(players)]
    cpu = time.process_time()
    actions = 0
    while not g.is_over:
        p = g.to_act()[0]
        g.apply(bots[p].choose(g.observe(p)), player=p)
        actions += 1
    return time.process_time() - cpu, actions


def measure(variant: str, bot: str, games: int, repeats: int) -> float:
    """Print and return the median games per CPU second."""
    rates: list[float] = []
    acts: list[int] = []
    for r in range(repeats):
        cpu_total = 0.0
        for i in range(games):
            cpu, n = play(variant, bot, seed=1000 * r + i)
            cpu_total += cpu
            acts.append(n)
        rates.append(games / cpu_total)
    med = statistics.median(rates)
    per_action = 1000 / med / statistics.median(acts)
    note = ""
    if variant == "three_thirteen":
        ok = "met" if med >= TARGETS[bot] else "MISSED"
        note = f"; target {TARGETS[bot]:g}/s ({ok}, ratio {med / TARGETS[bot]:.2f})"
        if bot in SEARCH_AIM:
            aim = SEARCH_AIM[bot]
            note += (f"; the search issue's aim here {aim:g}/s "
                     f"({'met' if med >= aim else 'MISSED'}, ratio {med / aim:.2f})")
    print(f"  {variant:<22} {VARIANTS[variant]:>2} x {bot:<6} {med:8.2f} games/CPU s, "
          f"{statistics.median(acts):6.0f} actions/game, {per_action:.3f} ms/action{note}",
          flush=True)
    return med


#: the meld search's package (``search_share`` counts time spent in its modules)
SEARCH_PACKAGE = "rummy/search/"


def search_share(stats: pstats.Stats) -> tuple[float, float]:
    """(seconds inside the meld search, seconds in all) of a profile: the
    cumulative time of every call into a module of :data:`SEARCH_PACKAGE`
    made from a function outside them (so a recursive search counts once)."""
    inside = os.sep.join(SEARCH_PACKAGE.split("/"))
    search = 0.0
    for func, (_cc, _nc, _tt, _ct, callers) in stats.stats.items():  # type: ignore[attr-defined]
        if inside not in func[0]:
            continue
        for caller, edge in callers.items():
            if inside not in caller[0]:
                search += edge[3]
    return search, stats.total_tt  # type: ignore[attr-defined]


def profile(variant: str, bot: str, top: int) -> None:
    """One game under cProfile: the ``top`` functions by own time."""
    prof = cProfile.Profile()
    prof.enable()
    play(variant, bot, seed=424242)
    prof.disable()
    out = io.StringIO()
    st = pstats.Stats(prof, stream=out)
    st.sort_stats("tottime").print_stats(top)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    start = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls")), 0)
    search, total = search_share(st)
    print(f"\n  profile: {variant}, {VARIANTS[variant]} x {bot} (one game, by own time); "
          f"meld search {search:.3f} of {total:.3f} s ({search / total:.0%}), "
          f"the rest {total - search:.3f} s")
    for ln in lines[start:start + top + 1]:
        print("   " + ln.replace(str(Path(__file__).resolve().parents[1]) + os.sep, ""))


def _worker() -> None:
    """Serve ``BOT SEED`` lines on stdin: play that three_thirteen game and
    print its CPU seconds (one game first, untimed, as a warm-up)."""
    play("three_thirteen", "greedy", seed=999)
    for request in sys.stdin:
        bot, seed = request.split()
        print(play("three_thirteen", bot, int(seed))[0], flush=True)


def against(rev: str, games: int, bots: list[str], block: int = 1) -> None:
    """three_thirteen games with the code of ``rev`` and with this code, in
    turn game by game (or ``block`` games at a time), each in a worker
    process (see the docstring)."""
    times: dict[str, tuple[list[float], list[float]]] = {}
    block = max(1, block)
    with past_rummy(rev) as tmp, workers(__file__, ["--worker"], [tmp, str(ROOT)]) as procs:
        for bot in bots:
            old, new = times[bot] = ([0.0] * games, [0.0] * games)
            for start in range(0, games, block):
                for k in ((0, 1) if (start // block) % 2 else (1, 0)):  # the order turns
                    for i in range(start, min(games, start + block)):
                        (old, new)[k][i] = float(ask(procs[k], f"{bot} {i + 1}"))
    turns = "game by game" if block == 1 else f"{block} games at a time"
    print(f"three_thirteen, 4 bots, {games} games each, {rev} and this code in turn {turns} "
          f"({pin_note()}); load {os.getloadavg()[0]:.2f}")
    for bot, (old, new) in times.items():
        then, now = games / sum(old), games / sum(new)
        pairs = sorted(o / n for o, n in zip(old, new))
        factor = then / REFERENCE_THEN[bot]
        target = TARGETS[bot] * factor
        print(f"  4 x {bot:<6} {rev}: {then:6.2f} games/CPU s   now: {now:6.2f}   speed-up "
              f"{now / then:.2f}x (pairs: median {statistics.median(pairs):.2f}x, middle half "
              f"{pairs[len(pairs) // 4]:.2f}-{pairs[(3 * len(pairs)) // 4]:.2f}x)   target "
              f"{TARGETS[bot]:g} x {factor:.2f} ({rev} here / {REFERENCE_THEN[bot]:g}) = "
              f"{target:.1f}/s: {'met' if now >= target else 'MISSED'}; needs "
              f"{target / then:.2f}x", flush=True)


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
    p = argparse.ArgumentParser(description="Full games per CPU second for every variant.")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--only", choices=sorted(VARIANTS), action="append", default=None,
                   help="a variant to time (repeatable; default: all five)")
    p.add_argument("--bots", nargs="+", choices=["greedy", "expert"], default=["greedy", "expert"])
    p.add_argument("--no-profile", action="store_true", help="skip the profiles")
    p.add_argument("--top", type=int, default=12, help="profile entries shown")
    p.add_argument("--others", action="store_true",
                   help="also run games_big_table.py and games_gin.py")
    p.add_argument("--against", metavar="REV",
                   help="time three_thirteen games with the code of this git commit and with "
                        "this code, in turn game by game, and scale the targets")
    p.add_argument("--block", type=int, default=1, metavar="N",
                   help="with --against: each code plays N games in a row before the other "
                        "(default 1: game by game)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        _worker()
        return
    if args.against:
        against(args.against, args.games, args.bots, args.block)
        return
    variants = args.only or list(VARIANTS)
    print(f"Full games per CPU second, {args.games} games x {args.repeats} repeats, one core; "
          f"load {os.getloadavg()[0]:.2f}")
    failed: set[tuple[str, str]] = set()
    for variant in variants:
        for bot in args.bots:
            try:
                measure(variant, bot, args.games, args.repeats)
            except Exception as e:  # a bug elsewhere must not hide the other figures
                failed.add((variant, bot))
                print(f"  {variant:<22} {VARIANTS[variant]:>2} x {bot:<6} FAILED: "
                      f"{type(e).__name__}: {e}", flush=True)
    if not args.no_profile:
        for variant in variants:
            for bot in args.bots:
                if (variant, bot) not in failed:
                    profile(variant, bot, args.top)
    if args.others:
        here = Path(__file__).resolve().parent
        for name in ("games_big_table.py", "games_gin.py"):
            if (here / name).exists():
                _run_other(here / name)


if __name__ == "__main__":
    main()
