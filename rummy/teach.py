"""Answers checked by meaning: every quiz, exercise and drill of the kit (no Jupyter import).

One checker for every question.  :func:`same_answer` says whether an answer a
learner typed means the same as the expected one; :func:`check` (and
:class:`Question`, which it builds) adds the feedback: a targeted hint for a
likely wrong answer, else the question's general hint (naming the rule id).

The rules, by the kind of the expected answer:

* **number** (``26``, ``"1/425"``, a :class:`~fractions.Fraction`): the given
  answer may carry a unit (``"10 points"``, ``"9 cards"``, ``"2 packs"``), be
  written in words (``"nineteen"``, ``"one hundred and eight"``, ``"nothing"``
  for 0), as a fraction (``"52/22100"`` is ``1/425``), ``"1 in 425"``, a
  decimal or a percentage.  A decimal or percentage with at least ``digits``
  significant digits (2 unless the question states more) is right when the
  exact value rounds to it (``"0.00235"``, ``"0.235%"``); a cruder one only
  when it is exact.
* **card** (``"8h"``): ``8h``, ``8♥``, ``8 of hearts``, ``eight of hearts``,
  ``8 hearts``, ``K clubs``.
* **cards** (``"5s 6s"``, a run or a set; order does not matter): cards in any
  of those notations, separated by spaces, commas, ``and`` or dashes
  (``"Q♥-K♥-A♥"``); a suit written once after several ranks belongs to them
  all (``"5 and 6 of spades"``, ``"five and six of spades"``); ranks without
  any suit (``"Q-K-A"``) are right when the expected cards all share a suit.
* **yes/no** (``True``, ``"yes"``, ``"no"``): ``yes``, ``y``, ``true``,
  ``correct``...  Only such a question takes a yes or no: an answer that is a
  word (``"right neighbour"``) never matches ``"yes"``.
* **choice** (any other text: a name, a pile, a call): equal without case,
  accents (``"bjorn"`` is Björn), hyphens (``"no-one"``), a leading ``the``,
  ``a``, ``my``, ``your`` or ``it's``, or British/American spelling
  (``"neighbor"``).  Synonyms are per question: :class:`AnyOf` lists them
  (``AnyOf("nobody", "no one", "no winner", "tie")``).  A number never
  answers such a question (``"0"`` is not "nobody").

A :func:`seal` keeps an answer as salted hashes of these same canonical
forms, so a student copy can check answers it does not contain.

>>> same_answer("8h", "eight of hearts"), same_answer("1/425", "52/22100"), same_answer(10, "10 points")
(True, True, True)
>>> same_answer("5s 6s", "five and six of spades"), same_answer("Qh Kh Ah", "Q-K-A")
(True, True)
>>> same_answer(AnyOf("right neighbour", "right"), "yes"), same_answer("Björn", "bjorn")
(False, True)
>>> check("Kd", "queen of spades", hints={"Qs": "The queen is in your set."})
Verdict(right=False, feedback='Not yet. The queen is in your set.')
>>> same_answer(Sealed.of(seal("1/425", salt="x")), "0.00235")
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Any, NamedTuple

from rummy.cards import JOKER, Card, CardError, parse_rank

__all__ = [
    "AnyOf",
    "Question",
    "Sealed",
    "TeachError",
    "Verdict",
    "as_card",
    "as_cards",
    "as_number",
    "as_yes_no",
    "check",
    "kind_of",
    "same_answer",
    "seal",
    "show_answer",
]


class TeachError(ValueError):
    """An expected answer (written by a lesson's author) that can't be read."""


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Several answers that are all right (``AnyOf("Kd", "Qs")``), or one answer
    and its synonyms (``AnyOf("nobody", "no one", "no winner")``): the first is
    the one shown.

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
               "♠": "s", "♡": "h", "♢": "d", "♤": "s", "♧": "c"}
_SUIT_LETTERS = {"c": "c", "d": "d", "h": "h", "s": "s"}
#: the words that say yes or no; only a yes/no question reads them
_YES = {"yes", "y", "true", "yes it is", "yes it can", "yes they can", "yes it does", "yep",
        "yeah", "correct", "it is", "it can"}
_NO = {"no", "n", "false", "no it is not", "no it isn't", "no it can't", "no it cannot",
       "nope", "it isn't", "it can't", "it cannot", "not"}
#: an expected answer is a yes/no only when written as one of these (or True/False)
_YES_NO_EXPECTED = {"yes": True, "true": True, "no": False, "false": False}
_NUMBER_WORDS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen"))}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
#: words for 0 that a number question takes (never the expected answer of a choice)
_NOTHING = ("nothing", "none", "no points", "no cards", "nil")
#: the units a number may carry ("10 points", "9 cards", "2 packs", "one more cycle")
_UNITS = ("points", "point", "pts", "pt", "cards", "card", "packs", "pack", "decks", "deck",
          "players", "player", "rounds", "round", "turns", "turn", "draws", "draw", "cycles",
          "cycle", "wilds", "wild cards", "wild card", "jokers", "joker", "outs", "out", "games",
          "game", "hands", "hand", "deadwood", "points of deadwood", "seconds", "minutes",
          "times", "percent", "per cent", "more", "more cycle", "more cycles", "more points",
          "each", "in all", "in total", "total")
_FILLERS = ("the", "a", "an", "my", "your", "its", "it's", "it is", "they are", "that is",
            "answer", "about", "exactly", "i", "you", "we")
_SPELLING = {"neighbor": "neighbour", "neighbors": "neighbours", "color": "colour"}


def _plain(text: Any) -> str:
    """Lower case, no accents or variation selectors, plain dashes and quotes,
    single spaces, no end punctuation."""
    t = unicodedata.normalize("NFKC", str(text)).replace("\ufe0f", "")
    for dash in "\u2212\u2013\u2014\u2010\u2011":
        t = t.replace(dash, "-")
    t = t.replace("\u2019", "'").replace("\u2018", "'")
    # accents off, but keep the suit symbols (they have no combining marks)
    t = "".join(ch for ch in unicodedata.normalize("NFKD", t) if not unicodedata.combining(ch))
    t = re.sub(r"\s+", " ", t.strip().lower())
    return t.strip(" .!?;:\"'`")


def _clean(text: Any) -> str:
    """:func:`_plain` without a leading article or filler word ("the", "my", "it's")."""
    t = _plain(text)
    changed = True
    while changed:
        changed = False
        for word in _FILLERS:
            if t.startswith(word + " "):
                t, changed = t[len(word) + 1:], True
    return t


def _words(text: Any) -> str:
    """A named choice as compared: :func:`_clean`, hyphens as spaces, no possessive
    's, one spelling of words spelt two ways ("neighbor", "neighbour")."""
    t = _clean(text).replace("-", " ")
    t = re.sub(r"'s\b", "", t)
    t = re.sub(r"\s+", " ", t).strip()
    return " ".join(_SPELLING.get(w, w) for w in t.split(" "))


# --- cards --------------------------------------------------------------------------------------

def _rank(token: str) -> int | None:
    if token in ("one",):
        return 1
    try:
        return parse_rank(token)
    except CardError:
        return None


def as_card(text: Any) -> Card | None:
    """The card ``text`` names, in any notation the kit reads or prints, or None.

    >>> [str(as_card(t)) for t in ("8h", "8♥", "8 of hearts", "eight of hearts", "the 10 of Spades",
    ...                            "9 clubs", "K clubs", "joker")]
    ['8h', '8h', '8h', '8h', 'Ts', '9c', 'Kc', 'Jk']
    >>> as_card("box") is None, as_card("Q") is None
    (True, True)
    """
    if isinstance(text, Card):
        return text
    many = _card_items(text)
    if many is None or len(many) != 1 or many[0][1] is None:
        return None
    rank, suit = many[0]
    return JOKER if rank == 0 else Card(rank, str(suit))


def _compact(token: str) -> tuple[int, str] | None:
    """"8h", "8♥", "10h", "q♥", "jk" as (rank, suit); a joker is (0, "")."""
    if token in ("jk", "joker", "jokers", "🃏"):
        return 0, ""
    for symbol, suit in _SUIT_WORDS.items():
        if len(symbol) == 1 and token.endswith(symbol) and len(token) > 1:
            rank = _rank(token[:-1])
            return (rank, suit) if rank is not None else None
    if len(token) >= 2 and token[-1] in _SUIT_LETTERS and token[:-1] in (
            *"a23456789tjqk", "10", "1", "11", "12", "13"):
        rank = _rank(token[:-1])
        return (rank, token[-1]) if rank is not None else None
    return None


def _card_items(text: Any) -> list[tuple[int, str | None]] | None:
    """The cards ``text`` names as (rank, suit) pairs, a suit None where only the
    rank is given; a suit word after several suitless ranks belongs to them all
    ("5 and 6 of spades"). None when some word is not a card."""
    t = _plain(text)
    t = re.sub(r"^(the|an) ", "", t)
    t = re.sub(r"^a (joker|jk|🃏)", r"\1", t)
    for symbol in ("♣", "♦", "♥", "♠", "♡", "♢", "♤", "♧"):
        t = t.replace(symbol, symbol + " ")  # "8♥9♥" and "Q♥-K♥" split at the symbol
    t = re.sub(r"\s+([♣♦♥♠♡♢♤♧])", r"\1", t)  # "8 ♥" is one card
    tokens = [x for x in re.split(r"[\s,;&+/-]+|\band\b|\bthen\b", t) if x]
    items: list[tuple[int, str | None]] = []
    pending = 0  # suitless ranks waiting for a suit word
    for token in tokens:
        if token in ("of", "the"):
            continue
        if token in _SUIT_WORDS:
            if not pending:
                return None
            suit = _SUIT_WORDS[token]
            items[-pending:] = [(r, suit) for r, _ in items[-pending:]]
            pending = 0
            continue
        compact = _compact(token)
        if compact is not None:
            items.append(compact)
            pending = 0
            continue
        rank = _rank(token)
        if rank is None:
            return None
        items.append((rank, None))
        pending += 1
    return items or None


def as_cards(text: Any) -> tuple[Card, ...] | None:
    """Several cards (separated by spaces, commas, dashes or "and"), or None.

    >>> as_cards("7h, 8h and nine of hearts")
    (Card.parse('7h'), Card.parse('8h'), Card.parse('9h'))
    >>> [str(c) for c in as_cards("5 and 6 of spades")], [str(c) for c in as_cards("Q♥-K♥-A♥")]
    (['5s', '6s'], ['Qh', 'Kh', 'Ah'])
    """
    if isinstance(text, Card):
        return (text,)
    if not isinstance(text, str) and isinstance(text, Iterable):
        items = list(text)
        if items and all(isinstance(c, Card) for c in items):
            return tuple(items)
        text = " ".join(map(str, items))
    found = _card_items(text)
    if found is None or any(suit is None for _, suit in found):
        return None
    return tuple(JOKER if rank == 0 else Card(rank, suit or "") for rank, suit in found)


def _ranks_of_run(given: Any, want: Sequence[Card]) -> bool:
    """Ranks without suits ("Q-K-A") name ``want`` when its cards share one suit."""
    found = _card_items(given)
    suits = {c.suit for c in want}
    if found is None or len(suits) != 1 or any(c == JOKER for c in want):
        return False
    if not all(suit is None or suit in suits for _, suit in found):
        return False
    return Counter(rank for rank, _ in found) == Counter(c.rank for c in want)


# --- numbers ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Number:
    value: Fraction
    #: half the last shown digit for a rounded decimal (0 when exact)
    tolerance: Fraction = field(default=Fraction(0))
    #: significant digits of a decimal as written (0 for an exact number)
    digits: int = 0


def _number_words(text: str, nothing: bool = True) -> int | None:
    """A whole number written in English words, up to 999 ("one hundred and
    eight", "twenty-one", and "nothing" for 0 when ``nothing``), or None.

    >>> _number_words("one hundred and eight"), _number_words("twenty-one"), _number_words("nothing")
    (108, 21, 0)
    """
    if text in _NOTHING:
        return 0 if nothing else None
    tokens = [w for w in re.split(r"[\s-]+", text) if w and w != "and"]
    if tokens[:1] == ["a"] and tokens[1:2] == ["hundred"]:
        tokens[0] = "one"
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


def _without_unit(t: str) -> str:
    for unit in sorted(_UNITS, key=len, reverse=True):
        if t.endswith(" " + unit):
            return t[: -len(unit) - 1].strip()
    return t


def _whole(text: str, nothing: bool) -> int | None:
    """A whole number in digits or words."""
    t = text.replace(",", "").replace(" ", "") if re.fullmatch(r"[\d, ]+", text) else text
    if re.fullmatch(r"\d+", t):
        return int(t)
    return _number_words(text, nothing)


def _as_number(text: Any, nothing: bool = True) -> _Number | None:
    """A number as written, with the tolerance of its rounding; ``nothing``: read
    "nothing"/"none" as 0 (a given answer to a number question)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, Fraction)):
        return _Number(Fraction(text))
    if isinstance(text, float):
        return _Number(Fraction(text))
    t = _clean(text).replace("≈", "").replace("~", "").strip()
    t = _without_unit(t)
    t = re.sub(r"\s*(percent|per cent)$", "%", t)
    whole = _whole(t, nothing)
    if whole is not None:
        return _Number(Fraction(whole))
    m = re.fullmatch(r"(.+?)\s+(?:in|out of)\s+(.+)", t)
    if m:
        top, bottom = _whole(m.group(1), False), _whole(m.group(2).replace(",", ""), False)
        return _Number(Fraction(top, bottom)) if top is not None and bottom else None
    t = t.replace(",", "").replace(" ", "")
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
    digits = len(shown.lstrip("0")) if decimals else 0
    tolerance = Fraction(1, 2 * 10 ** decimals) if decimals else Fraction(0)
    if percent:
        value, tolerance = value / 100, tolerance / 100
    return _Number(value, tolerance, digits)


def as_number(text: Any) -> Fraction | None:
    """The number ``text`` writes (an exact Fraction), or None.

    >>> as_number("52/22100"), as_number("0.235%"), as_number("1 in 4"), as_number("seven")
    (Fraction(1, 425), Fraction(47, 20000), Fraction(1, 4), Fraction(7, 1))
    >>> as_number("10 points"), as_number("two packs"), as_number("one hundred and eight")
    (Fraction(10, 1), Fraction(2, 1), Fraction(108, 1))
    """
    n = _as_number(text)
    return None if n is None else n.value


def _number_matches(want: Fraction, got: _Number, digits: int) -> bool:
    if got.digits >= digits:
        return abs(want - got.value) <= got.tolerance
    return want == got.value


# --- yes/no -------------------------------------------------------------------------------------

def as_yes_no(text: Any) -> bool | None:
    """True for yes, False for no (any case, a few spellings), else None.

    >>> as_yes_no("Yes"), as_yes_no("n"), as_yes_no(False), as_yes_no("maybe"), as_yes_no("right")
    (True, False, False, None, None)
    """
    if isinstance(text, bool):
        return text
    t = _plain(text)
    if t in _YES:
        return True
    if t in _NO:
        return False
    return None


# --- kinds and comparison -----------------------------------------------------------------------

def kind_of(expected: Any) -> str:
    """What kind of answer ``expected`` is: "choice", "yes/no", "number", "card",
    "cards" or "any of several".

    >>> [kind_of(x) for x in ("9d", "1/425", True, "box", "7h 8h 9h", 26, "right", "none")]
    ['card', 'number', 'yes/no', 'choice', 'cards', 'number', 'choice', 'choice']
    """
    if isinstance(expected, AnyOf):
        return "any of several"
    if isinstance(expected, Sealed):
        return expected.kinds[0] if len(set(expected.kinds)) == 1 else "any of several"
    if isinstance(expected, bool) or (isinstance(expected, str)
                                      and _plain(expected) in _YES_NO_EXPECTED):
        return "yes/no"
    if isinstance(expected, Card):
        return "card"
    if isinstance(expected, (int, float, Fraction)):
        return "number"
    if isinstance(expected, str):
        if not _clean(expected):
            raise TeachError("an expected answer can't be empty")
        if _as_number(expected, nothing=False) is not None:
            return "number"
        if as_card(expected) is not None:
            return "card"
        many = as_cards(expected)
        if many is not None and len(many) > 1:
            return "cards"
        return "choice"
    if isinstance(expected, Iterable) and as_cards(expected) is not None:
        return "cards"
    raise TeachError(f"{expected!r} is not an answer a quiz can check: give a card, cards, "
                     "a number, True/False or a word")


def same_answer(expected: Any, given: Any, *, digits: int = 2) -> bool:
    """True if ``given`` means the same as ``expected`` (the module's rules).

    ``expected`` is a card (``"8h"`` or a Card), several cards (order does not
    matter), a number (int, Fraction, or text such as ``"1/425"``), a yes/no
    (True/False or ``"yes"``/``"no"``), a named choice (any other text, such as
    ``"box"`` or ``"discard pile"``), :class:`AnyOf` several of those, or a
    :class:`Sealed` answer.  ``digits``: the significant digits a decimal needs
    to be compared within its rounding (fewer: only when exact).

    >>> same_answer("8h", "8♥"), same_answer("8h", "8 of hearts"), same_answer("8h", "8d")
    (True, True, False)
    >>> same_answer("1/425", "0.00235"), same_answer("1/425", "0.0024"), same_answer("1/425", "0.002")
    (True, True, False)
    >>> same_answer(True, "YES"), same_answer("discard pile", "The Discard Pile."), same_answer("box", "captain")
    (True, True, False)
    >>> same_answer("7h 8h 9h", "9♥ 8♥ 7♥"), same_answer(26, "26"), same_answer(26, "twenty-six")
    (True, True, True)
    >>> same_answer(AnyOf("nobody", "no one"), "0"), same_answer(AnyOf("nobody", "no one"), "no-one")
    (False, True)
    """
    if isinstance(expected, Sealed):
        return expected.matches(given)
    if isinstance(expected, AnyOf):
        return any(same_answer(a, given, digits=digits) for a in expected.answers)
    kind = kind_of(expected)
    if kind == "yes/no":
        want = expected if isinstance(expected, bool) else _YES_NO_EXPECTED[_plain(expected)]
        return as_yes_no(given) is want
    if kind == "number":
        want_n = _as_number(expected, nothing=False)
        got = _as_number(given)
        return want_n is not None and got is not None and _number_matches(want_n.value, got, digits)
    if kind == "card":
        return as_card(given) == as_card(expected)
    if kind == "cards":
        want_c, got_c = as_cards(expected), as_cards(given)
        if want_c is None:
            return False
        if got_c is not None:
            return Counter(got_c) == Counter(want_c)
        return _ranks_of_run(given, want_c)
    if _as_number(given) is not None and _words(given) != _words(expected):
        return False  # never a number for a person, a pile or a call
    return _words(given) == _words(expected)


def show_answer(expected: Any) -> str:
    """An answer as a learner reads it: cards with suit symbols, fractions as a/b.

    >>> show_answer("Kd"), show_answer("52/22100"), show_answer(True), show_answer("7h 8h 9h")
    ('K♦', '1/425', 'yes', '7♥ 8♥ 9♥')
    """
    if isinstance(expected, AnyOf):
        return str(expected)
    if isinstance(expected, Sealed):
        return "(sealed)"
    kind = kind_of(expected)
    if kind == "yes/no":
        yes = expected if isinstance(expected, bool) else _YES_NO_EXPECTED[_plain(expected)]
        return "yes" if yes else "no"
    if kind == "number":
        n = _as_number(expected, nothing=False)
        assert n is not None
        return str(n.value) if not isinstance(expected, float) else str(expected)
    if kind == "card":
        card = as_card(expected)
        assert card is not None
        return card.symbol
    if kind == "cards":
        many = as_cards(expected)
        assert many is not None
        return " ".join(c.symbol for c in many)
    return str(expected).strip()


def _first(expected: Any) -> Any:
    return expected.answers[0] if isinstance(expected, AnyOf) else expected


# --- sealed answers -----------------------------------------------------------------------------

def _canonical(kind: str, value: Any, digits: int) -> list[str]:
    """The canonical forms of an expected answer of ``kind`` (for :func:`seal`)."""
    if kind == "yes/no":
        yes = value if isinstance(value, bool) else _YES_NO_EXPECTED[_plain(value)]
        return [f"yes/no:{int(yes)}"]
    if kind == "number":
        n = _as_number(value, nothing=False)
        assert n is not None
        forms = [f"number:{n.value}"]
        for k in range(digits, 16):
            forms.append(f"round:{k}:{_rounded(n.value, k)}")
        return forms
    if kind == "card":
        return [f"card:{as_card(value)}"]
    if kind == "cards":
        many = as_cards(value)
        assert many is not None
        forms = ["cards:" + " ".join(sorted(map(str, many)))]
        if len({c.suit for c in many}) == 1 and JOKER not in many:
            forms.append("ranks:" + " ".join(map(str, sorted(c.rank for c in many))))
        return forms
    return [f"choice:{_words(value)}"]


def _given_forms(kind: str, given: Any) -> list[str]:
    """The canonical forms of a given answer, read as an answer of ``kind``."""
    if kind == "yes/no":
        yes = as_yes_no(given)
        return [] if yes is None else [f"yes/no:{int(yes)}"]
    if kind == "number":
        n = _as_number(given)
        if n is None:
            return []
        if n.digits:
            k = min(n.digits, 15)
            return [f"round:{k}:{_rounded(n.value, k)}", f"number:{n.value}"]
        return [f"number:{n.value}"]
    if kind == "card":
        card = as_card(given)
        return [] if card is None else [f"card:{card}"]
    if kind == "cards":
        many = as_cards(given)
        if many is not None:
            return ["cards:" + " ".join(sorted(map(str, many)))]
        found = _card_items(given)
        if found is None or any(s is not None for _, s in found):
            return []
        return ["ranks:" + " ".join(map(str, sorted(r for r, _ in found)))]
    if _as_number(given) is not None:
        return []
    return [f"choice:{_words(given)}"]


def _rounded(value: Fraction, k: int) -> str:
    """``value`` rounded to ``k`` significant digits, as plain decimal text."""
    if value == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec, ctx.rounding = k, ROUND_HALF_EVEN
        d = Decimal(value.numerator) / Decimal(value.denominator)
    return format(d.normalize(), "f")


def _hash(salt: str, form: str) -> str:
    return hashlib.sha256(f"{salt}|{form}".encode()).hexdigest()[:24]


def seal(expected: Any, *, salt: str | None = None, digits: int = 2) -> dict[str, Any]:
    """``expected`` kept as salted hashes of its canonical forms: a JSON-able dict
    for a student copy, which :class:`Sealed` checks without knowing the answer.

    >>> s = seal(AnyOf("nobody", "no one"), salt="pepper")
    >>> sorted(s), "nobody" in str(s)
    (['digits', 'hashes', 'kinds', 'salt'], False)
    >>> same_answer(Sealed.of(s), "No-one"), same_answer(Sealed.of(s), "Ben")
    (True, False)
    """
    salt = salt if salt is not None else secrets.token_hex(16)
    answers = expected.answers if isinstance(expected, AnyOf) else (expected,)
    kinds, hashes = [], []
    for a in answers:
        kind = kind_of(a)
        kinds.append(kind)
        hashes += [_hash(salt, f) for f in _canonical(kind, a, digits)]
    return {"salt": salt, "digits": digits, "kinds": kinds, "hashes": sorted(set(hashes))}


@dataclass(frozen=True)
class Sealed:
    """An answer known only by its :func:`seal`: ``same_answer(Sealed.of(s), given)``."""

    salt: str
    kinds: tuple[str, ...]
    hashes: frozenset[str]
    digits: int = 2

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Sealed:
        return cls(str(data["salt"]), tuple(data["kinds"]), frozenset(data["hashes"]),
                   int(data.get("digits", 2)))

    def matches(self, given: Any) -> bool:
        return any(_hash(self.salt, form) in self.hashes
                   for kind in dict.fromkeys(self.kinds) for form in _given_forms(kind, given))


# --- questions and feedback ---------------------------------------------------------------------

_HOW_TO_WRITE = {
    "card": "write a card, e.g. 8h, 8♥ or eight of hearts",
    "cards": "write the cards, e.g. 7h 8h 9h or seven of hearts, eight of hearts, nine of hearts",
    "number": "write a number or a fraction, e.g. 26, 1/425 or 0.0024",
    "yes/no": "answer yes or no",
}

Hints = Mapping[Any, str] | Iterable[tuple[Any, str]] | Callable[[str], "str | None"]


class Verdict(NamedTuple):
    """What :func:`check` says: right or not, and the feedback a learner reads."""

    right: bool
    feedback: str


@dataclass(frozen=True)
class Question:
    """A quiz question, exercise or drill: its text, the right answer, hints.

    ``answer`` is anything :func:`same_answer` takes (:class:`AnyOf` for
    synonyms, :class:`Sealed` for an answer kept as hashes).  ``hints`` maps
    a wrong answer (compared with :func:`same_answer`, so any spelling
    matches) to the hint it deserves, or is a function of the given text
    returning a hint or None; ``hint`` (naming the rule id) is said for any
    other wrong answer; ``why`` is the worked answer, shown once the learner
    is right; ``digits`` the significant digits a decimal answer needs.

    >>> q = Question("Chance of an out in 5 draws?", "37/156",
    ...              hints={"1/20": "That is the chance for one draw, not five."})
    >>> q.check("2/40")
    (False, 'Not yet. That is the chance for one draw, not five.')
    >>> q.check("banana")[1]
    "Not yet. I can't read 'banana' as a number: write a number or a fraction, e.g. 26, 1/425 or 0.0024."
    >>> Question("How many cards in round 7 (TT-1)?", 9).check("8 cards")
    (False, 'Not yet. You are one off: count once more.')
    """

    text: str
    answer: Any
    hints: Hints = ()
    hint: str = ""
    why: str = ""
    choices: tuple[str, ...] = ()
    digits: int = 2

    def __post_init__(self) -> None:
        kind_of(self.answer)  # raises TeachError for an answer that can't be checked

    @property
    def kind(self) -> str:
        return kind_of(self.answer)

    def _kinds(self) -> list[str]:
        if isinstance(self.answer, AnyOf):
            return [kind_of(a) for a in self.answer.answers]
        if isinstance(self.answer, Sealed):
            return list(self.answer.kinds)
        return [self.kind]

    def is_right(self, given: Any) -> bool:
        return same_answer(self.answer, given, digits=self.digits)

    def _hint_for(self, given: str) -> str | None:
        if callable(self.hints):
            return self.hints(given)
        pairs = self.hints.items() if isinstance(self.hints, Mapping) else self.hints
        for wrong, text in pairs:
            if same_answer(wrong, given, digits=self.digits):
                return text
        return None

    def check(self, given: Any) -> tuple[bool, str]:
        """(right?, the feedback a learner reads)."""
        text = str(given).strip()
        if not text or given is None:
            return False, "Write your answer first."
        if self.is_right(given):
            if isinstance(self.answer, Sealed):
                return True, "Right!" + (f" {self.why}" if self.why else "")
            shown = show_answer(_first(self.answer))
            return True, f"Right: {shown}." + (f" {self.why}" if self.why else "")
        specific = self._hint_for(text)
        if specific:
            return False, f"Not yet. {specific}"
        readable = self._readable(text)
        if readable is not None:
            return False, f"Not yet. {readable}" + (
                f" Hint: {self.hint}" if self.hint and "Hint:" not in readable else "")
        if self._one_off(given):
            return False, "Not yet. You are one off: count once more." + (
                f" Hint: {self.hint}" if self.hint else "")
        return False, "Not yet." + (f" Hint: {self.hint}" if self.hint else " Try again.")

    def _one_off(self, given: Any) -> bool:
        """A whole-number answer one away from a whole-number expected one."""
        if self._kinds() != ["number"]:
            return False
        got = _as_number(given)
        if got is None or got.value.denominator != 1:
            return False
        return any(same_answer(self.answer, str(got.value + step)) for step in (1, -1))

    def _readable(self, text: str) -> str | None:
        """A message when ``text`` is not even the right kind of answer."""
        kinds = self._kinds()
        readers: dict[str, Callable[[str], Any]] = {
            "card": as_card, "cards": _card_items, "number": _as_number, "yes/no": as_yes_no}
        if all(k in readers for k in kinds) and all(readers[k](text) is None for k in kinds):
            return f"I can't read {text!r} as {_article(kinds[0])}: {_HOW_TO_WRITE[kinds[0]]}."
        if "choice" in kinds and _as_number(text) is not None:
            return ("This question asks for a name or a word, not a number."
                    + (f" Hint: {self.hint}" if self.hint else ""))
        if self.choices and "choice" in kinds and _words(text) not in {_words(c) for c in self.choices}:
            return "Choose one of: " + ", ".join(self.choices) + "."
        return None


def _article(kind: str) -> str:
    return {"card": "a card", "cards": "cards", "number": "a number", "yes/no": "yes or no"}[kind]


def check(expected: Any, given: Any, *, hints: Hints = (), hint: str = "", why: str = "",
          digits: int = 2) -> Verdict:
    """Check one answer: right or not, and the feedback (the same as a quiz's).

    >>> check(9, "nine cards")
    Verdict(right=True, feedback='Right: 9.')
    >>> check(AnyOf("nobody", "no one", "no winner"), "zero", hint="A tie means no winner (TT-9).")
    Verdict(right=False, feedback='Not yet. This question asks for a name or a word, not a number. Hint: A tie means no winner (TT-9).')
    """
    return Verdict(*Question("", expected, hints=hints, hint=hint, why=why, digits=digits).check(given))
