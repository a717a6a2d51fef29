"""Hidden information in gin_three.

Decided (rummy/gin.py docstring): the advisor sits beside the captain and
may see the captain's hand; nobody on the team sees the box's hand, and the
box sees neither the captain's hand nor the team's advice, until a hand is
laid out.  After a knock, the defender's hand stays hidden from the knocker
until it is laid out (only the cards laid off show)."""

from __future__ import annotations

import dataclasses
import re

from rummy import GameError, new_game
from rummy.bots import make_bot
from rummy.cards import Card
from tests.positions import position

CARD_TOKEN = re.compile(r"\b([A2-9TJQK][cdhs])\b")


def cards_in(value, skip=("log", "last_result", "variant")) -> set[Card]:
    """Every Card reachable from an observation (fields, tuples, actions,
    advice, text), except the public log and the last hand's open result."""
    out: set[Card] = set()

    def walk(v):
        if isinstance(v, Card):
            out.add(v)
        elif isinstance(v, str):
            out.update(Card.parse(t) for t in CARD_TOKEN.findall(v))
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            for f in dataclasses.fields(v):
                if f.name not in skip:
                    walk(getattr(v, f.name))
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list | tuple | set | frozenset):
            for x in v:
                walk(x)

    walk(value)
    return out


def hidden(g, seat: int) -> set[Card]:
    """Cards of ``seat`` that the others may not know: its hand, less cards
    it took face up from the discard pile, less a knocker's laid-out hand."""
    if seat not in g.hands:
        return set()
    if g._knock is not None and g._knock.knocker == seat:
        return set()
    return set(g.hands[seat]) - set(g.taken.get(seat, ()))


def check_all(g, hand_log_start: int) -> None:
    box, cap, adv = g.box, g.captain, g.advisor
    ob, oc, oa = g.observe(box), g.observe(cap), g.observe(adv)
    hb, hc = hidden(g, box), hidden(g, cap)
    assert cards_in(oc) >= set(g.hands[cap]) and cards_in(oa) >= set(g.hands[cap])  # the walk works
    assert not cards_in(ob) & hc, "the box sees the captain's cards"
    assert not cards_in(oc) & hb, "the captain sees the box's cards"
    assert not cards_in(oa) & hb, "the advisor sees the box's cards"
    assert set(oa.partner_hand) == set(g.hands[cap])   # decided: the advisor sees the captain's
    assert ob.partner_hand == () and oc.partner_hand == () and ob.advice is None
    # the public log of this hand never names a hidden card
    for line in g.log[hand_log_start:]:
        named = {Card.parse(t) for t in CARD_TOKEN.findall(line)}
        assert not named & (hb | hc), line


def test_hidden_hands_over_whole_games_with_advice():
    for seed in range(4):
        g = new_game("gin_three", seed=300 + seed)
        bots = [make_bot("greedy", seed=seed * 3 + i) for i in range(3)]
        hand_no, start = g.hand_number, len(g.log) - 2
        steps = 0
        while not g.is_over and steps < 900:
            if g.hand_number != hand_no:
                hand_no = g.hand_number
                start = max(i for i, line in enumerate(g.log) if line.startswith(f"Hand {hand_no}:"))
            check_all(g, start)
            p = g.to_act()[0]
            if p == g.captain and steps % 3 == 0:
                g.advice(bot="greedy")              # private to the team
                check_all(g, start)
            g.apply(bots[p].choose(g.observe(p)), player=p)
            steps += 1


def test_the_knocker_never_sees_the_defenders_hand_before_it_is_laid_out():
    box = "4h 3h 8h 9h Tc 2s 3s 4s Kh Qd"
    g = position(box, "5h 6h 7h 9c 9d 9s Jc Qc Kc 2d Ks")
    g.apply("knock Ks")
    assert g.phase == "lay off"
    knocker_view = g.observe(1)
    assert knocker_view.layoff_plan == () and knocker_view.layoff_hint == ""
    assert not cards_in(knocker_view) & set(g.hands[0])
    assert knocker_view.knock is not None and knocker_view.knock.deadwood_points == 2
    g.apply("lay off 4h onto 5h 6h 7h")
    seen = cards_in(g.observe(1))
    assert Card.parse("4h") in seen                # laid off: face up now
    assert not seen & set(g.hands[0])              # the rest stays hidden
    # after the lay-out, everything is open in the hand's result
    while g.phase == "lay off":
        g.apply(g.observe(0).layoff_plan[0])
    r = g.observe(1).last_result
    assert r is not None and {c for c in r.defender_deadwood} == {Card.parse("Kh"),
                                                                   Card.parse("Qd")}


def test_advice_is_private_to_the_team_and_checked():
    g = new_game("gin_three", seed=12)
    adv = g.advice(bot="expert")
    assert adv.seat == g.advisor and adv.action in g.legal_actions() and adv.reason
    assert g.observe(g.captain).advice == adv and g.observe(g.advisor).advice == adv
    assert g.observe(g.box).advice is None
    assert not any("advi" in line and str(adv.action) in line for line in g.log[2:])
    before = g.to_json()
    try:
        g.advise("pass", player=g.box)
    except GameError as e:
        assert "only the advisor" in str(e)
    else:
        raise AssertionError("the box gave advice")
    try:
        g.advise("discard 9c")
    except GameError as e:
        assert "advice must be a move the captain may make" in str(e)
    else:
        raise AssertionError("illegal advice accepted")
    assert g.to_json() == before
    g.apply("pass")                                # the captain moves: advice is spent
    assert g.observe(g.captain).advice is None
    try:
        g.advice()
    except GameError as e:                         # now the box is to act
        assert "advises the captain" in str(e)
    else:
        raise AssertionError("advice offered to the box")
