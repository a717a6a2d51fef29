"""``python -m rummy odds ...``: dealt-hand odds and outs from the shell.

``odds dealt VARIANT [--players P] [--round R] [--jokers N] [--aces A] [--json]``
``odds outs "7h 8h Kc 2d" --variant V --round R --draws K [--seen "..."] [--json]``

Bad input raises :class:`~rummy.probability.dealt.OddsError` (a
``ValueError``); ``python -m rummy`` prints it and exits with code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rummy.cards import rank_name
from rummy.probability.dealt import OddsError, dealt_complete, shoe_for
from rummy.variants import find_variant, variant_names

__all__ = ["cli_main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise OddsError(f"{message} (see python -m rummy odds --help)")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m rummy odds",
                description="Exact and simulated meld odds.")
    sub = p.add_subparsers(dest="what", required=True, parser_class=_Parser)
    d = sub.add_parser("dealt", help="the chance that a dealt hand is already complete")
    d.add_argument("variant", help=" | ".join(variant_names()))
    d.add_argument("--players", type=int, help="players at the table (decides the packs)")
    d.add_argument("--round", type=int, help="round 1-11 (cards dealt and the wild rank)")
    d.add_argument("--jokers", type=int, help="jokers in the shoe (three_thirteen_jokers)")
    d.add_argument("--aces", help="aces option of the variant (low, high, low_or_high)")
    d.add_argument("--packs", type=int, help="packs in the shoe (overrides --players)")
    d.add_argument("--method", default="auto", choices=["auto", "exact", "monte carlo"],
                   help="how to answer (auto: exact when feasible)")
    d.add_argument("--samples", type=int, default=20000, help="Monte Carlo deals")
    d.add_argument("--seed", type=int, default=0, help="Monte Carlo seed")
    d.add_argument("--json", action="store_true", help="print JSON")
    o = sub.add_parser("outs", help="the cards that would complete or improve a hand")
    o.add_argument("hand", help='the cards you hold, e.g. "7h 8h Kc 2d"')
    o.add_argument("--variant", default="three_thirteen", help=" | ".join(variant_names()))
    o.add_argument("--round", type=int, help="round 1-11 (default: from the hand's size)")
    o.add_argument("--draws", type=int, default=1, help="draws to come (default 1)")
    o.add_argument("--seen", default="", help="cards out of play that you have seen")
    o.add_argument("--players", type=int, help="players at the table (decides the packs)")
    o.add_argument("--jokers", type=int, help="jokers in the shoe")
    o.add_argument("--aces", help="aces option of the variant")
    o.add_argument("--json", action="store_true", help="print JSON")
    return p


def _dealt(a: argparse.Namespace) -> int:
    v = find_variant(a.variant)
    rnd = a.round if a.round is not None else 1
    kw = {"players": a.players, "jokers": a.jokers, "aces": a.aces, "packs": a.packs}
    odds = dealt_complete(v, rnd, method=a.method, samples=a.samples, seed=a.seed,
                          progress=not a.json and sys.stderr.isatty(), **kw)
    if a.json:
        print(json.dumps(odds.to_json()))
        return 0
    shoe = shoe_for(v, rnd, **kw)
    wild = (f", {rank_name(shoe.rules.wild_rank, plural=True)} wild"
            if shoe.rules.wild_rank else "")
    jokers = f" + {shoe.jokers} jokers" if shoe.jokers else ""
    what = "gin (0 deadwood)" if v.rounds is None else "complete (every card melded)"
    where = f"round {rnd}, " if v.rounds else ""
    print(f"{v.name}: {where}{shoe.cards} cards{wild}, from {shoe.packs} pack(s){jokers}")
    print(f"Chance the dealt hand is {what}:")
    if odds.probability is not None:
        print(f"  probability: {odds.probability}")
    print(f"  decimal: {odds.value:.6g}")
    if odds.method == "monte carlo":
        print(f"  95% interval: {odds.low:.4g} to {odds.high:.4g} ({odds.samples} samples)")
    print(f"  method: {odds.method}")
    return 0


def _outs(a: argparse.Namespace) -> int:
    from rummy.probability.outs import chance_opponent_first, outs

    kw = {k: v for k, v in (("players", a.players), ("jokers", a.jokers), ("aces", a.aces))
          if v is not None}
    res = outs(a.hand, a.variant, a.round, seen=a.seen, **kw)
    if a.draws < 1:
        raise OddsError(f"--draws must be at least 1, not {a.draws}")
    if a.draws > res.unseen:
        raise OddsError(f"--draws ({a.draws}) is more than the {res.unseen} unseen cards")
    p = res.p_within(a.draws)
    p_done = res.p_within(a.draws, completing=True)
    v = find_variant(a.variant)
    players = a.players if a.players is not None else v.default_players
    # gin: only the captain and the box draw (G-2); elsewhere everyone does
    opponents = 1 if v.family == "gin" else players - 1
    lost = chance_opponent_first(res.count, res.unseen, a.draws, opponents=opponents)
    if a.json:
        out = {
            "hand": a.hand.split(),
            "penalty": res.penalty,
            "unseen": res.unseen,
            "outs": res.count,
            "completing": res.completing,
            "draws": a.draws,
            "probability": str(p),
            "decimal": float(p),
            "probability_complete": str(p_done),
            "decimal_complete": float(p_done),
            "opponent_first": str(lost),
            "method": "exact",
            "by_meld": [
                {"meld": meld, "cards": row["cards"].split(), "copies": int(row["copies"]),
                 "completes": bool(row["completes"])}
                for meld, row in res.by_meld.iterrows()
            ],
        }
        print(json.dumps(out))
        return 0
    print(res)
    print(f"Chance of drawing at least one out in {a.draws} draw(s): {p} = {float(p):.4g} "
          "(exact, 1 - C(U-o,k)/C(U,k))")
    print(f"Chance of drawing a card that goes out: {p_done} = {float(p_done):.4g}")
    print(f"Chance that one of {opponents} opponent(s) draws an out before you: "
          f"{lost} = {float(lost):.4g}")
    return 0


def cli_main(argv: Sequence[str]) -> int:
    """Run ``odds`` with ``argv`` (the words after ``odds``); returns 0.

    >>> cli_main(["dealt", "three_thirteen", "--players", "2", "--round", "1", "--json"])
    {"probability": "241/5525", "decimal": 0.04361990950226244..., "method": "exact"}
    0
    """
    args = _parser().parse_args(list(argv))
    if args.what == "dealt":
        return _dealt(args)
    return _outs(args)
