"""Answers checked by meaning: the lessons' quizzes (no Jupyter import).

A learner may write a card as ``8h``, ``8♥``, ``8 of hearts`` or ``eight of
hearts``, a probability as ``1/425``, ``52/22100``, ``0.00235`` or
``0.235%``, a yes as ``Yes`` or ``y``, and a named choice in any case.
:func:`same_answer` says whether two answers mean the same;
:class:`Question` adds hints that depend on the wrong answer given.

>>> same_answer("8h", "eight of hearts"), same_answer("1/425", "52/22100")
(True, True)
>>> q = Question("Which card do you throw?", "Kd", hints={"Qs": "The queen is in your set."})
>>> q.check("K♦")
(True, 'Right: K♦.')
>>> q.check("queen of spades")
(False, 'Not yet. The queen is in your set.')
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from rummy.cards import JOKER, Card, CardError, parse_rank

__all__ = [
    "AnyOf",
    "Question",
    "TeachError",
    "as_card",
    "as_cards",
    "as_number",
    "as_yes_no",
    "kind_of",
    "same_answer",
    "show_answer",
]


class TeachError(ValueError):
    """An expected answer (written by a lesson's author) that can't be read."""


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Several answers that are all right (``AnyOf("Kd", "Qs")``).

    >>> same_answer(AnyOf("Kd", "Qs"), "queen of spades")
    True
    """

    answers: tuple[Any, ...]

    def __init__(self, *answers: Any) -> None:
        if not answers:
            raise TeachError("AnyOf needs at least one answer")
        object.__setattr__(self, "answers", tuple(answers))

    def __str__(self) -> str:
        return " or ".join(show_answer(a) for a in self.answers)


_SUIT_WORDS = {"club": "c", "clubs": "c", "diamond": "d", "diamonds": "d", "heart": "h",
               "hearts": "h", "spade": "s", "spades": "s", "♣": "c", "♦": "d", "♥": "h",
               "♠": "s", "♡": "h", "♢": "d", "♤": "s", "♧": "c", "c": "c", "d": "d", "h": "h",
               "s": "s"}
_YES = {"yes", "y", "true", "yes it is", "yes it can", "it is", "right", "correct"}
_NO = {"no", "n", "false", "no it is not", "no it can't", "no it cannot", "not", "wrong"}
_NUMBER_WORDS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"))}


def _clean(text: Any) -> str:
    """Lower case, no variation selectors, single spaces, no end punctuation."""
    t = unicodedata.normalize("NFKC", str(text)).replace("\ufe0f", "").replace("\u2212", "-")
    t = re.sub(r"\s+", " ", t.strip().lower())
    t = t.strip(" .!?;:\"'`")
    return re.sub(r"^(the|a|an) ", "", t)


def as_card(text: Any) -> Card | None:
    """The card ``text`` names, in any notation the kit reads or prints, or None.

    >>> [str(as_card(t)) for t in ("8h", "8♥", "8 of hearts", "eight of hearts", "the 10 of Spades", "joker")]
    ['8h', '8h', '8h', '8h', 'Ts', 'Jk']
    >>> as_card("box") is None
    True
    """
    if isinstance(text, Card):
        return text
    t = _clean(text)
    if not t:
        return None
    if t in ("jk", "joker", "🃏", "a joker"):
        return JOKER
    m = re.fullmatch(r"(\S+) of (\S+)", t)
    if m:
        suit = _SUIT_WORDS.get(m.group(2))
        try:
            rank = parse_rank(m.group(1))
        except CardError:
            return None
        return Card(rank, suit) if suit else None
    compact = t.replace(" ", "")
    try:
        return Card.parse(compact)
    except CardError:
        return None


def as_cards(text: Any) -> tuple[Card, ...] | None:
    """Several cards (separated by spaces, commas or "and"), or None.

    >>> as_cards("7h, 8h and nine of hearts")
    (Card.parse('7h'), Card.parse('8h'), Card.parse('9h'))
    """
    if isinstance(text, Card):
        return (text,)
    if not isinstance(text, str) and isinstance(text, Iterable):
        items = list(text)
        if items and all(isinstance(c, Card) for c in items):
            return tuple(items)
        text = " ".join(map(str, items))
    t = _clean(text)
    parts = [p for p in re.split(r"\s*(?:,|;|\band\b|&|\+)\s*", t) if p]
    out: list[Card] = []
    for part in parts:
        one = as_card(part)
        if one is not None:
            out.append(one)
            continue
        for token in part.split():
            card = as_card(token)
            if card is None:
                return None
            out.append(card)
    return tuple(out) if out else None


@dataclass(frozen=True, slots=True)
class _Number:
    value: Fraction
    #: half the last shown digit for a rounded decimal (0 when exact)
    tolerance: Fraction = field(default=Fraction(0))


_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}


def _number_words(text: str) -> int | None:
    """A whole number written in English words, up to 999 ("one hundred and
    eight", "twenty-one", "nothing"), or None.

    >>> _number_words("one hundred and eight"), _number_words("twenty-one"), _number_words("nothing")
    (108, 21, 0)
    """
    if text in ("nothing", "none", "no points"):
        return 0
    tokens = [w for w in re.split(r"[\s-]+", text) if w and w != "and"]
    if not tokens or not all(w in _NUMBER_WORDS or w in _TENS or w == "hundred" for w in tokens):
        return None
    total, part = 0, 0
    for w in tokens:
        if w == "hundred":
            if not 1 <= part <= 9:
                return None
            total, part = total + part * 100, 0
        elif w in _TENS:
            if part % 100:
                return None
            part += _TENS[w]
        else:
            if part % 100 and (part % 100 not in _TENS.values() or _NUMBER_WORDS[w] >= 10):
                return None
            part += _NUMBER_WORDS[w]
    return total + part


def _significant(digits: str) -> int:
    return len(digits.lstrip("0"))


def _as_number(text: Any) -> _Number | None:
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, Fraction)):
        return _Number(Fraction(text))
    if isinstance(text, float):
        return _Number(Fraction(text))
    words = _number_words(_clean(text))
    if words is not None:
        return _Number(Fraction(words))
    t = _clean(text).replace(",", "").replace(" ", "").replace("≈", "").removeprefix("about")
    m = re.fullmatch(r"(\d+)in(\d+)", t)
    if m and int(m.group(2)):
        return _Number(Fraction(int(m.group(1)), int(m.group(2))))
    m = re.fullmatch(r"([+-]?\d+)/(\d+)", t)
    if m:
        return _Number(Fraction(int(m.group(1)), int(m.group(2)))) if int(m.group(2)) else None
    percent = t.endswith("%")
    t = t.removesuffix("%")
    if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", t):
        return None
    try:
        d = Decimal(t)
    except InvalidOperation:  # pragma: no cover - the pattern above rules it out
        return None
    value = Fraction(d)
    exponent = d.as_tuple().exponent
    assert isinstance(exponent, int)
    decimals = -exponent if exponent < 0 else 0
    shown = t.lstrip("+-").replace(".", "")
    # a decimal with 2+ significant digits stands for itself rounded; "0.002" is too coarse
    tolerance = Fraction(1, 2 * 10 ** decimals) if decimals and _significant(shown) >= 2 else Fraction(0)
    if percent:
        value, tolerance = value / 100, tolerance / 100
    return _Number(value, tolerance)


def as_number(text: Any) -> Fraction | None:
    """The number ``text`` writes (an exact Fraction), or None.

    >>> as_number("52/22100"), as_number("0.235%"), as_number("1 in 4"), as_number("seven")
    (Fraction(1, 425), Fraction(47, 20000), Fraction(1, 4), Fraction(7, 1))
    """
    n = _as_number(text)
    return None if n is None else n.value


def as_yes_no(text: Any) -> bool | None:
    """True for yes, False for no (any case, a few spellings), else None.

    >>> as_yes_no("Yes"), as_yes_no("n"), as_yes_no(False), as_yes_no("maybe")
    (True, False, False, None)
    """
    if isinstance(text, bool):
        return text
    t = _clean(text)
    if t in _YES:
        return True
    if t in _NO:
        return False
    return None


def kind_of(expected: Any) -> str:
    """What kind of answer ``expected`` is: "choice", "yes/no", "number", "card",
    "cards" or "any of several".

    >>> [kind_of(x) for x in ("9d", "1/425", True, "box", "7h 8h 9h", 26)]
    ['card', 'number', 'yes/no', 'choice', 'cards', 'number']
    """
    if isinstance(expected, AnyOf):
        return "any of several"
    if isinstance(expected, bool) or (isinstance(expected, str) and as_yes_no(expected) is not None):
        return "yes/no"
    if isinstance(expected, Card):
        return "card"
    if isinstance(expected, (int, float, Fraction)):
        return "number"
    if isinstance(expected, str):
        if _as_number(expected) is not None:
            return "number"
        if as_card(expected) is not None:
            return "card"
        many = as_cards(expected)
        if many is not None and len(many) > 1:
            return "cards"
        if not _clean(expected):
            raise TeachError("an expected answer can't be empty")
        return "choice"
    if isinstance(expected, Iterable) and as_cards(expected) is not None:
        return "cards"
    raise TeachError(f"{expected!r} is not an answer a quiz can check: give a card, cards, "
                     "a number, True/False or a word")


def same_answer(expected: Any, given: Any) -> bool:
    """True if ``given`` means the same as ``expected``.

    ``expected`` is a card (``"8h"`` or a Card), several cards (order does not
    matter), a number (int, Fraction, or text such as ``"1/425"``), a yes/no
    (True/False or ``"yes"``/``"no"``), a named choice (any other text, such as
    ``"box"`` or ``"discard pile"``), or :class:`AnyOf` several of those.

    Numbers are equal as fractions (``52/22100`` is ``1/425``); a decimal given
    with at least two significant digits is right when the expected value rounds
    to it (``0.00235`` or ``0.235%`` for 1/425), a cruder one only when exact.

    >>> same_answer("8h", "8♥"), same_answer("8h", "8 of hearts"), same_answer("8h", "8d")
    (True, True, False)
    >>> same_answer("1/425", "0.00235"), same_answer("1/425", "0.0024"), same_answer("1/425", "0.002")
    (True, True, False)
    >>> same_answer(True, "YES"), same_answer("discard pile", "The Discard Pile."), same_answer("box", "captain")
    (True, True, False)
    >>> same_answer("7h 8h 9h", "9♥ 8♥ 7♥"), same_answer(26, "26"), same_answer(26, "twenty-six")
    (True, True, True)
    """
    if isinstance(expected, AnyOf):
        return any(same_answer(a, given) for a in expected.answers)
    kind = kind_of(expected)
    if kind == "yes/no":
        want = as_yes_no(expected)
        return want is not None and as_yes_no(given) is want
    if kind == "number":
        want_n = _as_number(expected)
        got = _as_number(given)
        if want_n is None or got is None:
            return False
        return abs(want_n.value - got.value) <= got.tolerance
    if kind == "card":
        return as_card(given) == as_card(expected)
    if kind == "cards":
        want_c, got_c = as_cards(expected), as_cards(given)
        return got_c is not None and want_c is not None and Counter(got_c) == Counter(want_c)
    return _clean(given) == _clean(expected)


def show_answer(expected: Any) -> str:
    """An answer as a learner reads it: cards with suit symbols, fractions as a/b.

    >>> show_answer("Kd"), show_answer("52/22100"), show_answer(True), show_answer("7h 8h 9h")
    ('K♦', '1/425', 'yes', '7♥ 8♥ 9♥')
    """
    if isinstance(expected, AnyOf):
        return str(expected)
    kind = kind_of(expected)
    if kind == "yes/no":
        return "yes" if as_yes_no(expected) else "no"
    if kind == "number":
        n = as_number(expected)
        assert n is not None
        return str(n) if not isinstance(expected, float) else str(expected)
    if kind == "card":
        card = as_card(expected)
        assert card is not None
        return card.symbol
    if kind == "cards":
        many = as_cards(expected)
        assert many is not None
        return " ".join(c.symbol for c in many)
    return str(expected).strip()


_HOW_TO_WRITE = {
    "card": "write a card, e.g. 8h, 8♥ or eight of hearts",
    "cards": "write the cards, e.g. 7h 8h 9h or seven of hearts, eight of hearts, nine of hearts",
    "number": "write a number or a fraction, e.g. 26, 1/425 or 0.0024",
    "yes/no": "answer yes or no",
}

Hints = Mapping[Any, str] | Iterable[tuple[Any, str]] | Callable[[str], "str | None"]


@dataclass(frozen=True)
class Question:
    """A quiz question: its text, the right answer, hints for wrong answers.

    ``hints`` maps a wrong answer (compared with :func:`same_answer`, so any
    spelling matches) to the hint it deserves, or is a function of the given
    text returning a hint or None; ``hint`` is said for any other wrong answer;
    ``why`` is the worked answer, shown once the learner is right.

    >>> q = Question("Chance of an out in 5 draws?", "37/156",
    ...              hints={"1/20": "That is the chance for one draw, not five."})
    >>> q.check("2/40")
    (False, 'Not yet. That is the chance for one draw, not five.')
    >>> q.check("banana")[1]
    "Not yet. I can't read 'banana' as a number: write a number or a fraction, e.g. 26, 1/425 or 0.0024."
    """

    text: str
    answer: Any
    hints: Hints = ()
    hint: str = ""
    why: str = ""
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        kind_of(self.answer)  # raises TeachError for an answer that can't be checked

    @property
    def kind(self) -> str:
        return kind_of(self.answer)

    def is_right(self, given: Any) -> bool:
        return same_answer(self.answer, given)

    def _hint_for(self, given: str) -> str | None:
        if callable(self.hints):
            return self.hints(given)
        pairs = self.hints.items() if isinstance(self.hints, Mapping) else self.hints
        for wrong, text in pairs:
            if same_answer(wrong, given):
                return text
        return None

    def check(self, given: Any) -> tuple[bool, str]:
        """(right?, the feedback a learner reads)."""
        text = str(given).strip()
        if not text:
            return False, "Write your answer first."
        if self.is_right(given):
            shown = show_answer(self.answer)
            return True, f"Right: {shown}." + (f" {self.why}" if self.why else "")
        specific = self._hint_for(text)
        if specific:
            return False, f"Not yet. {specific}"
        readable = self._readable(text)
        if readable is not None:
            return False, f"Not yet. {readable}"
        return False, "Not yet." + (f" Hint: {self.hint}" if self.hint else " Try again.")

    def _readable(self, text: str) -> str | None:
        """A message when ``text`` is not even the right kind of answer."""
        kinds = ([kind_of(a) for a in self.answer.answers] if isinstance(self.answer, AnyOf)
                 else [self.kind])
        readers: dict[str, Callable[[str], Any]] = {
            "card": as_card, "cards": as_cards, "number": _as_number, "yes/no": as_yes_no}
        if all(k in readers for k in kinds) and all(readers[k](text) is None for k in kinds):
            return f"I can't read {text!r} as {_article(kinds[0])}: {_HOW_TO_WRITE[kinds[0]]}."
        if self.choices and "choice" in kinds and _clean(text) not in {_clean(c) for c in self.choices}:
            return "Choose one of: " + ", ".join(self.choices) + "."
        return None


def _article(kind: str) -> str:
    return {"card": "a card", "cards": "cards", "number": "a number", "yes/no": "yes or no"}[kind]


# ---------------------------------------------------------------------------
# "What is my chance of going out within n draws?"
# ---------------------------------------------------------------------------

def _after_draw(hand: list[Card], rules: Any, limit: int) -> tuple[bool, list[Card]]:
    """(done?, the hand kept): with one card too many, can the best discard leave
    at most ``limit`` points, and if not, which cards does it keep."""
    from rummy.melds import all_melded, best_discard

    if limit == 0 and all_melded(hand, rules, discard=True):
        return True, hand
    choice = best_discard(hand, rules)
    if choice.penalty <= limit:
        return True, hand
    kept = list(hand)
    kept.remove(choice.card)
    return False, kept


def _unseen(shoe: Any, hand: Sequence[Card], seen: Sequence[Card]) -> list[Card]:
    from rummy.cards import deck

    left = Counter(deck(packs=shoe.packs, jokers=shoe.jokers))
    for card in (*hand, *seen):
        if left[card] <= 0:
            raise TeachError(f"{card} is given more often than the shoe of {shoe.packs} pack(s)"
                             + (f" and {shoe.jokers} jokers" if shoe.jokers else "") + " holds")
        left[card] -= 1
    return sorted(left.elements())


def going_out_chance(hand: Any, variant: str = "three_thirteen", round: int | None = None, *,
                     draws: int = 3, seen: Any = (), players: int | None = None,
                     limit: int = 0, method: str = "auto", samples: int = 4000, seed: int = 0,
                     exact_limit: int = 30_000, **options: Any) -> Any:
    """The chance that ``hand`` can go out within ``draws`` draws from the stock.

    The model, said plainly: you draw the top card of the stock each turn
    (the stock is a random order of the cards you haven't seen; cards the
    others take are unseen cards too, so this changes nothing); after each
    draw, if every card but one can be melded you go out (TT-6; a Big Table
    match, BT-4), otherwise you throw the best discard (the solver's). With
    ``limit`` > 0 "going out" means leaving at most ``limit`` points, e.g.
    a Gin knock (``limit=10``, G-6).  A hand with one card too many (you
    have drawn already) first throws its best discard.

    ``method``: ``"exact"`` (every order of draws, as a Fraction), ``"monte
    carlo"`` (``samples`` random stocks with ``seed``, a 95% interval), or
    ``"auto"``: exact when at most ``exact_limit`` draw sequences (counting
    identical cards once), else Monte Carlo.  Returns the kit's ``Odds``.

    >>> o = going_out_chance("7h 8h Kc", "three_thirteen", round=1, players=2, draws=1)
    >>> o.probability  # 6h, 9h and the four threes: 6 of 49 unseen cards
    Fraction(6, 49)
    >>> going_out_chance("7h 8h Kc", round=1, players=2, draws=1, method="monte carlo",
    ...                  samples=2000).contains(Fraction(6, 49))
    True
    """
    import random

    from rummy.cards import as_cards as _cards
    from rummy.probability import OddsError
    from rummy.probability.dealt import Odds, shoe_for
    from rummy.variants import find_variant

    v = find_variant(variant)
    if not isinstance(draws, int) or draws < 1:
        raise OddsError(f"draws must be a whole number of at least 1, not {draws!r}")
    if method not in ("auto", "exact", "monte carlo"):
        raise OddsError(f"method must be 'auto', 'exact' or 'monte carlo', not {method!r}")
    number = (round or 1) if v.rounds else 1
    shoe = shoe_for(v, number, players=players, **options)
    rules = shoe.rules
    cards_ = list(_cards(hand))
    seen_ = list(_cards(seen)) if seen else []
    unseen = _unseen(shoe, cards_, seen_)
    size = v.hand_size(number)
    if len(cards_) == size + 1:
        done, cards_ = _after_draw(cards_, rules, limit)
        if done:
            return Odds.exact(Fraction(1))
    elif len(cards_) != size:
        raise OddsError(f"a hand of this deal has {size} cards ({size + 1} after drawing), "
                        f"not {len(cards_)}")
    draws = min(draws, len(unseen))
    distinct = len(set(unseen))
    if method == "exact" or (method == "auto" and distinct ** draws <= exact_limit):
        return Odds.exact(_exact_out(cards_, Counter(unseen), draws, rules, limit, {}))
    rng = random.Random(seed)
    hits = 0
    for _ in range(samples):
        held = list(cards_)
        for card in rng.sample(unseen, draws):
            done, held = _after_draw(held + [card], rules, limit)
            if done:
                hits += 1
                break
    return Odds.estimate(hits, samples)


def _exact_out(hand: list[Card], left: Counter[Card], draws: int, rules: Any, limit: int,
               memo: dict[Any, Fraction]) -> Fraction:
    key = (tuple(sorted(hand, key=lambda c: c.index)), tuple(sorted(left.items(),
                                                                    key=lambda kv: kv[0].index)),
           draws)
    if key in memo:
        return memo[key]
    total = sum(left.values())
    p = Fraction(0)
    for card, count in left.items():
        if count <= 0:
            continue
        done, kept = _after_draw(hand + [card], rules, limit)
        if done:
            p += Fraction(count, total)
        elif draws > 1:
            left[card] -= 1
            p += Fraction(count, total) * _exact_out(kept, left, draws - 1, rules, limit, memo)
            left[card] += 1
    memo[key] = p
    return p
