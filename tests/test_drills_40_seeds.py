"""Every rule's drill over 40 seeds, checked mechanically: the answer varies
with the position, no card is shown more often than the variant's shoe holds,
the first hint does not give the answer, the explanation cites the drill's own
rule, the question's wording has no slips, and what the feedback claims about
a card is confirmed by the engine."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import Any

import pytest

from rummy import practice
from rummy.cards import JOKER
from rummy.game import new_game
from rummy.rulebook import rules_in
from rummy.search import best_arrangement
from rummy.teach import AnyOf, show_answer

RULES = list(practice.generators())
SEEDS = range(40)


@cache
def drills_of(rule: str) -> list[Any]:
    return [practice.drill(rule, s) for s in SEEDS]


def forms(answer: Any) -> list[str]:
    if isinstance(answer, AnyOf):
        return [f for a in answer.answers for f in forms(a)]
    return [show_answer(answer), str(answer)]


@cache
def shoe(variant: str) -> tuple[int, int]:
    """The most packs and jokers a game of ``variant`` can use (from the engine)."""
    packs, jokers = 1, 0
    for players in range(2, 13):
        try:
            g = new_game(variant, players=players, seed=0)
        except Exception:  # noqa: BLE001 - a variant for fewer players
            continue
        packs = max(packs, getattr(g, "packs", 1))
        jokers = max(jokers, getattr(g, "jokers", 0) or 0)
    if variant == "three_thirteen_jokers":
        jokers = max(jokers, 4)  # the option jokers goes up to 4
    return packs, jokers


@pytest.mark.parametrize("rule", RULES)
def test_the_answer_varies_with_the_position(rule: str) -> None:
    answers = Counter(" or ".join(sorted(forms(d.expected()))) for d in drills_of(rule))
    assert len(answers) >= 2, f"{rule}: always {answers}"
    most, count = answers.most_common(1)[0]
    assert count <= 34, f"{rule}: {most!r} in {count} of 40 positions"


@pytest.mark.parametrize("rule", RULES)
def test_no_card_more_often_than_the_shoe_holds(rule: str) -> None:
    for d in drills_of(rule):
        packs, jokers = shoe(d.variant)
        if d.game is not None:
            packs, jokers = getattr(d.game, "packs", 1), getattr(d.game, "jokers", 0) or 0
        shown = Counter(c for row in d.rows for c in row.cards)
        for card, k in shown.items():
            assert k <= (jokers if card == JOKER else packs), (rule, d.seed, str(card), k)


def _in(answer: str, text: str) -> bool:
    return re.search(rf"(?<![\w♣♦♥♠]){re.escape(answer)}(?![\w♣♦♥♠])", text, re.IGNORECASE) is not None


@pytest.mark.parametrize("rule", RULES)
def test_the_first_hint_points_where_to_look_and_never_gives_the_answer(rule: str) -> None:
    for d in drills_of(rule):
        first = d.hints()[0]
        if d.answer_kind == "yes/no":
            continue  # a hint that asks a question can't help saying yes or no
        for a in forms(d.expected()):
            assert not _in(a, first), (rule, d.seed, a, first)


@pytest.mark.parametrize("rule", RULES)
def test_the_explanation_cites_its_own_rule_first(rule: str) -> None:
    for d in drills_of(rule)[:10]:
        f = d.check(d.an_answer())
        assert f.right, (rule, d.seed, f.text)
        assert rules_in(f.text)[:1] == [rule], (rule, d.seed, f.text)


SLIPS = [r"\byou (deals|plays|draws|sits|has|goes|matches|is)\b", r"\byou's\b", r"\bYou's\b",
         r"\ball 2 players\b", r"\bnot your\b(?! \w)", r"\b1 answer wait", r"\b2\.10\b",
         r"\bYou (has|sits|deals)\b"]


@pytest.mark.parametrize("rule", RULES)
def test_the_wording_has_no_slips(rule: str) -> None:
    for d in drills_of(rule):
        texts = [d.question, *d.facts, *d.hints(), *(r.label for r in d.rows),
                 d.check(d.an_answer()).text]
        for t in texts:
            for slip in SLIPS:
                assert not re.search(slip, t), (rule, d.seed, slip, t)


def _completes_a_meld(hand: Any, top: Any, rules: Any) -> bool:
    """The engine's word: with ``top`` some meld of the best arrangement holds it."""
    arr = best_arrangement([*hand, top], rules)
    return any(top in m for m in arr.melds)


@pytest.mark.parametrize("rule", ["TT-5", "G-4", "BT-3"])
def test_every_claim_that_a_card_completes_a_meld_is_true(rule: str) -> None:
    for d in drills_of(rule):
        rows = {r.label: r.cards for r in d.rows}
        hand = rows.get("Your hand")
        tops = [c for label, cs in rows.items() if label != "Your hand" for c in cs]
        for choice in d.choices:
            text = d.check(choice).text
            for top in tops:
                if f"{top.symbol} completes a meld" in text:
                    rules = d.game.rules if hasattr(d.game, "rules") else None
                    assert rules is not None and _completes_a_meld(hand, top, rules), (rule, d.seed, text)


@pytest.mark.parametrize("rule", RULES)
def test_play_drills_say_what_counts_and_take_every_choice_within_the_margin(rule: str) -> None:
    for d in drills_of(rule)[:10]:
        assert d.judges in ("rule", "play")
        if d.judges != "play":
            continue
        assert d.values is not None and "within" in d.question, (rule, d.question)
        vals = d.values()
        best = min(v for v, _w in vals.values())
        for choice, (v, _w) in vals.items():
            f = d.check(choice)
            assert f.judged == "play" and f.right is (v - best <= d.margin + 1e-9), (rule, choice, f)
        for choice in d.illegal:
            f = d.check(choice)
            assert not f.right and f.judged == "rule", (rule, choice, f)


_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def in_words(n: int) -> str:
    """A whole number below a thousand in English words, written here by hand."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    rest = n % 100
    return _ONES[n // 100] + " hundred" + (" and " + in_words(rest) if rest else "")


_RANKS = ["", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king"]
_SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def three_spellings(d: Any, answer: Any) -> tuple[list[str], str | None]:
    """Three ways a learner writes ``answer``, and the answer wrong by a unit
    (a number only)."""
    from rummy.cards import Card
    from rummy.teach import unit_of

    if isinstance(answer, bool):
        return (["yes", "Yes.", "yup"] if answer else ["no", "No, it is not", "nope"]), None
    if isinstance(answer, int) or (isinstance(answer, str) and answer.isdigit()):
        n = int(answer)
        unit = unit_of(d.question) or "points"
        other = "packs" if unit in ("points", "cards", "players") else "points"
        word = {"chance": "percent"}.get(unit, unit)
        return [str(n), in_words(n), f"{n} {word}"], f"{n} {other}"
    if d.answer_kind == "card":
        c = Card.parse(str(answer))
        return [str(c), c.symbol, f"{_RANKS[c.rank]} of {_SUITS[c.suit]}"], None
    if d.answer_kind == "cards":
        cs = [Card.parse(x) for x in str(answer).split()]
        return ([" ".join(map(str, cs)), " ".join(x.symbol for x in reversed(cs)),
                 ", ".join("a joker" if x == JOKER else f"{_RANKS[x.rank]} of {_SUITS[x.suit]}"
                           for x in cs)], None)
    text = str(answer)
    return [text, text.upper(), f"the {text}."], None


@pytest.mark.parametrize("rule", RULES)
def test_every_drill_in_three_spellings_and_once_wrong_by_a_unit(rule: str) -> None:
    for d in drills_of(rule)[:4]:
        want = d.expected()
        first = want.answers[0] if isinstance(want, AnyOf) else want
        rights, wrong = three_spellings(d, first)
        for r in rights:
            f = d.check(r)
            assert f.right, (rule, d.seed, r, f.text)
        if wrong is not None:
            f = d.check(wrong)
            assert not f.right and f.counted, (rule, d.seed, wrong, f.text)
