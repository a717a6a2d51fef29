"""Self-play: over 2,000 gin_three hands between bots, with invariants
checked after every move and every hand (G-6, G-7, G-9, G-10, G-11, G-12,
G-13)."""

from __future__ import annotations

from rummy import new_game
from rummy.bots import make_bot
from rummy.gin import deadwood
from tests.positions import where

LINEUPS = [
    ("random", "random", "random"),   # random players rarely knock: many drawn hands
    ("greedy", "greedy", "greedy"),
    ("greedy", "random", "greedy"),
    ("random", "greedy", "greedy"),
    ("greedy", "greedy", "random"),
]


def _check_hand(g, r, before: list[int], roles_before: tuple[int, int, int]) -> None:
    box, cap, adv = roles_before
    assert (r.box, r.captain, r.advisor) == roles_before
    gained = [a - b for a, b in zip(g.scores, before)]
    if r.kind == "draw":
        assert gained == [0, 0, 0]                                  # G-12
        if not g.is_over:
            assert (g.box, g.captain, g.advisor) == roles_before   # same box deals again
        return
    assert r.knocker in (box, cap) and r.defender == ({box, cap} - {r.knocker}).pop()
    # G-6: a knocker never has more than 10 points of deadwood
    assert r.knocker_points <= 10
    assert r.knocker_points == sum(min(c.rank, 10) for c in r.knocker_deadwood)
    # G-8a: the knocker may lay out more than the lowest deadwood (never less)
    assert r.knocker_points >= deadwood([c for m in r.knocker_melds for c in m.cards]
                                        + list(r.knocker_deadwood))
    assert r.defender_points == sum(min(c.rank, 10) for c in r.defender_deadwood)
    # G-7 / G-9 scores, recomputed from the laid-out counts
    k, d = r.knocker_points, r.defender_points
    if r.kind == "gin":
        assert k == 0 and r.layoffs == () and r.winner == r.knocker
        assert r.points == g.gin_bonus + d
    elif r.kind == "knock":
        assert k < d and r.winner == r.knocker and r.points == d - k
    else:
        assert r.kind == "undercut" and k >= d and r.winner == r.defender
        assert r.points == g.undercut_bonus + k - d
    # G-10: only the winner's individual total moves; the advisor never scores
    assert gained[r.winner] == r.points and sum(gained) == r.points and gained[adv] == 0
    if g.is_over:
        return
    # G-11
    if r.winner == box:
        assert (g.box, g.captain, g.advisor) == (box, adv, cap)
    else:
        assert (g.box, g.captain, g.advisor) == (cap, adv, box)


def test_selfplay_2000_hands_with_invariants():
    hands = 0
    kinds: dict[str, int] = {}
    game = 0
    while hands < 2000:
        lineup = LINEUPS[0] if game == 0 else LINEUPS[1 + game % (len(LINEUPS) - 1)]
        options = {"target": 50} if lineup == LINEUPS[0] else {}
        g = new_game("gin_three", seed=1000 + game, **options)
        bots = [make_bot(name, seed=game * 3 + i) for i, name in enumerate(lineup)]
        seen_results = 0
        before = list(g.scores)
        roles = (g.box, g.captain, g.advisor)
        while not g.is_over:
            p = g.to_act()[0]
            assert p in (g.box, g.captain)                   # the advisor never acts
            obs = g.observe(p)
            a = bots[p].choose(obs)
            assert a in obs.legal_actions
            g.apply(a, player=p)
            if len(g.results) > seen_results:
                r = g.results[-1]
                seen_results += 1
                kinds[r.kind] = kinds.get(r.kind, 0) + 1
                _check_hand(g, r, before, roles)
                before = list(g.scores)
                roles = (g.box, g.captain, g.advisor)
            if not g.is_over:
                where(g)                                       # every card in one place
                if g.phase != "lay off":
                    assert len(g.hands[g.box]) + len(g.hands[g.captain]) in (20, 21)
        # G-13: the game ends exactly when one total reaches the target
        assert max(g.scores) >= g.target
        assert [s >= g.target for s in g.scores].count(True) == 1
        assert g.scores[g.winner] >= g.target
        last = g.results[-1]
        assert g.scores[last.winner] - last.points < g.target
        assert sum(1 for r in g.results if r.kind != "draw") == sum(
            s["went_out"] for s in g.summary())
        hands += g.hand_number
        game += 1
    assert hands >= 2000
    # every way a hand can end happened
    assert {"gin", "knock", "undercut", "draw"} <= set(kinds), kinds
