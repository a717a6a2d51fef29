"""The game's words, a tap away at the table: a "Words" button in the table's
head (always in view, not in the drawer) opens a short glossary in plain words
for the game being played."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.table_play import walk
from widgets import BigTableTable, GinTable, ThreeThirteenTable

ENGINE_TERMS = re.compile(r"\b(?:deadwood|unmelded|knocker|defender|shoe|outs)\b|[A-Z]{1,2}-\d")

TABLES = {
    "three_thirteen": (lambda: ThreeThirteenTable(players=2, seed=1, speed=0),
                       {"Meld", "Set", "Run", "Wild card", "Left over", "Go out", "Stock"}),
    "big_table": (lambda: BigTableTable(players=3, seed=1, speed=0),
                  {"Meld", "Set", "Run", "Wild card", "Left over", "Pool", "Call match"}),
    "gin": (lambda: GinTable(seed=1, speed=0),
            {"Meld", "Set", "Run", "Left over", "Knock", "Gin", "Lay off", "Box", "Captain",
             "Advisor", "Upcard"}),
}


@pytest.mark.parametrize("family", sorted(TABLES))
def test_the_glossary_is_a_tap_away_at_the_table(family: str) -> None:
    make, want = TABLES[family]
    t: Any = make()
    button = t.glossary_button
    assert button in walk(t.widget.children[1])  # the head, above the table
    assert button.description and button.tooltip
    assert t.glossary.layout.display == "none"
    button.value = True  # a tap
    assert t.glossary.layout.display != "none"
    words = set(re.findall(r"<dt>([^<]+)</dt>", t.glossary.value))
    assert want <= words, want - words
    text = re.sub(r"<[^>]+>", " ", t.glossary.value)
    assert not ENGINE_TERMS.search(text.replace("(some players call them deadwood)", "")), text
    button.value = False
    assert t.glossary.layout.display == "none"


def test_the_glossary_names_no_card() -> None:
    """Its examples are in words ("three sevens"), never a card, so no check that
    the page names no hidden card can mistake it for one."""
    from rummy.cards import Card
    from widgets.glossary import glossary_html

    cards = [Card.parse(r + s) for r in "A23456789TJQK" for s in "cdhs"]
    for family in TABLES:
        page = glossary_html(family)
        for c in cards:
            assert c.name not in page and c.symbol not in page, (family, c)
            if str(c) != "As":
                assert not re.search(rf"(?<![A-Za-z0-9]){re.escape(str(c))}(?![A-Za-z])",
                                     page), (family, c)
