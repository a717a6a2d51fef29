"""Find seeds for the guided hands (rummy.guided.DEFAULT_SEEDS), and check
the chosen deals (rummy.guided.SCRIPTS).

Most guided hands are chosen positions (``SCRIPTS``); Gin's is still the
engine's deal for a seed, and ``Guide(variant, seed=n)`` plays any seed's
deal.  A seed's deal changes when an engine changes how it shuffles or
deals, and the bots' answers to a chosen position change when the bots do.
This script plays hands through with the good moves and lists the number of
learner moves, the rules that the refused moves on the way cite, and whether
the learner went out (matched, knocked):

    .venv/bin/python scripts/guided_seeds.py three_thirteen 1 50   # seeds 1..50
    .venv/bin/python scripts/guided_seeds.py scripts               # every default hand
"""

from __future__ import annotations

import sys

from rummy.guided import Guide


def probe(variant: str, seed: int | None) -> tuple[int, set[str], bool]:
    """(learner moves, rule ids cited by the refused moves, the learner finished first)."""
    guide = Guide(variant, seed=seed)
    moves, rules = 0, set()
    while not guide.done and moves < 60:
        good = guide.good_moves()
        for move in guide.legal():
            if move not in good:
                rules.add(guide.judge(move).rule)
        guide.try_move(good[0])
        moves += 1
    finished = any(line.startswith(("You go out", "You calls match", "You (captain) knocks",
                                    "You (box) knocks")) for line in guide.narration)
    return moves, rules, finished


def main(argv: list[str]) -> int:
    if argv == ["scripts"]:
        from rummy.guided import GUIDED_VARIANTS, SCRIPTS

        for variant in GUIDED_VARIANTS:
            moves, rules = probe(variant, None)[:2]
            kind = "chosen deal" if variant in SCRIPTS else "seeded deal"
            print(f"{variant:22} {kind}  {moves:3d} moves  " + " ".join(sorted(rules)))
        return 0
    if len(argv) != 3:
        print(__doc__)
        return 2
    variant, first, last = argv[0], int(argv[1]), int(argv[2])
    for seed in range(first, last + 1):
        moves, rules, finished = probe(variant, seed)
        print(f"{seed:5d}  {moves:3d} moves  {'finished' if finished else '        '}  "
              + " ".join(sorted(rules)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
