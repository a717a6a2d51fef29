"""Agreement with an independent peer: OpenSpiel's gin rummy utilities.

Run: ``.venv/bin/python benchmarks/gin_peer.py [--hands 5000] [--games 300]``

``--speed`` times instead our lowest deadwood of a 10-card hand
(``rummy.penalty`` under gin's rules, and ``rummy.best_arrangement``)
against OpenSpiel's C++ ``min_deadwood`` through its Python binding, on
the same hands (``--hands``, default 2,000), hand by hand in turn (ours
with the search's memos emptied first, then OpenSpiel's), each hand timed
``--rounds`` times (default 7) and its fastest time kept, so that a load
that comes and goes weighs on both alike; it prints the medians, the
ratios (targets: ``penalty`` at most 1.0x, ``best_arrangement`` at most
2x) and the machine's load.

Part 1, random hands (default 5,000 deals of two 10-card hands, an upcard
and a stock card): our minimum deadwood (the gin engine's fast solver and
the shared exact solver ``rummy.search.penalty``) against
``GinRummyUtils(13, 4, 10).min_deadwood`` on every 10-card hand and on the
11-card hands after a draw; and the legal knock decision (may the player
knock now?) after drawing from the stock and after taking the upcard.

Part 3, lay-off chains: random knocks with the defender's cards near the
knocker's melds; one possible lay-off at a time, every step compared with
``all_layoffs(melds, previous_layoffs)``.

Part 2, played games: OpenSpiel's own gin_rummy game played by its simple
bot; at every decision we ask our rules the same question: may this player
knock (discard phase and wall phase)?  At every lay-off we compare which
cards may be laid off (chains included), and at the end the score.

Where the rules coincide we expect no disagreement.  Every kind of
disagreement found is counted and explained:

``throw-back``
    OpenSpiel lets a player discard the upcard they have just taken, so a
    knock that needs that discard is legal there; our G-5 forbids throwing
    the card back (RULES.md **[decided]**), so we say no.
``wall``
    OpenSpiel stops at a "wall" of 2 stock cards and lets the next player
    take the upcard and knock.  Our G-12 ends the hand as a draw as soon as
    a discard leaves 2 cards in the stock, so there is no such knock.
``equal deadwood``
    With equal counts after a knock OpenSpiel scores 0; our G-9 calls it an
    undercut (the defender scores the undercut bonus).
``undercut bonus``
    OpenSpiel's default undercut bonus is 25; ours is 10 (option 25).  The
    scores are compared with ``undercut_bonus=25``; the default run counts
    how many scores the default 10 would change.
``deep chain``
    OpenSpiel's ``AllLayoffs(melds, previous_layoffs)`` extends each run
    only by the earlier lay-offs that touch the *original* run, so after
    9d and then 8d went onto Td-Jd-Qd it no longer offers 7d (and offers 8d
    again).  A chain of three or more cards off one end of a run is cut
    short there; G-8 lets it go on ("repeatedly"), and so do we.
``lay-off choice`` (not a rule difference)
    OpenSpiel's defender chooses lay-offs and melds move by move (its simple
    bot may not find the best); our engine always gives the defender the
    lowest count (M-7).  Counted when the bot's count is higher than ours.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rummy.cards import Card, deck  # noqa: E402
from rummy.gin import best_layoffs, deadwood, deadwood_after_discard, layoff_targets  # noqa: E402
from rummy.search import penalty  # noqa: E402
from rummy.variants import find_variant  # noqa: E402

OS_SUITS = "scdh"  # OpenSpiel's card int: suit * 13 + rank - 1, suits s c d h
KNOCK = 10
RULES = find_variant("gin_three").meld_rules()


def to_os(c: Card) -> int:
    return OS_SUITS.index(c.suit) * 13 + c.rank - 1


def from_os(i: int) -> Card:
    return Card(i % 13 + 1, OS_SUITS[i // 13])


def our_can_knock(hand11: list[Card], keep: Card | None = None) -> bool:
    """Our G-6 (and G-5): some discard other than ``keep`` leaves <= 10."""
    return min(deadwood_after_discard(hand11, keep=keep).values()) <= KNOCK


def _progress(i: int, n: int, label: str) -> None:
    if i % max(1, n // 20) == 0 or i == n:
        print(f"\r  {label}: {i}/{n}", end="" if i < n else "\n", file=sys.stderr, flush=True)


def random_hands(n: int, seed: int, utils) -> Counter:
    """Part 1: deadwood and knock legality on random deals."""
    rng = random.Random(seed)
    pack = list(deck())
    out: Counter = Counter()
    for i in range(n):
        rng.shuffle(pack)
        a, b, up, nxt = pack[:10], pack[10:20], pack[20], pack[21]
        for h in (a, b):
            ours, shared, theirs = deadwood(h), penalty(h, RULES), utils.min_deadwood(
                [to_os(c) for c in h])
            out["10-card deadwood compared"] += 1
            out["10-card deadwood agree"] += ours == shared == theirs
        for drawn, taken in ((nxt, False), (up, True)):
            h11 = a + [drawn]
            os_dw = utils.min_deadwood([to_os(c) for c in h11])
            ours_dw = min(deadwood_after_discard(h11).values())
            out["11-card deadwood compared"] += 1
            out["11-card deadwood agree"] += ours_dw == os_dw
            os_knock = os_dw <= KNOCK
            ours_knock = our_can_knock(h11, keep=drawn if taken else None)
            key = "after taking the upcard" if taken else "after drawing from the stock"
            out[f"knock decisions {key}"] += 1
            out[f"knock legal (OpenSpiel) {key}"] += os_knock
            if os_knock == ours_knock:
                out[f"knock agree {key}"] += 1
            elif taken and os_knock and our_can_knock(h11):
                out["disagree: throw-back"] += 1
            else:
                out["disagree: unexplained"] += 1
        _progress(i + 1, n, "random hands")
    return out


def played_games(n: int, seed: int, utils) -> Counter:
    """Part 2: OpenSpiel's game, its simple bot, our rules asked alongside."""
    import pyspiel

    gr = pyspiel.gin_rummy
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    out: Counter = Counter()
    for gi in range(n):
        bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in (0, 1)]
        s = game.new_initial_state()
        took_upcard: Card | None = None
        knock_melds: list[list[Card]] | None = None
        laid: list[Card] = []
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choice(outcomes)[0])
                continue
            p = s.current_player()
            phase = s.current_phase()
            hand = [from_os(c) for c in s.hands()[p]]
            legal = s.legal_actions()
            if phase == gr.Phase.DISCARD:
                os_knock = gr.KNOCK_ACTION in legal
                ours = our_can_knock(hand, keep=took_upcard)
                out["knock decisions in play"] += 1
                out["knock legal (OpenSpiel) in play"] += os_knock
                if os_knock == ours:
                    out["knock agree in play"] += 1
                elif os_knock and our_can_knock(hand):
                    out["disagree: throw-back"] += 1
                else:
                    out["disagree: unexplained"] += 1
            elif phase == gr.Phase.WALL:
                out["wall decisions (no such turn in G-12)"] += 1
                if gr.KNOCK_ACTION in legal:
                    out["disagree: wall"] += 1
            elif phase == gr.Phase.LAYOFF and not s.finished_layoffs():
                if knock_melds is None:
                    knocker = 1 - p
                    knock_melds = [[from_os(c) for c in utils.int_to_meld[m]]
                                   for m in s.layed_melds()[knocker]]
                    out["knocks"] += 1
                    start = [from_os(c) for c in s.hands()[p]]
                    out["_best"] = best_layoffs(start, knock_melds).deadwood
                current = [list(m) for m in knock_melds]
                for c in laid:  # replay the lay-offs so far (chains)
                    for i in layoff_targets(c, current):
                        current[i].append(c)
                        break
                os_cards = {from_os(a) for a in legal if a < 52}
                our_cards = {c for c in hand if layoff_targets(c, current)}
                out["lay-off positions compared"] += 1
                out["lay-off positions agree"] += os_cards == our_cards
                if os_cards != our_cards:
                    out["disagree: unexplained"] += 1
            action = bots[p].step(s)
            if phase in (gr.Phase.DRAW, gr.Phase.FIRST_UPCARD):
                took_upcard = (from_os(s.upcard()) if action == gr.DRAW_UPCARD_ACTION
                               and s.upcard() is not None else None)
            if phase == gr.Phase.LAYOFF and not s.finished_layoffs() and action < 52:
                laid.append(from_os(action))
            s.apply_action(action)
        if knock_melds is not None:
            _score(s, out, utils)
        _progress(gi + 1, n, "OpenSpiel games")
    out.pop("_best", None)
    return out


def layoff_chains(n: int, seed: int, utils) -> Counter:
    """Part 3: random knocks with melds near the defender's cards; lay off
    one random possible card at a time (building chains) and compare, at
    every step, which cards may be laid off with ``all_layoffs``."""
    rng = random.Random(seed)
    pack = list(deck())
    out: Counter = Counter()
    for i in range(n):
        suit = rng.choice("cdhs")
        lo = rng.randint(1, 10)
        run = [Card(r, suit) for r in range(lo, lo + 3)]
        rank = rng.choice([r for r in range(1, 14) if not lo <= r < lo + 3])
        group = rng.sample([c for c in pack if c.rank == rank], 3)
        melds = [run, group]
        used = set(run) | set(group)
        near = [c for c in pack if c not in used and (c.suit == suit or c.rank == rank)]
        hand = rng.sample(near, min(len(near), 7))
        hand += rng.sample([c for c in pack if c not in used and c not in hand], 10 - len(hand))
        ids = [utils.meld_to_int(sorted(to_os(c) for c in m)) for m in melds]
        laid: list[int] = []
        current = [list(m) for m in melds]
        while True:
            os_cards = {from_os(c) for c in utils.all_layoffs(ids, laid)} & set(hand)
            ours = {c for c in hand if layoff_targets(c, current)}
            out["lay-off steps compared"] += 1
            out["lay-off steps agree"] += os_cards == ours
            if os_cards != ours:
                deep = all(_chain_distance(c, melds) >= 2 for c in ours - os_cards)
                kind = "deep chain" if os_cards < ours and deep else "unexplained"
                out[f"disagree: {kind}"] += 1
            if not ours:
                break
            if laid:
                out["chain steps (after an earlier lay-off)"] += 1
            c = rng.choice(sorted(ours))
            current[layoff_targets(c, current)[0]].append(c)
            hand.remove(c)
            laid.append(to_os(c))
        _progress(i + 1, n, "lay-off chains")
    return out


def _deal(game, first: str, second: str, upcard: str, stock: str = ""):
    """An OpenSpiel state with chosen hands (player 0 first), upcard, and
    the next stock cards (in the order they will be drawn)."""
    from rummy.cards import cards

    s = game.new_initial_state()
    for c in (*cards(first), *cards(second), *cards(upcard)):
        s.apply_action(to_os(c))
    queue = [to_os(c) for c in cards(stock)]
    return s, queue


def _lay_melds(s, utils) -> None:
    """Lay the best melds one action at a time, then pass (knock/lay-out phase)."""
    import pyspiel

    gr = pyspiel.gin_rummy
    best = {utils.meld_to_int(sorted(m)) for m in utils.best_meld_group(s.hands()[s.current_player()])}
    legal = s.legal_actions()
    ids = [a for a in legal if a >= gr.MELD_ACTION_BASE and a - gr.MELD_ACTION_BASE in best]
    s.apply_action(ids[0] if ids else gr.PASS_ACTION)


def constructed(utils) -> Counter:
    """Part 4: one made-up position for each rule difference, played in
    OpenSpiel's game and compared with our rules."""
    import pyspiel

    gr = pyspiel.gin_rummy
    game = pyspiel.load_game("gin_rummy")
    out: Counter = Counter()
    # throw-back: P0 holds 2c3c4c5c 7h7d7s7c + 3d 4s (7); the upcard Kc is no use.
    # OpenSpiel: take Kc, knock, discard Kc.  Ours: discarding 3d or 4s leaves 14
    # or 13 with Kc, and Kc itself can't be thrown back (G-5): no knock.
    s, _ = _deal(game, "2c 3c 4c 5c 7h 7d 7s 7c 3d 4s", "Ah 2h 3h 8c 8d 8h Jd Qd Kd 5s", "Kc")
    s.apply_action(gr.DRAW_UPCARD_ACTION)
    hand = [from_os(c) for c in s.hands()[0]]
    os_knock = gr.KNOCK_ACTION in s.legal_actions()
    ours = our_can_knock(hand, keep=Card.parse("Kc"))
    out["constructed: throw-back position, OpenSpiel knock legal"] += os_knock
    out["constructed: throw-back position, our knock legal"] += ours
    if os_knock and not ours:
        out["disagree: throw-back"] += 1
    # wall: both players draw from the stock and throw the drawn card until 2
    # are left; P1 holds 3 melds + 2c (2 points).  OpenSpiel lets P1 take the
    # upcard and knock at the wall; our G-12 already ended the hand as a draw.
    s, _ = _deal(game, "Ah 3h 5h 7h 9h Jh Kh 2s 4s 6s", "2c 3c 4c 7d 8d 9d Qc Qd Qs 2d", "Kc")
    s.apply_action(gr.PASS_ACTION)
    s.apply_action(gr.PASS_ACTION)
    s.apply_action(gr.DRAW_STOCK_ACTION)
    while s.current_phase() != gr.Phase.WALL and not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
            continue
        p = s.current_player()
        if s.current_phase() == gr.Phase.DISCARD:
            drawn = s.hands()[p][-1]
            s.apply_action(drawn)
        else:
            s.apply_action(gr.DRAW_STOCK_ACTION)
    out["constructed: wall reached with stock"] += s.stock_size() if not s.is_terminal() else -99
    if not s.is_terminal() and gr.KNOCK_ACTION in s.legal_actions():
        out["disagree: wall"] += 1
    # equal deadwood: P0 knocks with 5 (5d), P1 lays out 5 (5s), nothing lays off.
    s, queue = _deal(game, "2c 3c 4c 7h 7d 7s 9s Ts Js 5d", "Ah 2h 3h 8c 8d 8h Jd Qd Kd 5s",
                     "Kh", stock="Kc")
    s.apply_action(gr.PASS_ACTION)
    s.apply_action(gr.PASS_ACTION)
    s.apply_action(gr.DRAW_STOCK_ACTION)
    s.apply_action(queue[0])                       # the chance node deals Kc
    s.apply_action(gr.KNOCK_ACTION)
    s.apply_action(to_os(Card.parse("Kc")))
    while s.current_phase() == gr.Phase.KNOCK:
        _lay_melds(s, utils)
    s.apply_action(gr.PASS_ACTION)                 # P1: no lay-offs
    while not s.is_terminal():
        _lay_melds(s, utils)
    k, d = s.deadwood()
    out["constructed: equal deadwood, OpenSpiel knocker's return"] += int(s.returns()[0])
    ours_undercut = k >= d
    if ours_undercut and s.returns()[0] == 0:
        out["disagree: equal deadwood"] += 1
    return out


def _chain_distance(card: Card, melds: list[list[Card]]) -> int:
    """How many ranks ``card`` lies beyond the end of the original run it
    extends (1: right next to it), or 0 if it extends no run."""
    best = 0
    for m in melds:
        if len({c.rank for c in m}) > 1 and m[0].suit == card.suit:
            lo, hi = min(c.rank for c in m), max(c.rank for c in m)
            d = lo - card.rank if card.rank < lo else card.rank - hi if card.rank > hi else 0
            best = max(best, d)
    return best


def _score(s, out: Counter, utils) -> None:
    """Compare the final score with ours from the same laid-out counts."""
    knocked = list(s.knocked())
    k = knocked.index(True)
    d = 1 - k
    dw = s.deadwood()
    kp, dp = dw[k], dw[d]
    os_return = s.returns()[k]
    out["scores compared"] += 1
    best = out["_best"]
    if kp != 0 and dp > best:
        out["lay-off choice: OpenSpiel's bot kept more deadwood than our best"] += 1

    def ours(bonus: int) -> int:
        if kp == 0:
            return 25 + dp
        if kp < dp:
            return dp - kp
        return -(bonus + kp - dp)

    if ours(25) == os_return:
        out["scores agree (undercut bonus 25)"] += 1
    elif kp == dp and kp != 0:
        out["disagree: equal deadwood"] += 1
    else:
        out["disagree: unexplained"] += 1
    if kp >= dp and kp != 0 and ours(10) != ours(25):
        out["undercut bonus: scores our default 10 would change"] += 1


def speed(n: int, seed: int, rounds: int, utils) -> None:
    """``--speed``: our penalty and best_arrangement against OpenSpiel's
    ``min_deadwood`` on the same 10-card hands (see the module's docstring)."""
    import gc
    import os
    import statistics

    from rummy.search import best_arrangement, clear_memo

    rng = random.Random(seed)
    pack = list(deck())
    hands = [tuple(rng.sample(pack, 10)) for _ in range(n)]
    ids = [[to_os(c) for c in h] for h in hands]
    clock = time.perf_counter_ns
    ours = {"penalty": lambda h: penalty(h, RULES), "best_arrangement": lambda h: best_arrangement(h, RULES)}
    best: dict[str, list[float]] = {k: [float("inf")] * n for k in (*ours, "OpenSpiel")}
    for h, i in zip(hands, ids):  # agreement, and every table built
        assert penalty(h, RULES) == best_arrangement(h, RULES).penalty == utils.min_deadwood(i), h
    gc.disable()
    try:
        for _ in range(rounds):
            for j, (h, i) in enumerate(zip(hands, ids)):
                for name, fn in ours.items():
                    clear_memo()
                    t0 = clock()
                    fn(h)
                    t = clock() - t0
                    if t < best[name][j]:
                        best[name][j] = t
                t0 = clock()
                utils.min_deadwood(i)
                t = clock() - t0
                if t < best["OpenSpiel"][j]:
                    best["OpenSpiel"][j] = t
    finally:
        gc.enable()
    med = {k: statistics.median(v) / 1000 for k, v in best.items()}
    print(f"Lowest deadwood of a 10-card hand, {n} hands, each the fastest of {rounds} rounds, "
          f"hand by hand in turn; load {os.getloadavg()[0]:.2f} (1 min)")
    print(f"  OpenSpiel C++ min_deadwood (Python binding)  median {med['OpenSpiel']:6.2f} us")
    for name, target in (("penalty", 1.0), ("best_arrangement", 2.0)):
        ratio = med[name] / med["OpenSpiel"]
        print(f"  ours {name:<40} median {med[name]:6.2f} us   {ratio:.2f}x OpenSpiel "
              f"(target {target:g}x: {'met' if ratio <= target else 'MISSED'})")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--speed", action="store_true",
                    help="time our penalty and best_arrangement against OpenSpiel's min_deadwood")
    ap.add_argument("--rounds", type=int, default=7, help="with --speed: rounds per hand")
    args = ap.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("open_spiel is not installed (pip install open-spiel): nothing to compare")
        return
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    if args.speed:
        speed(args.hands if args.hands != 5000 else 2000, args.seed, args.rounds, utils)
        return
    t0 = time.perf_counter()
    part1 = random_hands(args.hands, args.seed, utils)
    t1 = time.perf_counter()
    part2 = played_games(args.games, args.seed, utils)
    t2 = time.perf_counter()
    part3 = layoff_chains(args.hands, args.seed, utils)
    t3 = time.perf_counter()
    part4 = constructed(utils)
    print(f"Part 1: {args.hands} random two-player deals ({t1 - t0:.1f} s)")
    for k in sorted(part1):
        if not k.startswith("disagree"):
            print(f"  {k:55s} {part1[k]:7d}")
    print(f"Part 2: {args.games} OpenSpiel gin_rummy games, its simple bot ({t2 - t1:.1f} s)")
    for k in sorted(part2):
        if not k.startswith("disagree"):
            print(f"  {k:55s} {part2[k]:7d}")
    print(f"Part 3: {args.hands} random knocks, lay-offs one card at a time ({t3 - t2:.1f} s)")
    for k in sorted(part3):
        if not k.startswith("disagree"):
            print(f"  {k:55s} {part3[k]:7d}")
    print("Part 4: one constructed position per rule difference, played in OpenSpiel")
    for k in sorted(part4):
        if not k.startswith("disagree"):
            print(f"  {k:55s} {part4[k]:7d}")
    print("Disagreements by kind (see the module docstring for each):")
    kinds = Counter({k: v for k, v in (part1 + part2 + part3 + part4).items()
                     if k.startswith("disagree")})
    for kind in ("throw-back", "wall", "equal deadwood", "deep chain", "unexplained"):
        print(f"  {kind:20s} {kinds.get('disagree: ' + kind, 0):7d}")


if __name__ == "__main__":
    main()
