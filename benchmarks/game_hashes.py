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

Besides the games, ``--all`` hashes what the rest of the engine answers, so
that a change that moves code around can show it changed nothing: every
drill (each rule, seeds 0-11: its question, position, answers, hints and the
feedback to its right answer and its typical mistake), every guided hand
played through with its first good move (every prompt, hint and verdict,
and the judgement of every legal move), the meld search's answers on seeded
random hands under several rule sets, and the odds of a few hands.

    .venv/bin/python benchmarks/game_hashes.py --save /tmp/before.txt
    .venv/bin/python benchmarks/game_hashes.py --check /tmp/before.txt
    .venv/bin/python benchmarks/game_hashes.py --all --save /tmp/before-all.txt
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


def _digest(parts: list[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
        h.update(b"\x00")
    return h.hexdigest()[:16]


def drill_lines(seeds: range = range(12)) -> list[str]:
    """One line per rule: a hash of its drills on ``seeds``."""
    from rummy import practice
    from rummy.teach import show_answer

    lines = []
    for rule in sorted(practice.generators()):
        parts = []
        for seed in seeds:
            d = practice.drill(rule, seed)
            want = d.expected()
            parts += [d.rule, d.kind, d.variant, str(d.seed), d.question, repr(d.facts),
                      repr([(r.label, [str(c) for c in r.cards], r.pick) for r in d.rows]),
                      d.look, d.why, d.answer_kind, repr(d.choices), show_answer(want),
                      repr(d.an_answer()), repr(d.hints()), repr(d.check(d.an_answer())),
                      repr(d.check(d.mistake)) if d.mistake is not None else "-",
                      repr(d.check("nonsense")), repr(d.key)]
            if d.game is not None:
                parts.append(d.game.to_json())
        lines.append(f"drills {rule:<5} seeds {seeds.start}-{seeds.stop - 1}: {_digest(parts)}")
    return lines


def guided_lines() -> list[str]:
    """One line per guided variant: its hand played with the first good move."""
    from rummy.guided import GUIDED_VARIANTS, Guide

    lines = []
    for variant in GUIDED_VARIANTS:
        g = Guide(variant)
        parts = []
        steps = 0
        while not g.done and steps < 400:
            parts += [g.situation(), repr(g.decision()), repr(g.hints()), repr(g.legal())]
            for a in g.legal():
                parts.append(repr(g.judge(a)))
            ok, said = g.try_move(g.good_moves()[0])
            parts += [str(ok), said, g.summary()]
            steps += 1
        parts.append(g.game.to_json())
        lines.append(f"guided {variant:<22}: {_digest(parts)}  ({steps} moves)")
    return lines


def search_lines(hands: int = 1500) -> list[str]:
    """One line per rule set: the search's answers on seeded random hands."""
    import random

    from rummy import search
    from rummy.cards import deck
    from rummy.melds import MeldRules

    sets = {
        "plain": (MeldRules(), 1, 0, (3, 13)),
        "gin": (search.GIN_RULES, 1, 0, (10, 11)),
        "two packs, jokers, sevens wild": (MeldRules(wild_rank=7), 2, 4, (3, 14)),
        "tre_tretton, fives wild": (MeldRules(wild_rank=5, min_naturals=1), 2, 0, (3, 13)),
        "jokers, aces high": (MeldRules(wild_rank=9, aces="high", wild_penalty=15), 2, 4, (3, 14)),
        "low or high": (MeldRules(aces="low_or_high"), 1, 0, (3, 12)),
        "big table, nines wild": (MeldRules(wild_rank=9), 4, 0, (3, 15)),
    }
    lines = []
    for name, (rules, packs, jokers, (lo, hi)) in sets.items():
        rng = random.Random(name)
        cards = deck(packs, jokers)
        parts = []
        for _ in range(hands):
            hand = rng.sample(cards, rng.randint(lo, hi))
            arr = search.best_arrangement(hand, rules)
            parts += [str(arr), str(search.penalty(hand, rules)),
                      str(search.all_melded(hand, rules)),
                      str(search.all_melded(hand, rules, discard=True)),
                      repr(search.lone_cards(hand, rules))]
            if len(hand) > 1:
                d = search.best_discard(hand, rules)
                parts += [str(d.card), str(d.arrangement), repr(search.best_discard_choice(hand, rules)),
                          repr(search.go_out_discards(hand, rules)),
                          repr([search.penalty_less(hand, rules)(c) for c in hand])]
            if not any(rules.is_wild(c) for c in hand):
                parts.append(str(search.min_wilds(hand, rules)))
            if packs == 1 and jokers == 0 and rules == search.GIN_RULES:
                mask = sum(1 << c.index for c in hand)
                parts.append(str(search.mask_penalty(mask)))
        if rules == search.GIN_RULES:
            for _ in range(300):
                hand = rng.sample(cards, 10)
                mask = sum(1 << c.index for c in hand)
                melds = tuple(sum(1 << c.index for c in m.cards)
                              for m in search.best_arrangement(rng.sample(cards, 10), rules).melds)
                parts.append(repr(search.best_layoffs_masks(mask, melds)))
        lines.append(f"search {name:<30}: {_digest(parts)}  ({hands} hands)")
    return lines


def odds_lines() -> list[str]:
    """The odds of a few hands, exact and simulated."""
    from rummy import probability as pr

    parts = [
        repr(pr.dealt_complete("three_thirteen", 1, players=2).probability),
        repr(pr.outs("7h 8h Kc 2d", "three_thirteen", round=2, players=2)),
        repr(pr.going_out("7h 8h Kc", 2, "three_thirteen", round=1, players=2, samples=60, seed=2,
                          progress=False)),
        repr(pr.going_out_chance("7h 8h Kc", "three_thirteen", round=1, players=2, draws=2)),
        repr(pr.going_out_chance("7h 8h 9c Kc Kd", "three_thirteen", round=3, players=3,
                                 draws=3, method="monte carlo", samples=400, seed=3)),
        repr(pr.p_at_least_one(outs=8, unseen=40, draws=3)),
    ]
    return [f"odds: {_digest(parts)}"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Hashes of seeded reference games.")
    p.add_argument("--observations", action="store_true",
                   help="also hash every observation and explanation (Three-Thirteen, seed 1)")
    p.add_argument("--all", action="store_true",
                   help="also hash every drill, guided hand, search answer and a few odds")
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
    if args.all:
        for part in (drill_lines, guided_lines, search_lines, odds_lines):
            cpu = time.process_time()
            more = part()
            lines += [m.split("  (")[0] for m in more]
            for m in more:
                print(m, flush=True)
            print(f"  ({time.process_time() - cpu:.1f} s)", flush=True)
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
