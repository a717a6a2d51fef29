"""Cards, their one notation, decks and seeded shuffles (RULES.md C-1)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rummy import JOKER, Card, CardError, cards, deck, shuffled
from rummy.cards import RANKS, SUITS


def test_C_1_ranks_suits_and_identical_cards_from_several_packs() -> None:
    one = deck(1)
    assert len(one) == 52 and len(set(one)) == 52
    assert {c.rank for c in one} == set(range(1, 14))
    assert {c.suit for c in one} == set("cdhs")
    two = deck(2)
    # two packs: every card twice, and the two copies are equal values
    assert len(two) == 104 and len(set(two)) == 52
    assert two.count(Card.parse("7h")) == 2
    assert deck(2, jokers=4).count(JOKER) == 4


def test_every_card_round_trips_through_text_and_repr() -> None:
    for c in deck(1, jokers=1):
        assert Card.parse(str(c)) == c
        assert eval(repr(c), {"Card": Card}) == c  # repr evaluates back
    assert str(Card.parse("10h")) == "Th"
    assert Card.parse("10♥") == Card.parse("Th") == Card.parse("tH")
    assert Card.parse("🃏") == JOKER == Card.parse("Jk")
    assert repr(Card.parse("Th")) == "Card.parse('Th')"


def test_cards_reads_a_hand() -> None:
    assert cards("7h 8h 9h") == (Card(7, "h"), Card(8, "h"), Card(9, "h"))
    assert cards("7h,8h") == cards(["7h", "8h"]) == cards([Card(7, "h"), "8h"])
    assert cards("") == ()


@pytest.mark.parametrize("bad", ["1x", "Zz", "", "T", "11h", "Thh", "7z", "Jx", "0s"])
def test_bad_card_text_names_the_token_and_the_valid_forms(bad: str) -> None:
    with pytest.raises(CardError) as e:
        Card.parse(bad)
    msg = str(e.value)
    assert repr(bad) in msg
    assert "A 2-9 T or 10 J Q K" in msg and "c d h s" in msg
    assert isinstance(e.value, ValueError)


def test_bad_token_in_a_hand_is_named() -> None:
    with pytest.raises(CardError, match="'1x'"):
        cards("7h 1x 9h")
    with pytest.raises(CardError):
        Card.parse(None)  # type: ignore[arg-type]


def test_card_fields_are_checked() -> None:
    with pytest.raises(CardError):
        Card(14, "h")
    with pytest.raises(CardError):
        Card(5, "x")
    with pytest.raises(CardError):
        Card(0, "h")


def test_cards_are_frozen_values() -> None:
    c = Card.parse("Th")
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    assert hash(c) == hash(Card(10, "h"))
    assert sorted(cards("Kc 2h Jk As 3c")) == list(cards("3c Kc 2h As Jk"))


def test_names_for_screen_readers() -> None:
    assert Card.parse("Th").name == "ten of hearts"
    assert JOKER.name == "joker"
    assert Card.parse("Qs").symbol == "Q♠"


@pytest.mark.parametrize("packs,jokers", [(0, 0), (9, 0), (1, -1), (1, 9), ("2", 0)])
def test_deck_limits(packs: object, jokers: object) -> None:
    with pytest.raises(ValueError, match="whole number"):
        deck(packs, jokers)  # type: ignore[arg-type]


def test_seeded_shuffles_are_reproducible_across_runs() -> None:
    here = [str(c) for c in shuffled(deck(2, 4), seed=2024)]
    assert here == [str(c) for c in shuffled(deck(2, 4), seed=2024)]
    assert here != [str(c) for c in shuffled(deck(2, 4), seed=2025)]
    code = ("from rummy import deck, shuffled;"
            "print(' '.join(str(c) for c in shuffled(deck(2, 4), seed=2024)))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={"PYTHONHASHSEED": "123", "PATH": ""})
    assert other.stdout.split() == here


def test_notation_tables() -> None:
    assert RANKS[1:] == "A23456789TJQK" and SUITS == "cdhs"
