"""Many games between bots, as a pandas table.

:func:`simulate` plays any family through the common game API (``to_act``,
``observe``, ``apply``, ``summary``) and returns one row per game and seat.
Any :class:`concurrent.futures.Executor` can run the games; large runs use
a process pool by default.  Game ``i`` of a run with seed ``s`` always gets
the same seed, so a run is reproducible whatever runs it.

Runs that outgrow one machine go to a Dask cluster (the optional extra,
``pip install 'rummy-kit[dask]'``): :func:`dask_executor` connects to a
scheduler (``tcp://HOST:8786``) or starts a local cluster of worker
processes, and hands back an executor for :func:`simulate`; on the command
line, ``python -m rummy simulate ... --scheduler tcp://HOST:8786`` or
``--workers N``.  Every worker needs the kit installed (the same version).

>>> df = simulate("three_thirteen", ["greedy", "random"], games=2, seed=1, progress=False)
>>> list(df.columns)
['game', 'seed', 'seat', 'player', 'bot', 'score', 'rank', 'won', 'went_out']
>>> len(df)
4
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import copy
import math
import os
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from rummy.bots import Bot, make_bot
from rummy.errors import GameError
from rummy.game import new_game
from rummy.variants import Variant, find_variant

__all__ = [
    "simulate",
    "play_game",
    "game_seed",
    "summarize",
    "paired_difference",
    "cli_main",
    "dask_executor",
    "MAX_ACTIONS",
]

#: A game that needs more moves than this is a bug in an engine or a bot
#: (the stall rule TT-12 ends every round long before).
MAX_ACTIONS = 200_000

BotSpec = str | Bot


def game_seed(seed: int | None, game: int) -> int:
    """The seed of game number ``game`` in a run seeded ``seed``.

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    return random.Random(f"rummy-simulate:{seed}:{game}").getrandbits(63)


def _bot_for(spec: BotSpec, seed: int) -> Bot:
    if isinstance(spec, Bot):
        bot = copy.deepcopy(spec)
        bot.seed = seed
        bot.rng = random.Random(seed)
        bot.reset()
        return bot
    return make_bot(spec, seed=seed)


def _label(spec: BotSpec) -> str:
    return spec.name if isinstance(spec, Bot) else str(spec).strip().lower()


def play_game(
    variant: str | Variant,
    bots: Sequence[BotSpec],
    seed: int,
    options: dict[str, Any] | None = None,
    game: int = 0,
) -> list[dict[str, Any]]:
    """Play one full game; one dict per seat (``game``, ``seed``, ``seat``,
    ``player``, ``bot``, ``score``, ``rank``, ``won``, ``went_out``).

    >>> rows = play_game("three_thirteen", ["greedy", "greedy"], seed=3)
    >>> sorted(r["rank"] for r in rows)[0]
    1
    """
    g = new_game(variant, players=len(bots), seed=seed, **(options or {}))
    players = [_bot_for(spec, seed * 31 + i) for i, spec in enumerate(bots)]
    moves = 0
    while not g.is_over:
        p = g.to_act()[0]
        g.apply(players[p].choose(g.observe(p)), player=p)
        moves += 1
        if moves > MAX_ACTIONS:
            raise GameError(f"game {game} (seed {seed}) did not end after {MAX_ACTIONS} moves")
    rows = []
    for row in g.summary():
        seat = row["seat"]
        rows.append({
            "game": game,
            "seed": seed,
            "seat": seat,
            "player": g.players[seat],
            "bot": _label(bots[seat]),
            "score": row["score"],
            "rank": row["rank"],
            "won": bool(row["won"]),
            "went_out": row["went_out"],
        })
    return rows


def _play_chunk(variant: str, bots: list[BotSpec], seed: int | None, games: list[int],
                options: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in games:
        out.extend(play_game(variant, bots, game_seed(seed, i), options, game=i))
    return out


class _Progress:
    """A tqdm bar on stderr if tqdm is installed, else a plain line."""

    def __init__(self, total: int, desc: str, enabled: bool) -> None:
        self.bar: Any = None
        self.total, self.done, self.enabled, self.desc = total, 0, enabled, desc
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, desc=desc, unit="game", file=sys.stderr)
            except ImportError:  # pragma: no cover - tqdm is a dev dependency
                self.bar = None

    def update(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.enabled:
            print(f"\r{self.desc}: {self.done}/{self.total} games", end="", file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled:
            print(file=sys.stderr)


def simulate(
    variant: str | Variant,
    bots: Sequence[BotSpec] | str,
    games: int,
    seed: int | None = 0,
    executor: cf.Executor | None = None,
    progress: bool = True,
    players: int | None = None,
    **options: Any,
) -> Any:
    """Play ``games`` games of ``variant`` between ``bots`` (names such as
    ``"expert"``, or :class:`~rummy.bots.Bot` objects; one per seat, or a
    comma-separated string).  ``players`` repeats a single bot for every seat.

    Returns a pandas DataFrame with one row per game and seat: ``game``,
    ``seed``, ``seat``, ``player``, ``bot``, ``score`` (the game total),
    ``rank`` (1 = best, ties share), ``won`` and ``went_out`` (rounds the seat
    went out first).  ``executor`` runs the games (any
    :class:`concurrent.futures.Executor`); by default runs of 200 games or
    more use a process pool over the machine's cores (at most 2 workers
    unless ``RUMMY_JOBS`` says otherwise), smaller runs play here.
    """
    import pandas as pd

    v = find_variant(variant)
    v.resolve(**options)
    specs: list[BotSpec] = (
        [b.strip() for b in bots.split(",") if b.strip()] if isinstance(bots, str) else list(bots)
    )
    if players is not None:
        if len(specs) == 1:
            specs = specs * players
        elif len(specs) != players:
            raise GameError(f"{len(specs)} bots for {players} players: give one bot per seat, "
                            "or a single bot to fill every seat")
    if not specs:
        raise GameError("give at least one bot, e.g. bots=['expert', 'greedy']")
    for s in specs:  # unknown names fail now, not inside a worker
        _bot_for(s, 0)
    v.check_players(len(specs))
    if not isinstance(games, int) or games < 0:
        raise GameError(f"games must be a whole number >= 0, not {games!r}")
    own_pool = None
    if executor is None and games >= 200:
        jobs = int(os.environ.get("RUMMY_JOBS", min(2, os.cpu_count() or 1)))
        if jobs > 1:
            executor = own_pool = cf.ProcessPoolExecutor(max_workers=jobs)
    rows: list[dict[str, Any]] = []
    bar = _Progress(games, f"{v.name}: {', '.join(_label(s) for s in specs)}",
                    progress and games > 1)
    try:
        if executor is None:
            for i in range(games):
                rows.extend(_play_chunk(v.name, specs, seed, [i], options))
                bar.update(1)
        else:
            size = max(1, min(25, games // 40 or 1))
            chunks = [list(range(i, min(i + size, games))) for i in range(0, games, size)]
            futures = {executor.submit(_play_chunk, v.name, specs, seed, c, options): len(c)
                       for c in chunks}
            for f in cf.as_completed(futures):
                rows.extend(f.result())
                bar.update(futures[f])
    finally:
        bar.close()
        if own_pool is not None:
            own_pool.shutdown()
    columns = ["game", "seed", "seat", "player", "bot", "score", "rank", "won", "went_out"]
    df = pd.DataFrame(rows, columns=columns)
    return df.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)


@contextlib.contextmanager
def dask_executor(scheduler: str | None = None, workers: int | None = None
                  ) -> Iterator[cf.Executor]:
    """A :class:`concurrent.futures.Executor` that runs tasks on Dask
    (``dask.distributed``), for :func:`simulate`'s ``executor``.

    ``scheduler``: the address of a running Dask scheduler, e.g.
    ``"tcp://10.0.0.5:8786"`` (its workers need the kit installed).
    ``workers``: start a local cluster of that many worker processes (one
    thread each, listening on 127.0.0.1 only) instead.  Give one of the
    two.  The cluster (if started here) and the client close on exit.
    Results are those of a local run with the same seed::

        with dask_executor(workers=2) as pool:
            df = simulate("three_thirteen", "greedy", games=1000, seed=1,
                          players=4, executor=pool)
    """
    if (scheduler is None) == (workers is None):
        raise GameError("give either scheduler (an address such as tcp://HOST:8786) or "
                        "workers (a number of local worker processes), not both or neither")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise GameError(f"workers must be a whole number >= 1, not {workers!r}")
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise GameError("running on Dask needs dask.distributed: "
                        "pip install 'rummy-kit[dask]'") from e
    cluster = None
    try:
        if workers is not None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address="127.0.0.1:0")
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout="10s")
            except OSError as e:
                raise GameError(f"no Dask scheduler answers at {scheduler!r} ({e}); "
                                "give its address as tcp://HOST:8786") from e
        try:
            yield client.get_executor(pure=False)
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def _ci(values: Any) -> tuple[float, float]:
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan
    return mean, 1.96 * float(values.std(ddof=1)) / math.sqrt(n)


def summarize(df: Any) -> Any:
    """One row per seat: bot, games, mean score with its 95% confidence
    interval (mean +- 1.96 standard errors), win rate, mean rank, rounds went out.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "player": ["A", "B"] * 2,
    ...     "bot": ["x", "y"] * 2, "score": [10, 20, 30, 20], "rank": [1, 2, 2, 1],
    ...     "won": [True, False, False, True], "went_out": [3, 1, 2, 2]})
    >>> summarize(df)[["bot", "mean score", "win rate"]].values.tolist()
    [['x', 20.0, 0.5], ['y', 20.0, 0.5]]
    """
    import pandas as pd

    rows = []
    for seat, part in df.groupby("seat", sort=True):
        mean, half = _ci(part["score"])
        rows.append({
            "seat": seat,
            "player": part["player"].iloc[0],
            "bot": part["bot"].iloc[0],
            "games": len(part),
            "mean score": mean,
            "ci95 low": mean - half,
            "ci95 high": mean + half,
            "win rate": float(part["won"].mean()),
            "mean rank": float(part["rank"].mean()),
            "went out / game": float(part["went_out"].mean()),
        })
    return pd.DataFrame(rows).set_index("seat")


def paired_difference(df: Any, bot: str, other: str) -> dict[str, float]:
    """Per game, the mean score of ``bot``'s seats minus the mean score of
    ``other``'s seats; returns its mean, 95% confidence interval and the
    number of games (negative means ``bot`` scores lower, i.e. better).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"game": [0, 0, 1, 1], "bot": ["x", "y"] * 2, "score": [10, 20, 30, 36]})
    >>> paired_difference(df, "x", "y")["mean"]
    -8.0
    """
    per = df.groupby(["game", "bot"])["score"].mean().unstack()
    for b in (bot, other):
        if b not in per.columns:
            raise GameError(f"no seat played by {b!r}; the bots are: {', '.join(map(str, per.columns))}")
    diff = (per[bot] - per[other]).dropna()
    mean, half = _ci(diff)
    return {"mean": mean, "ci95 low": mean - half, "ci95 high": mean + half, "games": len(diff)}


def _option_value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        return text.strip()


def cli_main(argv: list[str]) -> int:
    """``python -m rummy simulate VARIANT --bots a,b,... --games N --seed S``.

    Prints the summary table (mean score per seat with 95% CI, win rate);
    ``--csv FILE`` writes every game and seat.
    """
    p = argparse.ArgumentParser(
        prog="python -m rummy simulate",
        description="Play many games between bots and summarize the scores.",
    )
    p.add_argument("variant", help="a variant name or alias, e.g. three_thirteen")
    p.add_argument("--bots", default=None,
                   help="comma-separated bots, one per seat (random, greedy, expert); "
                        "default: greedy in every seat")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    p.add_argument("--players", type=int, default=None,
                   help="seats (with a single bot name: that bot in every seat)")
    p.add_argument("--csv", default=None, help="write one row per game and seat to this file")
    p.add_argument("--jobs", type=int, default=None,
                   help="worker processes (default: 1 under 200 games, else up to 2)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the games on the Dask scheduler at this address, e.g. "
                        "tcp://HOST:8786 (needs the dask extra; workers need the kit)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="run the games on a local Dask cluster of N worker processes")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a variant option, e.g. --option jokers=2 (repeatable)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0) if not isinstance(e.code, str) else 2
    v = find_variant(args.variant)
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise GameError(f"--option {item!r}: write key=value, e.g. --option aces=low_or_high")
        options[key.strip()] = _option_value(value)
    v.resolve(**options)
    bots = args.bots or "greedy"
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    players = args.players
    if players is None and len(specs) == 1:
        players = v.default_players
    executor: cf.Executor | None = None
    chosen = [f for f, val in (("--jobs", args.jobs), ("--scheduler", args.scheduler),
                               ("--workers", args.workers)) if val is not None]
    if len(chosen) > 1:
        raise GameError(f"{' and '.join(chosen)} both say where the games run: give one of "
                        "--jobs, --scheduler, --workers")
    if args.jobs is not None and args.jobs < 1:
        raise GameError(f"--jobs must be at least 1, not {args.jobs}")
    if args.workers is not None and args.workers < 1:
        raise GameError(f"--workers must be at least 1, not {args.workers}")
    with contextlib.ExitStack() as stack:
        if args.jobs == 1:
            executor = _Inline()
        elif args.jobs is not None:
            executor = stack.enter_context(cf.ProcessPoolExecutor(max_workers=args.jobs))
        elif args.scheduler is not None or args.workers is not None:
            executor = stack.enter_context(dask_executor(args.scheduler, args.workers))
        df = simulate(v, specs, args.games, args.seed, executor=executor,
                      progress=not args.no_progress, players=players, **options)
    table = summarize(df)
    print(f"{v.title} ({v.name}), {args.games} games, seed {args.seed}"
          + (f", options {options}" if options else ""))
    if len(table):
        shown = table.copy()
        shown["mean score"] = [f"{m:.1f} ({lo:.1f} to {hi:.1f})" for m, lo, hi in
                               zip(table["mean score"], table["ci95 low"], table["ci95 high"])]
        shown = shown.rename(columns={"mean score": "mean score (95% CI)"})
        shown["win rate"] = [f"{w:.1%}" for w in table["win rate"]]
        shown = shown[["player", "bot", "games", "mean score (95% CI)", "win rate",
                       "mean rank", "went out / game"]]
        print(shown.to_string(float_format=lambda x: f"{x:.2f}"))
        ties = df.groupby("game")["won"].any()
        print(f"Games with no winner (a tie for the lowest total): {int((~ties).sum())}")
    if args.csv:
        df.to_csv(args.csv, index=False)
        print(f"Wrote {len(df)} rows to {args.csv}")
    return 0


class _Inline(cf.Executor):
    """An executor that runs each task at once, in this process."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        f: cf.Future[Any] = cf.Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as e:  # handed to the caller through the future
            f.set_exception(e)
        return f
