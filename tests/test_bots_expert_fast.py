"""The expert's fast paths (rummy.bots.three_thirteen) against the plain
computations they replace, on the decisions of seeded games and on random
hands under every ace rule: unseen counts kept up to date in memory, the
summary by rank, the expected gain on card indexes, the unfinished melds,
the discard penalties by card index and the next player's danger."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummy import new_game
from rummy.bots import ExpertBot
from rummy.bots import three_thirteen as tt
from rummy.cards import deck
from rummy.melds import Arrangement, MeldRules
from rummy.search import best_arrangement, lone_cards, penalty

# -- the plain computations (the expert's code before its fast paths) -------------------


def ref_unseen_counts(obs, memory):
    left = [obs.packs] * 52 + [obs.jokers]
    for c in obs.hand:
        left[c.index] -= 1
    for c in memory["pile"]:
        left[c.index] -= 1
    for seat, k in enumerate(memory["known"]):
        if seat != obs.player:
            for c, n in k.items():
                left[c.index] -= n
    for seat, melds in obs.shown:
        if seat != obs.player:
            for m in melds:
                for c in m.cards:
                    left[c.index] -= 1
    return [n if n > 0 else 0 for n in left]


def ref_summary(unseen, rules):
    wild_left = 0
    hist: dict[int, int] = {}
    for c in deck(1, 1):
        n = unseen[c.index]
        if rules.is_wild(c):
            wild_left += n
        elif n:
            hist[rules.penalty_of(c)] = hist.get(rules.penalty_of(c), 0) + n
    return sum(unseen), wild_left, hist


CARD = {(c.rank, c.suit): c for c in deck()}


def card_at(suit, pos):
    if pos == 14:
        return CARD[1, suit]
    if 1 <= pos <= 13:
        return CARD[pos, suit]
    return None


def run_pos(card, rules):
    if card.rank == 1:
        return {"low": (1,), "high": (14,), "low_or_high": (1, 14)}[rules.aces]
    return (card.rank,)


def ref_outs(arr, rules):
    lowest = 2 if rules.aces == "high" else 1
    highest = 13 if rules.aces == "low" else 14
    sets_ok = rules.max_set_size is None or rules.max_set_size >= 3
    dead = [c for c in arr.deadwood if not rules.is_wild(c)]
    found = []
    for i, a in enumerate(dead):
        for b in dead[i + 1:]:
            if a.rank == b.rank:
                if sets_ok:
                    found.append(((a, b), {CARD[a.rank, s] for s in "cdhs"}, True))
                continue
            if a.suit != b.suit:
                continue
            pair = (a, b) if a.index <= b.index else (b, a)
            for pa in run_pos(a, rules):
                for pb in run_pos(b, rules):
                    lo, hi = (pa, pb) if pa <= pb else (pb, pa)
                    if hi - lo == 1:
                        comp = set()
                        for q in (lo - 1, hi + 1):
                            c = card_at(a.suit, q)
                            if c is not None and lowest <= q <= highest:
                                comp.add(c)
                        found.append((pair, comp, True))
                    elif hi - lo == 2:
                        mid = card_at(a.suit, lo + 1)
                        if mid is not None:
                            found.append((pair, {mid}, True))
    for m in arr.melds:
        if m.kind != "run":
            continue
        suit = m.represents[0].suit
        ps = [p for r in m.represents for p in run_pos(r, rules)]
        lo, hi = min(ps), max(ps)
        if lo == 1 and 14 in ps:
            continue
        for d in dead:
            if d.suit != suit:
                continue
            for pd in run_pos(d, rules):
                if pd == hi + 2 and hi + 1 <= highest:
                    gap = card_at(suit, hi + 1)
                elif pd == lo - 2 and lo - 1 >= lowest:
                    gap = card_at(suit, lo - 1)
                else:
                    continue
                if gap is not None:
                    found.append(((d,), {gap}, True))
    return found


def ref_gain(arr, rules, unseen):
    total, wild_left, hist = ref_summary(unseen, rules)
    if total <= 0:
        return 0.0, []
    dead_pts = sorted([rules.penalty_of(c) for c in arr.deadwood], reverse=True)
    per_card: dict[int, int] = {}
    partials = []
    best_partial = 0
    for kept, comp, wild_ok in ref_outs(arr, rules):
        kept_pts = [rules.penalty_of(c) for c in kept]
        skip = list(kept_pts)
        top = 0
        for v in dead_pts:
            if v in skip:
                skip.remove(v)
            else:
                top = v
                break
        saved = sum(kept_pts) + top
        n = 0
        completing = []
        for c in comp:
            k = unseen[c.index]
            if k:
                n += k
                completing.append(c)
                if per_card.get(c.index, 0) < saved:
                    per_card[c.index] = saved
        completing.sort(key=lambda c: c.index)
        partials.append((kept, saved, n + (wild_left if wild_ok else 0), completing))
        if wild_ok and saved > best_partial:
            best_partial = saved
    g = sum(unseen[i] * v for i, v in per_card.items()) + wild_left * best_partial
    worst = dead_pts[0] if dead_pts else 0
    if worst:
        g += sum(n * (worst - p) for p, n in hist.items() if p < worst)
        for i in per_card:
            p = rules.penalty_of(deck(1, 1)[i])
            if p < worst:
                g -= unseen[i] * (worst - p)
    return g / total, partials


def ref_discard_penalties(hand, rules, allowed):
    full = best_arrangement(tuple(hand), rules)
    out = {}
    for d in sorted(set(full.deadwood), key=lambda c: c.index):
        if d in allowed:
            out[d] = full.penalty - rules.penalty_of(d)
    best = min(out.values(), default=None)
    rest = sorted({c for c in allowed if c not in out},
                  key=lambda c: (-rules.penalty_of(c), c.index))
    for c in rest:
        if best is not None and full.penalty - rules.penalty_of(c) >= best:
            continue
        kept = list(hand)
        kept.remove(c)
        p = penalty(kept, rules)
        if best is None or p <= best:
            out[c] = p
            best = p
    return full, out, best


# -- checks -----------------------------------------------------------------------------


def check_arrangement(arr, rules, unseen):
    """outs, the gain and the unfinished melds of ``arr`` as the plain way."""
    got = tt.outs(arr, rules)
    want = ref_outs(arr, rules)
    assert got == want
    assert [k for k, _, _ in got] == [k for k, _, _ in want]  # the kept cards in order
    summary = tt._unseen_summary(unseen, rules)
    g, partials = ref_gain(arr, rules, unseen)
    assert tt._gain_value(arr, rules, unseen, summary) == g
    assert tt._gain(arr, rules, unseen, tt._unseen_summary(unseen, rules)) == (g, partials)
    assert tt._partials(arr, rules, unseen, summary) == partials


def check_decision(obs, memory):
    rules = obs.rules
    unseen = tt._unseen_counts(obs, memory)
    assert unseen == ref_unseen_counts(obs, memory)
    total, wild_left, hist, swaps = tt._unseen_summary(unseen, rules)
    by_points: Counter[int] = Counter()
    for p, n in hist:
        by_points[p] += n
    assert (total, wild_left, +by_points) == (lambda t, w, h: (t, w, +Counter(h)))(
        *ref_summary(unseen, rules)) and swaps == {}
    hand = list(obs.hand)
    check_arrangement(best_arrangement(tuple(hand), rules), rules, unseen)
    for c in sorted(set(hand), key=lambda c: c.index):
        rest = list(hand)
        rest.remove(c)
        check_arrangement(best_arrangement(tuple(rest), rules), rules, unseen)
    if len(hand) > 1:
        allowed = sorted(set(hand), key=lambda c: c.index)[::2]
        full, out, best = tt._discard_penalties(hand, rules, allowed)
        rfull, rout, rbest = ref_discard_penalties(hand, rules, allowed)
        assert (full, best) == (rfull, rbest)
        assert list(out.items()) == [(c.index, p) for c, p in rout.items()]
    nxt, held = tt._feeds(obs, memory)
    if nxt is None:
        assert held == []
    else:
        assert held == [y for y in memory["known"][nxt].elements() if not rules.is_wild(y)]
    for c in set(hand):
        feed = tt.WEIGHTS.feed_wild if rules.is_wild(c) else max(
            [0.0] + [tt.WEIGHTS.feed_rank if y.rank == c.rank else tt.WEIGHTS.feed_run
                     for y in held if y.rank == c.rank
                     or (y.suit == c.suit and abs(y.rank - c.rank) <= 2)])
        assert feed == tt._feed(c, rules.is_wild(c), held, tt.WEIGHTS)


@pytest.mark.parametrize("variant,players,options", [
    ("three_thirteen", 4, {}),
    ("three_thirteen", 2, {}),
    ("three_thirteen_jokers", 4, {"jokers": 2}),
    ("tre_tretton", 4, {}),
])
def test_fast_paths_match_the_plain_ones_in_expert_games(variant, players, options):
    g = new_game(variant, players=players, seed=5, **options)
    bots = [ExpertBot(seed=i) for i in range(players)]
    decisions = 0
    while not g.is_over and g.round <= 6:
        p = g.current_player
        obs = g.observe(p)
        act = bots[p].choose(obs)
        check_decision(obs, bots[p].memory)
        decisions += 1
        g.apply(act, player=p)
    assert decisions > 100


@pytest.mark.parametrize("aces", ["low", "high", "low_or_high"])
def test_gain_and_outs_match_the_plain_ones_on_random_hands(aces):
    rng = random.Random(aces)
    shoe = list(deck(2, 2))
    for _ in range(300):
        wild_rank = rng.choice([None, *range(1, 14)])
        rules = MeldRules(wild_rank=wild_rank, aces=aces, jokers_wild=True)
        hand = rng.sample(shoe, rng.randint(2, 13))
        arr = best_arrangement(tuple(hand), rules)
        unseen = [rng.choice([0, 0, 1, 2]) for _ in range(52)] + [rng.randint(0, 2)]
        check_arrangement(arr, rules, unseen)
        # the deadwood in another order (a discard's arrangement keeps the hand's order)
        dead = list(arr.deadwood)
        rng.shuffle(dead)
        check_arrangement(Arrangement(arr.melds, tuple(dead), arr.penalty), rules, unseen)
    check_arrangement(arr, rules, [0] * 53)  # nothing unseen


def test_unseen_counts_follow_a_memory_given_late():
    """A memory that has followed the round without the shoe-less-pile
    counts (or a fresh one) gives the same unseen counts."""
    g = new_game("three_thirteen", players=3, seed=2)
    bots = [ExpertBot(seed=i) for i in range(3)]
    for _ in range(40):
        p = g.current_player
        obs = g.observe(p)
        g.apply(bots[p].choose(obs), player=p)
    obs = g.observe(0)
    old = dict(bots[0].memory)
    old.pop("rest", None)
    for memory in (old, {}):
        assert tt._unseen_counts(obs, memory) == ref_unseen_counts(obs, memory)


@pytest.mark.parametrize("aces", ["low", "high", "low_or_high"])
def test_a_top_card_that_cannot_help_lowers_no_penalty(aces):
    # the expert draws from the stock without arranging its hand plus the
    # top card when that card is lone, worth the most, and the hand holds
    # fewer than two wilds: then every discard after taking it must leave at
    # least the penalty now (the brute force's hand left), and a lone card
    # must be deadwood in every arrangement (its points on top of the rest)
    from tests.brute import brute_min_penalty

    rng = random.Random(f"top {aces}")
    shoe = list(deck(2, 2))
    told = 0
    for _ in range(1500):
        rules = MeldRules(wild_rank=rng.choice([None, *range(1, 14)]), aces=aces)
        hand = rng.sample(shoe, rng.randint(2, 9))
        top = rng.choice([c for c in shoe if c.rank in (1, 10, 11, 12, 13)])
        with_top = hand + [top]
        if with_top.count(top) > 2:
            continue
        kw = dict(wild_rank=rules.wild_rank, aces=aces)
        wilds = sum(rules.is_wild(c) for c in with_top)
        for c in lone_cards(with_top, rules):
            if wilds < 2:
                rest = list(with_top)
                rest.remove(c)
                assert brute_min_penalty(with_top, **kw) == (
                    brute_min_penalty(rest, **kw) + rules.penalty_of(c)), (with_top, c)
        if not tt._cannot_help(top, hand, with_top, rules):
            continue
        told += 1
        now = brute_min_penalty(hand, **kw)
        for c in set(hand):
            rest = list(with_top)
            rest.remove(c)
            assert brute_min_penalty(rest, **kw) >= now, (hand, top, c)
    assert told > 150  # the test does see top cards that cannot help
