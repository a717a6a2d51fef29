"""Card and hand views, the explorers, the score sheet and the coach's odds,
headless (button.click() fires the handlers without a browser)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import widgets
from rummy import probability
from rummy.cards import JOKER, Card, cards
from rummy.melds import MeldRules
from tests.table_play import walk
from widgets import (
    CardView,
    HandView,
    MeldChecker,
    OddsExplorer,
    RulesStepper,
    ScoreSheet,
    ThreeThirteenTable,
)
from widgets.cards import PileView
from widgets.coach import meld_chances, seen_cards


def test_public_names_resolve() -> None:
    for name in widgets.__all__:
        assert getattr(widgets, name) is not None
    with pytest.raises(AttributeError):
        widgets.NoSuchWidget  # noqa: B018


def test_every_public_css_class_is_documented() -> None:
    # every stable class a widget adds appears in the package docstring
    t = widgets.play("three_thirteen", players=2, seed=1, speed=0)
    b = widgets.play("big_table", players=3, seed=1, speed=0)
    g = widgets.play("gin_three", seed=1, speed=0)
    views = [t.widget, b.widget, g.widget, MeldChecker().widget, RulesStepper().widget,
             OddsExplorer().widget]
    doc = widgets.__doc__ or ""
    missing = set()
    for root in views:
        for wdg in walk(root):
            for cls in getattr(wdg, "_dom_classes", ()):
                if cls.startswith("rummy-card-") or cls.startswith("rummy-pick-") \
                        or cls.startswith("rummy-seat-"):
                    continue  # families documented by pattern
                if cls not in doc:
                    missing.add(cls)
    assert not missing, f"undocumented CSS classes: {sorted(missing)}"


def test_card_view_click_and_text_alternative() -> None:
    clicked = []
    v = CardView(Card.parse("Qd"), on_click=clicked.append)
    assert v.button.tooltip == "queen of diamonds"
    assert "<title>queen of diamonds</title>" in v.picture.value
    assert "rummy-card" in v.button._dom_classes and "rummy-card-Qd" in v.button._dom_classes
    v.button.click()
    assert clicked == [v]
    v.update(JOKER, wild=True, label="=9♥", selected=True)
    assert v.button.tooltip == "joker (wild), as 9♥, selected"
    # the accessible name: the card in words (selection is said by aria-pressed)
    assert v.button.description == "joker (wild), as 9♥"
    assert "rummy-card-Jk" in v.button._dom_classes
    assert "rummy-card-Qd" not in v.button._dom_classes
    assert "rummy-card-selected" in v.button._dom_classes
    v.update(Card.parse("Qd"), face_down=True)
    assert "queen" not in v.picture.value and v.button.tooltip == "face-down card"
    assert v.button.description == "face-down card"


def test_pile_buttons_have_real_accessible_names() -> None:
    p = PileView("rummy-stock", "stock")
    p.update(count=44)
    assert p.button.description == "stock, 44 cards"
    p.update(count=1)
    assert p.button.description == "stock, 1 card"
    p.update(top=Card.parse("7h"), count=5)
    assert p.button.description == "stock, seven of hearts on top, 5 cards"
    t = ThreeThirteenTable("three_thirteen", players=2, seed=5, speed=0)
    obs = t.observation()
    assert t.stock.button.description == f"stock, {obs.stock_size} cards"
    assert t.pile.button.description.startswith(f"discard pile, {obs.discard_top.name} on top")
    names = [v.button.description for v in t.hand.views if v.card is not None]
    assert sorted(names) == sorted(c.name + (" (wild)" if obs.rules.is_wild(c) else "")
                                   for c in obs.hand)


def test_hand_view_select_then_act() -> None:
    acted = []
    h = HandView(cards("9h 7h 8h"), on_act=acted.append)
    views = {str(h.cards[v.position]): v for v in h.views[:3]}
    views["7h"].button.click()
    assert h.selected == Card.parse("7h")
    assert "rummy-card-selected" in views["7h"].button._dom_classes
    views["8h"].button.click()
    assert h.selected == Card.parse("8h") and acted == []
    assert h.act()  # what a tap on the discard pile does
    assert acted == [Card.parse("8h")]


def test_hand_view_sorts() -> None:
    hand = cards("Kc 3s 7h 2d 8h 9h Jk")
    h = HandView(hand, rules=MeldRules(wild_rank=3))
    assert h.shown_cards() == list(hand)
    h.sort.value = "suit"
    assert [str(c) for c in h.shown_cards()] == ["Kc", "2d", "7h", "8h", "9h", "3s", "Jk"]
    h.sort.value = "rank"
    assert [c.rank for c in h.shown_cards()] == [2, 3, 7, 8, 9, 13, 0]
    h.sort.value = "melds"
    # 7h 8h 9h, plus the wild 3s and the joker: penalty 2 (the 2d) at best
    assert h.arrangement is not None and h.arrangement.penalty == 2
    assert "(2 points)" in h.summary.value
    groups = [c for c in h.row.children if "rummy-meld-group" in c._dom_classes]
    dead = [c for c in h.row.children if "rummy-deadwood-group" in c._dom_classes]
    assert groups and len(dead) == 1
    # each wild in a meld is tagged with what it stands for
    labelled = [v for v in h.views[:len(hand)] if ">=" in v.picture.value]
    assert len(labelled) == 2


def test_hand_view_keeps_selection_across_updates() -> None:
    h = HandView(cards("7h 8h 9h"))
    h.select(Card.parse("8h"))
    h.update(cards("8h 9h Kc"))
    assert h.selected == Card.parse("8h")
    h.update(cards("9h Kc"))
    assert h.selected is None


def test_meld_checker_yes_no_and_why() -> None:
    m = MeldChecker("three_thirteen", round=1)
    for c in cards("Qh Kh"):
        next(b for b in m.picks if f"rummy-pick-{c}" in b._dom_classes).click()
    assert m.input.value == "Qh Kh"
    assert m.result.value.startswith("<b>No") and "at least 3 cards" in m.result.value
    next(b for b in m.picks if "rummy-pick-Jk" in b._dom_classes).click()
    # three_thirteen is played without jokers: Jk is refused (the variant's shoe)
    assert m.result.value.startswith("<b>No") and "without jokers" in m.result.value
    m.input.value = "Qh Kh 3s"  # round 1: threes are wild (TT-2)
    assert m.result.value.startswith("<b>Yes")
    assert "run" in m.result.value and "=Jh" in m.result.value  # M-5: the wild 3s is Jh
    assert "<svg" in m.picture.value
    # the variant's rules decide: tre_tretton wants a natural card (TR-2)
    m.input.value = "3c 3d 3s"
    assert m.result.value.startswith("<b>Yes")
    m.variant.value = "tre_tretton"
    assert m.result.value.startswith("<b>No")
    m.clear.click()
    assert m.input.value == "" and m.result.value == ""


@pytest.mark.parametrize("text", ["1x", "7h 1x", "Zz 8h", "10"])
def test_meld_checker_bad_input_is_a_message(text: str) -> None:
    m = MeldChecker()
    m.input.value = text
    m.check.click()
    assert "rummy-error" in m.message.value and "is not a card" in m.message.value
    assert m.result.value == ""
    assert "Traceback" not in m.message.value


def test_odds_explorer_matches_probability_module() -> None:
    o = OddsExplorer("three_thirteen", round=2, hand="7h 8h Kc 2d", draws=3)
    ref = probability.outs("7h 8h Kc 2d", "three_thirteen", round=2, packs=o.packs.value)
    assert str(ref.p_within(3)) in o.fraction.value
    assert "<svg" in o.plot.value
    o.draws.value = 1
    # one draw: outs / unseen, exactly
    assert str(Fraction(ref.count, ref.unseen)) in o.fraction.value
    o.hand.value = "1x"
    assert "rummy-error" in o.message.value
    o.hand.value = "7h 8h Kc 2d"
    assert o.message.value == ""
    o.variant.value = "three_thirteen_jokers"
    assert not o.jokers.disabled
    o.variant.value = "gin_three"
    assert o.round.disabled and o.jokers.disabled


def test_odds_explorer_dealt_chance_exact() -> None:
    o = OddsExplorer("three_thirteen", round=1, hand="7h 8h 9h")
    o.packs.value = 1
    o.dealt_button.click()
    # Round 1 deals 3 cards from 52; threes (4 cards) are wild.  Complete
    # hands, counted by hand: 3 wilds C(4,3) = 4; 2 wilds + any natural
    # 6 * 48 = 288; 1 wild + a pair that a wild completes: same rank 12 * 6 = 72,
    # same suit one or two ranks apart without a 3 (A2, 45..QK; 24, 46..JK)
    # 19 * 4 = 76, so 148 * 4 = 592; no wild: sets 12 * 4 = 48, runs 456..JQK
    # 8 * 4 = 32.  964 of C(52,3) = 22100 hands: 241/5525.
    assert "241/5525" in o.dealt.value


@pytest.mark.parametrize("variant,first", [
    ("three_thirteen", "TT-1"), ("tre_tretton", "TT-1"), ("big_table", "BT-1"),
    ("gin_three", "G-2"),
])
def test_rules_stepper_cites_rules_and_walks(variant: str, first: str) -> None:
    s = RulesStepper(variant, seed=2)
    assert first in s.rule.value
    assert s.prev.disabled
    n = len(s.steps)
    assert n >= 2
    for _ in range(n + 3):
        s.next.click()
    assert s.index == n - 1 and s.next.disabled
    cited = {r for step in s.steps for r in step["rules"]}
    assert cited
    s.prev.click()
    assert s.index == n - 2


def test_rules_stepper_three_thirteen_round_reaches_scoring() -> None:
    s = RulesStepper("three_thirteen", seed=3)
    cited = [r for step in s.steps for r in step["rules"]]
    assert "TT-5" in cited and "TT-8" in cited
    # each cited rule is said in its sentence of the rules catalogue (which the
    # static site and an installed copy have: docs/RULES.md they don't)
    s.go(next(i for i, step in enumerate(s.steps) if "TT-5" in step["rules"]))
    assert "a turn is: draw from the stock or the discard pile, then discard" in s.rule.value
    assert any("TT-6" in step["rules"] for step in s.steps)


def test_score_sheet_shows_engine_frame() -> None:
    from rummy import new_game

    g = new_game("three_thirteen", players=["Ana", "Ben"], seed=1)
    s = ScoreSheet(g)
    assert s.frame.equals(g.score_sheet())
    assert "Ana" in s.table.value and "Total" in s.table.value
    s.update(None)
    assert "No game" in s.table.value


def test_seen_cards_and_chances_from_an_observation() -> None:
    from rummy import new_game

    g = new_game("three_thirteen", players=2, seed=4)
    obs = g.observe(g.current_player)
    assert seen_cards(obs) == [obs.discard_top]
    rows = meld_chances(obs)
    ref = probability.outs(obs.hand, "three_thirteen", round=1, players=2,
                           seen=(obs.discard_top,))
    assert len(rows) == len(ref.by_meld)
