"""The positions the tests set up by hand (``tests/positions.py``) keep every
card of the pack in exactly one place."""

from __future__ import annotations

from rummy.cards import Card
from tests.positions import position, where


def test_position_keeps_every_card_in_one_place():
    g = position("Ah 2h 3h", "Kc Kd", discard="5s", stock_top="9c 9d")
    places = where(g)
    assert places[Card.parse("Ah")] == "hand0" and places[Card.parse("Kd")] == "hand1"
    assert g.stock.draw() == Card.parse("9c") and g.discards[-1] == Card.parse("5s")
