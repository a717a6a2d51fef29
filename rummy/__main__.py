"""The ``python -m rummy`` command line.

Verbs: ``solve`` (best arrangement of a hand), ``rules`` (a variant's rules),
``simulate`` (bots against each other), ``odds`` (exact and simulated odds).
Errors go to stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from rummy.cards import RANKS, format_cards, parse_rank
from rummy.melds import MeldRules
from rummy.search import best_arrangement, best_discard
from rummy.variants import find_variant, variant_names


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # exit 2 with a clear message
        self.print_usage(sys.stderr)
        raise SystemExit(f"{self.prog}: error: {message}")


def _rules_from(args: argparse.Namespace) -> MeldRules:
    if args.variant:
        v = find_variant(args.variant)
        opts = {}
        if args.aces is not None:
            opts["aces"] = args.aces
        rules = v.meld_rules(round=args.round or 1, **opts)
        changes: dict[str, Any] = {}
        if args.wild is not None:
            changes["wild_rank"] = None if args.wild.lower() == "none" else parse_rank(args.wild)
        if args.min_naturals is not None:
            changes["min_naturals"] = args.min_naturals
        if args.wild_penalty is not None:
            changes["wild_penalty"] = args.wild_penalty
        if changes:
            from dataclasses import replace

            rules = replace(rules, **changes)
        return rules
    if args.round is not None:
        raise ValueError("--round needs --variant (the wild rank depends on the variant)")
    wild = None
    if args.wild is not None and args.wild.lower() != "none":
        wild = parse_rank(args.wild)
    return MeldRules(
        wild_rank=wild,
        aces=args.aces or "low",
        min_naturals=args.min_naturals or 0,
        wild_penalty=args.wild_penalty,
    )


def _solve(args: argparse.Namespace) -> int:
    rules = _rules_from(args)
    if args.discard:
        d = best_discard(args.hand, rules)
        arr = d.arrangement
        out = arr.to_json() | {"discard": str(d.card)}
    else:
        arr = best_arrangement(args.hand, rules)
        out = arr.to_json()
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"Rules: {rules.describe()}")
    if args.discard:
        print(f"Discard: {out['discard']}")
    for m in arr.melds:
        print(f"  {m.kind:>3}: {m}")
    print(f"Deadwood: {format_cards(arr.deadwood) or 'none'}")
    print(f"Penalty: {arr.penalty}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    print(find_variant(args.variant).rules_text())
    return 0


def _delegate(module: str, args: argparse.Namespace, rest: list[str]) -> int:
    import importlib

    mod = importlib.import_module(module)
    return int(mod.cli_main(rest) or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    p = _Parser(prog="python -m rummy", description="The Rummy teaching kit's engine.")
    sub = p.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    s = sub.add_parser("solve", help="best arrangement (and best discard) of a hand")
    s.add_argument("hand", help='cards, e.g. "Qh Kh 3s 5c 5d 5s"')
    s.add_argument("--variant", choices=None, help="|".join(variant_names()))
    s.add_argument("--round", type=int, help="round (1-11), sets the wild rank")
    s.add_argument("--wild", help=f"wild rank ({' '.join(RANKS[1:])}) or none")
    s.add_argument("--aces", choices=["low", "high", "low_or_high"])
    s.add_argument("--min-naturals", type=int, choices=[0, 1])
    s.add_argument("--wild-penalty", type=int)
    s.add_argument("--discard", action="store_true", help="the hand has one card too many")
    s.add_argument("--json", action="store_true")
    r = sub.add_parser("rules", help="print a variant's rules")
    r.add_argument("variant", help="|".join(variant_names()))
    sub.add_parser("simulate", help="bots against each other (see simulate --help)",
                   add_help=False)
    sub.add_parser("odds", help="exact and simulated odds (see odds --help)", add_help=False)
    if argv and argv[0] in ("simulate", "odds"):
        module = {"simulate": "rummy.simulate", "odds": "rummy.probability"}[argv[0]]
        try:
            return _delegate(module, argparse.Namespace(), argv[1:])
        except ValueError as e:
            print(f"python -m rummy {argv[0]}: error: {e}", file=sys.stderr)
            return 2
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
            return 2
        return int(e.code or 0)
    try:
        return {"solve": _solve, "rules": _rules}[args.verb](args)
    except ValueError as e:  # CardError, MeldError, VariantError ...
        print(f"python -m rummy {args.verb}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
