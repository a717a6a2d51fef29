"""Fingerprints of seeded reference games: did a speed-up change any move?

Plays the reference games (``three_thirteen`` with 4 greedy and 4 expert
bots, seeds 1-4, bot ``i`` seeded ``seed * 10 + i``; ``tre_tretton``,
``three_thirteen_jokers``, ``big_table`` with 12 and ``gin_three`` with 3,
greedy and expert, seed 1) and prints, per game, a hash of every action,
the log, ``to_json()``, ``summary()`` and the last observation.  With
``--observations`` (slower; the Three-Thirteen games of seed 1 only) every
seat's observation before every move and every bot's explanation are hashed
too.  Record the lines before a change (``--save FILE``), then compare after
it (``--check FILE``): a change that should not alter behaviour must keep
every line.  A new meld search may pick another of two equal arrangements,
so record the lines again on the branch that has it.

    .venv/bin/python benchmarks/game_hashes.py --save /tmp/before.txt
    .venv/bin/python benchmarks/game_hashes.py --check /tmp/before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from rummy import new_game
from rummy.bots import make_bot

#: (variant, players, bot, seed)
GAMES: list[tuple[str, int, str, int]] = (
    [("three_thirteen", 4, "greedy", s) for s in (1, 2, 3, 4)]
    + [("three_thirteen", 4, "expert", s) for s in (1, 2, 3, 4)]
    + [(v, n, bot, 1) for bot in ("greedy", "expert")
       for v, n in (("tre_tretton", 4), ("three_thirteen_jokers", 4), ("big_table", 12),
                    ("gin_three", 3))]
)


def fingerprint(variant: str, players: int, bot: str, seed: int,
                observations: bool = False) -> tuple[str, int]:
    """(hash, actions) of one seeded game played to the end."""
    g = new_game(variant, players=players, seed=seed)
    bots = [make_bot(bot, seed=seed * 10 + i) for i in range(players)]
    h = hashlib.sha256()
    actions = 0
    while not g.is_over:
        p = g.to_act()[0]
        obs = g.observe(p)
        if observations:
            for q in range(players):
                o = obs if q == p else g.observe(q)
                h.update(repr(o).encode())
                hash(o)  # observations stay hashable (not hashed in: Variant hashes by id)
        act = bots[p].choose(obs)
        why = bots[p].explain(obs) if observations else ""
        h.update(f"{p}:{act}|{why}".encode())
        g.apply(act, player=p)
        actions += 1
    h.update(json.dumps(g.log).encode())
    h.update(g.to_json().encode())
    h.update(json.dumps(g.summary()).encode())
    h.update(repr(g.observe(0)).encode())
    return h.hexdigest()[:16], actions


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Hashes of seeded reference games.")
    p.add_argument("--observations", action="store_true",
                   help="also hash every observation and explanation (Three-Thirteen, seed 1)")
    p.add_argument("--save", type=Path, help="write the lines to this file")
    p.add_argument("--check", type=Path, help="compare with lines saved before")
    args = p.parse_args(argv)
    lines = []
    for variant, players, bot, seed in GAMES:
        if args.observations and not (variant.startswith("three_thirteen") and seed == 1):
            continue
        cpu = time.process_time()
        digest, actions = fingerprint(variant, players, bot, seed, args.observations)
        line = f"{variant:<22} {players:>2} {bot:<6} seed {seed}: {digest}"
        lines.append(line)
        print(f"{line}  ({actions} actions, {time.process_time() - cpu:.1f} s)", flush=True)
    if args.save:
        args.save.write_text("\n".join(lines) + "\n")
    if args.check:
        before = args.check.read_text().splitlines()
        changed = [f"  was {a}\n  now {b}" for a, b in zip(before, lines) if a != b]
        if len(before) != len(lines):
            changed.append(f"  {len(before)} games saved, {len(lines)} played")
        print("identical" if not changed else "CHANGED:\n" + "\n".join(changed))
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
