"""rummy.render: SVG that parses, escapes text and names every card."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy import render
from rummy.cards import JOKER, Card, cards, deck
from rummy.melds import Meld, MeldRules
from rummy.search import best_arrangement

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def titles(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(NS + "title")]


def card_groups(root: ET.Element) -> list[ET.Element]:
    """<g> elements that draw a card: those whose first child is a <title>
    naming a card (or a face-down card)."""
    names = {c.name for c in deck(1, 1)}
    out = []
    for g in root.iter(NS + "g"):
        first = list(g)[:1]
        if first and first[0].tag == NS + "title":
            text = first[0].text or ""
            if text == "face-down card" or text.split(" (")[0].split(",")[0] in names:
                out.append(g)
    return out


@pytest.mark.parametrize("card", deck(1, 1), ids=str)
def test_every_card_is_valid_svg_with_its_name_as_title(card: Card) -> None:
    root = parse(render.card_svg(card))
    assert titles(root)[0] == card.name
    assert card.name in titles(root)


@pytest.mark.parametrize("size", ["small", "normal", "large"])
def test_sizes_grow(size: str) -> None:
    root = parse(render.card_svg(Card.parse("Qs"), size=size))
    assert float(root.get("width")) == render.SIZES[size].width


def test_sizes_order_and_smallest_is_readable() -> None:
    s, n, large = (render.SIZES[k] for k in ("small", "normal", "large"))
    assert s.width < n.width < large.width
    # corner index at least 14 px even on the smallest card (phone width)
    assert s.corner >= 14


def test_unknown_size_says_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="small, normal, large"):
        render.card_svg(Card.parse("2c"), size="tiny")


def test_joker_has_title_and_no_suit_symbol() -> None:
    svg = render.card_svg(JOKER)
    root = parse(svg)
    assert titles(root)[0] == "joker"
    assert not any(sym in svg for sym in "♣♦♥♠")


def test_face_down_hides_the_card() -> None:
    c = Card.parse("Qh")
    svg = render.card_svg(c, face_down=True)
    root = parse(svg)
    assert titles(root) == ["face-down card", "face-down card"]
    assert "queen" not in svg and "Q" not in svg.replace("QUOTE", "")


def test_four_colour_clubs_green_diamonds_blue() -> None:
    two = {s: render.card_svg(Card(5, s)) for s in "cdhs"}
    four = {s: render.card_svg(Card(5, s), four_colour=True) for s in "cdhs"}
    assert "#1d6b2f" in four["c"] and "#1d6b2f" not in two["c"]  # green clubs
    assert "#1f4fb8" in four["d"] and "#1f4fb8" not in two["d"]  # blue diamonds
    assert four["h"] == two["h"] and four["s"] == two["s"]
    # four colours are four different inks
    inks = {render.suit_colour(s, four_colour=True) for s in "cdhs"}
    assert len(inks) == 4
    assert len({render.suit_colour(s) for s in "cdhs"}) == 2


def test_label_is_escaped_and_parses() -> None:
    evil = "<script>alert('x')</script> & \"q\""
    svg = render.card_svg(Card.parse("9h"), label=evil)
    assert "<script>" not in svg
    root = parse(svg)
    # the escaped text comes back intact through an XML parser
    texts = [t.text for t in root.iter(NS + "text")]
    assert evil in texts
    assert any(evil in t for t in titles(root))


def test_hand_title_escaped() -> None:
    svg = render.hand_svg(cards("7h"), title="<b>me</b> & you")
    root = parse(svg)
    assert titles(root)[0] == "<b>me</b> & you"
    assert "<b>" not in svg


def test_selected_and_wild_marks() -> None:
    plain = render.card_svg(Card.parse("3c"))
    assert "#1565c0" in render.card_svg(Card.parse("3c"), selected=True)
    assert "#1565c0" not in plain
    wild = render.card_svg(Card.parse("3c"), wild=True)
    assert "★" in wild and "★" not in plain
    assert titles(parse(wild))[0] == "three of clubs (wild)"


def test_hand_every_card_has_a_title_in_order() -> None:
    hand = cards("7h 8h 9h Kc Jk 3d")
    root = parse(render.hand_svg(hand, selected={0}, wild=MeldRules(wild_rank=3)))
    groups = card_groups(root)
    assert [g[0].text for g in groups] == [
        "seven of hearts", "eight of hearts", "nine of hearts", "king of clubs",
        "joker (wild)", "three of diamonds (wild)",
    ]


def test_meld_marks_what_each_wild_stands_for() -> None:
    # 8h, joker, Th: the joker must be the 9h (M-5)
    m = Meld.of(cards("8h Jk Th"))
    svg = render.meld_svg(m)
    root = parse(svg)
    texts = [t.text for t in root.iter(NS + "text")]
    assert "=9♥" in texts
    assert "joker as nine of hearts" in titles(root)[0]
    assert len(card_groups(root)) == 3


def test_set_with_wild_rank_card() -> None:
    rules = MeldRules(wild_rank=4)
    m = Meld.of(cards("Kc Kd 4s"), rules)
    root = parse(render.meld_svg(m, size="small", four_colour=True))
    texts = [t.text for t in root.iter(NS + "text")]
    # the wild 4s stands for a king of the missing suits (hearts first)
    assert "=K♥" in texts


def test_arrangement_groups_melds_and_deadwood() -> None:
    # 7h 8h 9h is a run; Kc (10) and 2d (2) are deadwood: penalty 12 (C-2)
    arr = best_arrangement(cards("7h 8h 9h Kc 2d"))
    svg = render.arrangement_svg(arr)
    root = parse(svg)
    melds = [g for g in root.iter(NS + "g") if g.get("class") == "rummy-meld"]
    dead = [g for g in root.iter(NS + "g") if g.get("class") == "rummy-deadwood"]
    assert len(melds) == 1 and len(dead) == 1
    assert [g[0].text for g in card_groups(dead[0])] == ["king of clubs", "two of diamonds"]
    assert "penalty 12" in [t.text for t in root.iter(NS + "text")]
    assert titles(root)[0].endswith("penalty 12")


def test_arrangement_complete_and_wrapping() -> None:
    arr = best_arrangement(cards("7h 8h 9h 2c 2d 2s 5s 6s 7s"))
    one_row = parse(render.arrangement_svg(arr))
    wrapped = parse(render.arrangement_svg(arr, max_width=300))
    assert float(wrapped.get("height")) > float(one_row.get("height"))
    assert float(wrapped.get("width")) < float(one_row.get("width"))
    assert "every card melded" in "".join(t.text or "" for t in one_row.iter(NS + "text"))


def test_back_svg_counts_and_hides() -> None:
    root = parse(render.back_svg(12, label="Ben's hand"))
    assert titles(root)[0] == "Ben's hand: 12 face-down cards"
    assert "12" in [t.text for t in root.iter(NS + "text")]
    assert titles(parse(render.back_svg(1)))[0] == "1 face-down card"
    parse(render.back_svg(0))
    with pytest.raises(ValueError, match="0 or more"):
        render.back_svg(-1)


def test_table_svg_only_counts_for_others() -> None:
    svg = render.table_svg([("Ben <3", 3), ("Cleo", 4)], stock=30,
                           discard=Card.parse("Qd"), hand=cards("7h 8h 9h"), current=1)
    root = parse(svg)
    assert "Ben <3: 3 face-down cards" in titles(root)
    assert "queen of diamonds" in titles(root)
    assert "stock 30" in [t.text for t in root.iter(NS + "text")]


def test_repr_svg_hooks_use_render() -> None:
    c = Card.parse("Th")
    assert c._repr_svg_() == render.card_svg(c)
    m = Meld.of(cards("7h 8h 9h"))
    assert m._repr_svg_() == render.meld_svg(m)
    a = best_arrangement(cards("7h 8h 9h Kc"))
    assert a._repr_svg_() == render.arrangement_svg(a)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(deck(2, 2)), min_size=0, max_size=13),
       st.sampled_from(["small", "normal", "large"]), st.booleans(),
       st.integers(min_value=0, max_value=13))
def test_any_hand_and_arrangement_parse_with_one_title_per_card(
    hand: list[Card], size: str, four: bool, wild_rank: int
) -> None:
    rules = MeldRules(wild_rank=wild_rank or None)
    root = parse(render.hand_svg(hand, size=size, four_colour=four, wild=rules))
    assert len(card_groups(root)) == len(hand)
    arr = best_arrangement(hand, rules)
    root = parse(render.arrangement_svg(arr, size=size, four_colour=four, wild=rules))
    groups = card_groups(root)
    assert len(groups) == len(hand)
    assert sorted(g[0].text.split(" (")[0].split(",")[0] for g in groups) == sorted(
        c.name for c in hand)
