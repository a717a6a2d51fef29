"""Answers checked by meaning: every quiz, exercise and drill of the kit (no Jupyter import).

One checker for every question.  :func:`same_answer` says whether an answer a
learner typed means the same as the expected one; :func:`check` (and
:class:`Question`, which it builds) adds the feedback: a targeted hint for a
likely wrong answer, else the question's general hint (naming the rule id).

The rules, by the kind of the expected answer:

* **number** (``26``, ``"1/425"``, a :class:`~fractions.Fraction`): the given
  answer may carry a unit (``"10 points"``, ``"9 cards"``, ``"2 packs"``,
  ``"one more draw and discard"``): a number with another unit than the
  question's (:func:`unit_of`: points, cards, packs, players, rounds, cycles,
  or a chance) is wrong, a bare number is read in the question's unit.  It
  may be written in words to a thousand (``"nineteen"``, ``"a hundred and
  eight"``, ``"nothing"`` for 0), as a fraction (``"52/22100"`` is
  ``1/425``, ``"one eighth"``), ``"1 in 425"``, a decimal (``".125"``, a
  decimal comma ``"0,125"``) or a percentage (``"12,5%"``).  A decimal or
  percentage with at least ``digits`` significant digits (2 unless the
  question states more) is right when the exact value rounds to it
  (``"0.00235"``, ``"0.235%"``); a cruder one only when it is exact.
* **card** (``"8h"``): ``8h``, ``8♥``, ``8 of hearts``, ``eight of hearts``,
  ``8 hearts``, ``K clubs``, ``Q of ♥``, suit first (``♣K``, ``hearts 8``).
* **cards** (``"5s 6s"``, a run or a set; order does not matter): cards in any
  of those notations, separated by spaces, commas, ``and`` or dashes
  (``"Q♥-K♥-A♥"``); a suit written once after several ranks belongs to them
  all (``"5 and 6 of spades"``, ``"five and six of spades"``); ranks without
  any suit (``"Q-K-A"``, ``"QKA"``) are right when the expected cards all
  share a suit.
* **yes/no** (``True``, ``"yes"``, ``"no"``): ``yes``, ``y``, ``yup``,
  ``true``, ``correct``..., also in a short sentence (``"No, it is not"``,
  ``"it can't"``).  Only such a question takes a yes or no: an answer that
  is a word (``"right neighbour"``) never matches ``"yes"``.
* **parts** (a word and a number, ``"defender 10"``, ``"11 jacks"``): the
  parts in any order with words between (``"the defender gets 10"``,
  ``"jacks, 11"``).
* **choice** (any other text: a name, a pile, a call): equal without case,
  accents (``"bjorn"`` is Björn), hyphens (``"no-one"``), a leading ``the``,
  ``a``, ``my``, ``your`` or ``it's``, or British/American spelling
  (``"neighbor"``); a longer answer that starts with the choice and only
  explains it (``"draw from the discard pile"`` says ``"draw"``) unless it
  says "not" or "or"; a rank in plural (``"7s"``, ``"7's"``, ``"sevens"``).
  Synonyms are per question: :class:`AnyOf` lists them (``AnyOf("nobody",
  "no one", "no winner", "tie")``).  A number never answers such a question
  (``"0"`` is not "nobody").  An ordinal (``"the first one"``) picks from the
  question's choices or the options its text offers (:class:`Question`).

A :func:`seal` keeps an answer as salted hashes of these same canonical
forms, so a student copy can check answers it does not contain; the plain
answer is judged by the very same forms (one code path), so both copies
always agree.

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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import (
    ROUND_HALF_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Decimal,
    InvalidOperation,
    localcontext,
)
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
    "unit_of",
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
_SYMBOLS = "♣♦♥♠♡♢♤♧"
_SUIT_LETTERS = {"c": "c", "d": "d", "h": "h", "s": "s"}
#: the first word of an answer that says yes or no ("yes, it is", "No, it is not")
_YES_WORDS = {"yes", "y", "yep", "yup", "yeah", "yea", "ya", "aye", "sure", "true", "correct",
              "certainly", "definitely", "indeed", "absolutely", "ok", "okay"}
_NO_WORDS = {"no", "n", "nope", "nah", "false", "never", "incorrect", "not"}
#: words inside a short sentence that turn it into a no ("it is not", "it can't")
_NEGATIONS = {"not", "no", "never", "cannot", "can't", "isn't", "aren't", "doesn't", "don't",
              "won't", "mustn't", "mayn't", "wasn't", "nope", "n't"}
#: a short sentence that answers yes or no without the word: "it is", "they can't"
_SENTENCE = re.compile(r"(it|they|you|that|this|i|he|she|we|one)( ?'?s| is| are| can| does| do| may"
                       r"| will| must| has| have| counts?| ca| wo| is n| does n| do n)\b.*")
#: an expected answer is a yes/no only when written as one of these (or True/False)
_YES_NO_EXPECTED = {"yes": True, "true": True, "no": False, "false": False}
_NUMBER_WORDS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen"))}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
#: fractions in words ("one eighth", "three quarters", "a half")
_PARTS_OF = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
             "fourth": 4, "fourths": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
             "twentieth": 20, "hundredth": 100}
_PARTS_OF.update({k + "s": v for k, v in list(_PARTS_OF.items()) if not k.endswith("s")
                  and k not in ("half",)})
#: words for 0 that a number question takes (never the expected answer of a choice)
_NOTHING = ("nothing", "none", "no points", "no cards", "nil")
#: the units a number may carry, by what they count ("10 points", "9 cards", "2 packs")
_UNIT_CLASSES: dict[str, tuple[str, ...]] = {
    "points": ("points", "point", "pts", "pt", "penalty points", "penalty point", "penalty",
               "points of deadwood", "deadwood points", "deadwood", "points of penalty"),
    "cards": ("cards", "card", "wild cards", "wild card", "wilds", "jokers", "joker", "outs",
              "natural cards", "natural card", "naturals", "cards in the stock", "cards each"),
    "packs": ("packs", "pack", "decks", "deck", "packs of cards", "decks of cards"),
    "players": ("players", "player", "people", "persons"),
    "rounds": ("rounds", "round", "hands", "hand"),
    "cycles": ("cycles", "cycle", "draw/discard cycles", "draw/discard cycle", "draw and discard",
               "draws and discards", "draw", "draws", "turns", "turn", "draw/discard"),
    "games": ("games", "game"),
    "seconds": ("seconds", "second", "s"),
    "minutes": ("minutes", "minute", "min"),
    "times": ("times",),
    "percent": ("percent", "per cent", "%"),
}
_UNIT_OF_WORD = {w: k for k, ws in _UNIT_CLASSES.items() for w in ws}
#: words around a number that say nothing about it ("one more", "10 each", "at least 8")
_NUMBER_FILLERS = ("more", "each", "in all", "in total", "total", "altogether", "only", "at least",
                   "at most", "exactly", "about", "just", "roughly", "around", "of them")
_FILLERS = ("the", "a", "an", "my", "your", "its", "it's", "it is", "they are", "that is",
            "answer", "about", "exactly", "i", "you", "we", "at least", "at most", "only")
_SPELLING = {"neighbor": "neighbour", "neighbors": "neighbours", "color": "colour"}
#: words that join the parts of an answer in two parts ("the defender gets 10")
_PART_FILLERS = {"the", "a", "an", "and", "gets", "get", "scores", "score", "scoring", "wins", "win",
                 "with", "is", "are", "it", "its", "it's", "wild", "has", "have", "of", "then",
                 "for", "to", "he", "she", "they", "i", "you", "my", "your", "more", "each", "in",
                 "all", "total"}
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3,
             "4th": 3, "last": -1, "former": 0, "latter": -1}


def _plain(text: Any) -> str:
    """Lower case, no accents or variation selectors, plain dashes and quotes,
    single spaces, no end punctuation (a leading dot stays: ".125")."""
    t = unicodedata.normalize("NFKC", str(text)).replace("\ufe0f", "")
    for dash in "\u2212\u2013\u2014\u2010\u2011":
        t = t.replace(dash, "-")
    t = t.replace("\u2019", "'").replace("\u2018", "'").replace("\u00a0", " ")
    # accents off, but keep the suit symbols (they have no combining marks)
    t = "".join(ch for ch in unicodedata.normalize("NFKD", t) if not unicodedata.combining(ch))
    t = re.sub(r"\s+", " ", t.strip().lower())
    return t.strip(" !?;:\"'`").rstrip(".").strip(" !?;:\"'`")


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
    t = re.sub(r"[,;:!?.]", " ", t)
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


def _plural_rank(token: str) -> int | None:
    """A rank named as ranks are named in plural: "sevens", "7s", "7's", "queens", "Qs"."""
    t = token.replace("'", "")
    if re.fullmatch(r"(10|[2-9atjqk])s", t):
        return _rank(t[:-1])
    if t.endswith("s") and not re.fullmatch(r"\d+", t[:-1]) and len(t) > 2:
        return _rank(t)
    return None


def as_card(text: Any) -> Card | None:
    """The card ``text`` names, in any notation the kit reads or prints, or None.

    >>> [str(as_card(t)) for t in ("8h", "8♥", "8 of hearts", "eight of hearts", "the 10 of Spades",
    ...                            "9 clubs", "K clubs", "joker", "Q of ♥", "♣K", "hearts 8")]
    ['8h', '8h', '8h', '8h', 'Ts', '9c', 'Kc', 'Jk', 'Qh', 'Kc', '8h']
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
    """"8h", "8♥", "10h", "q♥", "h8", "jk" as (rank, suit); a joker is (0, "")."""
    if token in ("jk", "joker", "jokers", "🃏"):
        return 0, ""
    for symbol, suit in _SUIT_WORDS.items():
        if len(symbol) == 1 and token.endswith(symbol) and len(token) > 1:
            rank = _rank(token[:-1])
            return (rank, suit) if rank is not None else None
    ranks = (*"a23456789tjqk", "10", "1", "11", "12", "13")
    if len(token) >= 2 and token[-1] in _SUIT_LETTERS and token[:-1] in ranks:
        rank = _rank(token[:-1])
        return (rank, token[-1]) if rank is not None else None
    if len(token) >= 2 and token[0] in _SUIT_LETTERS and token[1:] in ranks:  # suit first: "h8"
        rank = _rank(token[1:])
        return (rank, token[0]) if rank is not None else None
    return None


def _card_items(text: Any) -> list[tuple[int, str | None]] | None:
    """The cards ``text`` names as (rank, suit) pairs, a suit None where only the
    rank is given; a suit word after several suitless ranks belongs to them all
    ("5 and 6 of spades"), a suit first to the rank after it ("♣K", "hearts 8");
    ranks run together are several ("QKA"). None when some word is not a card."""
    t = _plain(text)
    t = re.sub(r"^(the|an) ", "", t)
    t = re.sub(r"(^|[\s,;&+/-])an? (joker|jk|🃏)", r"\1\2", t)
    t = re.sub(rf"\bof\s*([{_SYMBOLS}])", r" \1", t)  # "Q of ♥"
    # a suit symbol first ("♣K", "♣ 10"), where no rank stands before it
    t = re.sub(rf"(?<![0-9atjqk])([{_SYMBOLS}])\s*(10|[2-9atjqk])(?![0-9a-z])", r" \2\1 ", t)
    for symbol in _SYMBOLS:
        t = t.replace(symbol, symbol + " ")  # "8♥9♥" and "Q♥-K♥" split at the symbol
    t = re.sub(rf"\s+([{_SYMBOLS}])", r"\1", t)  # "8 ♥" is one card
    tokens = [x for x in re.split(r"[\s,;&+/-]+|\band\b|\bthen\b", t) if x]
    items: list[tuple[int, str | None]] = []
    pending = 0  # suitless ranks waiting for a suit word
    leading: str | None = None  # a suit word before its rank ("hearts 8")
    for token in tokens:
        if token in ("of", "the"):
            continue
        if token in _SUIT_WORDS:
            if pending:
                suit = _SUIT_WORDS[token]
                items[-pending:] = [(r, suit) for r, _ in items[-pending:]]
                pending = 0
            elif leading is None:
                leading = _SUIT_WORDS[token]
            else:
                return None
            continue
        compact = _compact(token)
        if compact is not None and leading is None:
            items.append(compact)
            pending = 0
            continue
        rank = _rank(token)
        if rank is None and leading is None and re.fullmatch(r"(10|[2-9atjqk]){2,}", token):
            glued = re.findall(r"10|[2-9atjqk]", token)  # "qka": Q K A
            items += [(_rank(g) or 0, None) for g in glued]
            pending += len(glued)
            continue
        if rank is None:
            return None
        if leading is not None:
            items.append((rank, leading))
            leading = None
            continue
        items.append((rank, None))
        pending += 1
    if leading is not None:
        return None
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


# --- numbers ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Number:
    value: Fraction
    #: half the last shown digit for a rounded decimal (0 when exact)
    tolerance: Fraction = field(default=Fraction(0))
    #: significant digits of a decimal as written (0 for an exact number)
    digits: int = 0
    #: what the number counts as written with it ("points", "cards", ...), or None
    unit: str | None = None


def _number_words(text: str, nothing: bool = True) -> int | None:
    """A whole number written in English words, up to a thousand ("one hundred
    and eight", "a hundred and eight", "twenty-one", "one thousand", and
    "nothing" for 0 when ``nothing``), or None.

    >>> _number_words("one hundred and eight"), _number_words("twenty-one"), _number_words("nothing")
    (108, 21, 0)
    >>> _number_words("a hundred and eight"), _number_words("a thousand"), _number_words("two hundred")
    (108, 1000, 200)
    """
    if text in _NOTHING:
        return 0 if nothing else None
    tokens = [w for w in re.split(r"[\s-]+", text) if w and w != "and"]
    if tokens[:1] in (["a"], ["an"]) and tokens[1:2] in (["hundred"], ["thousand"]):
        tokens[0] = "one"
    if tokens[:1] in (["hundred"], ["thousand"]):  # "a hundred and eight" without its "a"
        tokens.insert(0, "one")
    if tokens in (["one", "thousand"], ["thousand"]):
        return 1000
    if not tokens or not all(w in _NUMBER_WORDS or w in _TENS or w == "hundred" for w in tokens):
        return None
    total, part = 0, 0
    for w in tokens:
        if w == "hundred":
            if not 1 <= part <= 9 or total:
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


def _fraction_words(text: str) -> Fraction | None:
    """"one eighth", "three eighths", "a half", "two thirds" as a fraction, or None."""
    m = re.fullmatch(r"(.+?)[\s-]+([a-z]+)", text)
    if not m or m.group(2) not in _PARTS_OF:
        return None
    top = 1 if m.group(1) in ("a", "an") else _whole(m.group(1), False)
    return Fraction(top, _PARTS_OF[m.group(2)]) if top is not None else None


def _split_unit(t: str) -> tuple[str, str | None]:
    """``t`` without the unit and filler words written after (or before) its
    number, and the unit's class: ("10", "points") for "10 more points"."""
    unit: str | None = None
    changed = True
    while changed:
        changed = False
        for word in sorted((*_UNIT_OF_WORD, *_NUMBER_FILLERS), key=len, reverse=True):
            if word in ("%", "s"):
                continue
            if t.endswith(" " + word) and t[: -len(word) - 1].strip():
                if word in _UNIT_OF_WORD:
                    if unit is not None:
                        return t, "?"  # two units: "10 points cards"
                    unit = _UNIT_OF_WORD[word]
                t, changed = t[: -len(word) - 1].strip(), True
                break
            if word in _NUMBER_FILLERS and t.startswith(word + " "):
                t, changed = t[len(word) + 1:].strip(), True
                break
    return t, unit


def _whole(text: str, nothing: bool) -> int | None:
    """A whole number in digits (thousands may be set off by commas) or words."""
    t = text.strip()
    if re.fullmatch(r"[1-9]\d{0,2}(,\d{3})+|[1-9]\d{0,2}( \d{3})+", t):
        t = t.replace(",", "").replace(" ", "")
    if re.fullmatch(r"\d+", t):
        return int(t)
    return _number_words(text, nothing)


def _as_number(text: Any, nothing: bool = True) -> _Number | None:
    """A number as written, with the tolerance of its rounding and its unit;
    ``nothing``: read "nothing"/"none" as 0 (a given answer to a number question)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, Fraction)):
        return _Number(Fraction(text))
    if isinstance(text, float):
        return _Number(Fraction(text))
    t = _clean(text).replace("≈", "").replace("~", "").strip()
    t, unit = _split_unit(t)
    if unit == "?":
        return None
    if unit == "percent":
        t = t + "%"
    t = re.sub(r"\s*%$", "%", t)
    whole = _whole(t, nothing)
    if whole is not None:
        return _Number(Fraction(whole), unit=unit)
    words = _fraction_words(t)
    if words is not None:
        return _Number(words, unit=unit)
    m = re.fullmatch(r"(.+?)\s+(?:in|out of)\s+(.+)", t)
    if m:
        top, bottom = _whole(m.group(1), False), _whole(m.group(2).replace(",", ""), False)
        return _Number(Fraction(top, bottom), unit=unit) if top is not None and bottom else None
    if re.fullmatch(r"[+-]?\d*,\d+%?", t.replace(" ", "")):  # a decimal comma: "12,5%", "0,125"
        t = t.replace(",", ".")
    t = t.replace(",", "").replace(" ", "")
    m = re.fullmatch(r"([+-]?\d+)/(\d+)", t)
    if m:
        return (_Number(Fraction(int(m.group(1)), int(m.group(2))), unit=unit)
                if int(m.group(2)) else None)
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
        value, tolerance, unit = value / 100, tolerance / 100, "percent"
    return _Number(value, tolerance, digits, unit)


def as_number(text: Any) -> Fraction | None:
    """The number ``text`` writes (an exact Fraction), or None.

    >>> as_number("52/22100"), as_number("0.235%"), as_number("1 in 4"), as_number("seven")
    (Fraction(1, 425), Fraction(47, 20000), Fraction(1, 4), Fraction(7, 1))
    >>> as_number("10 points"), as_number("two packs"), as_number("one hundred and eight")
    (Fraction(10, 1), Fraction(2, 1), Fraction(108, 1))
    >>> as_number("12,5%"), as_number(".125"), as_number("one eighth")
    (Fraction(1, 8), Fraction(1, 8), Fraction(1, 8))
    """
    n = _as_number(text)
    return None if n is None else n.value


def unit_of(question: str) -> str | None:
    """What a number answering ``question`` counts: "points", "cards", "packs",
    "players", "rounds", "cycles", "chance" (a probability: a fraction, decimal
    or percentage), or None when the question does not say.

    >>> unit_of("How many penalty points does Q♠ cost?"), unit_of("How many cards in round 7?")
    ('points', 'cards')
    >>> unit_of("What is the chance of an out?"), unit_of("Ana has 92 points. How many more does she need?")
    ('chance', 'points')
    >>> unit_of("Who deals next?") is None
    True
    """
    t = _plain(question).replace("-", " ")
    if re.search(r"\b(chance|probability|odds|likely)\b", t):
        return "chance"
    for m in re.finditer(r"how (?:many|much)\b((?:\s+[^\s?.,;:()]+){1,4})", t):
        words = m.group(1).split()
        for i in range(len(words)):
            for n in (3, 2, 1):
                phrase = " ".join(words[i:i + n])
                if len(words[i:i + n]) == n and phrase in _UNIT_OF_WORD and phrase != "s":
                    return _UNIT_OF_WORD[phrase]
    if not re.search(r"\b(how many|how much|what do|what does|what is|what are)\b", t):
        return None
    if re.search(r"\b(score|scores|scored|cost|costs|penalty)\b", t):
        return "points"
    found = {_UNIT_OF_WORD[w] for w in re.findall(r"[a-z/]+", t)
             if w in _UNIT_OF_WORD and _UNIT_OF_WORD[w] in ("points", "cards", "packs", "players")}
    return found.pop() if len(found) == 1 else None


def _unit_fits(got: str | None, unit: str | None) -> bool:
    """A number written with ``got`` answers a question counting ``unit``."""
    if got is None or unit is None:
        return got != "percent" or unit in (None, "chance")
    if unit == "chance":
        return got == "percent"
    return got == unit


# --- yes/no -------------------------------------------------------------------------------------

def as_yes_no(text: Any) -> bool | None:
    """True for yes, False for no (any case, a few spellings, or said in a short
    sentence: "No, it is not", "yup", "it can't"), else None.

    >>> as_yes_no("Yes"), as_yes_no("n"), as_yes_no(False), as_yes_no("maybe"), as_yes_no("right")
    (True, False, False, None, None)
    >>> as_yes_no("No, it is not"), as_yes_no("yup"), as_yes_no("yes it is"), as_yes_no("maybe not")
    (False, True, True, None)
    """
    if isinstance(text, bool):
        return text
    t = _plain(text)
    tokens = [w for w in re.split(r"[\s,;:.!-]+", t.replace("n't", " n't")) if w]
    if not tokens or len(tokens) > 8:
        return None
    negated = any(w in _NEGATIONS for w in tokens[1:])
    if tokens[0] in _YES_WORDS:
        if len(tokens) > 1 and tokens[0] in ("true", "correct", "sure") and negated:
            return None
        return None if negated or "no" in tokens[1:] else True
    if tokens[0] in _NO_WORDS:
        return None if "yes" in tokens[1:] else False
    if _SENTENCE.fullmatch(" ".join(tokens)):
        return not any(w in _NEGATIONS for w in tokens)
    return None


# --- answers in parts ---------------------------------------------------------------------------

def _parts(text: Any) -> tuple[list[str], list[str | None]] | None:
    """An answer in parts ("the defender gets 10", "11, jacks"): its parts as
    canonical words (``n:10``, ``rank:11``, ``defender``) in sorted order and the
    units written with its numbers; None unless it holds a number and a word."""
    t = _plain(text)
    t = re.sub(r"'s\b", "", t)
    tokens = [w for w in re.split(r"[\s,;:/]+|(?<=[a-z])-(?=[a-z])", t) if w]
    parts: list[str] = []
    units: list[str | None] = []
    i = 0
    while i < len(tokens):
        w = tokens[i]
        # a number, perhaps in several words ("one hundred and eight"), and its unit
        for n in range(min(6, len(tokens) - i), 0, -1):
            chunk = " ".join(tokens[i:i + n])
            if chunk.endswith(" and") or (n > 1 and not re.fullmatch(r"[a-z -]+", chunk)):
                continue
            value = _whole(chunk, False)
            if value is not None:
                break
        else:
            value, n = None, 1
        if value is not None:
            parts.append(f"n:{value}")
            i += n
            unit = None
            for m in (3, 2, 1):
                phrase = " ".join(tokens[i:i + m])
                if len(tokens[i:i + m]) == m and phrase in _UNIT_OF_WORD and phrase not in ("s", "%"):
                    unit, i = _UNIT_OF_WORD[phrase], i + m
                    break
            units.append(unit)
            continue
        i += 1
        if w in _PART_FILLERS:
            continue
        rank = _plural_rank(w)
        if rank is None and w in ("ace", "jack", "queen", "king"):
            rank = _rank(w)
        parts.append(f"rank:{rank}" if rank is not None else _SPELLING.get(w, w))
    if not any(p.startswith("n:") for p in parts) or all(p.startswith("n:") for p in parts):
        return None
    return sorted(parts), units


# --- kinds and comparison -----------------------------------------------------------------------

def kind_of(expected: Any) -> str:
    """What kind of answer ``expected`` is: "choice", "yes/no", "number", "card",
    "cards", "parts" (a word and a number: ``"defender 10"``) or "any of several".

    >>> [kind_of(x) for x in ("9d", "1/425", True, "box", "7h 8h 9h", 26, "right", "none", "11 jacks")]
    ['card', 'number', 'yes/no', 'choice', 'cards', 'number', 'choice', 'choice', 'parts']
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
        if _parts(expected) is not None:
            return "parts"
        return "choice"
    if isinstance(expected, Iterable) and as_cards(expected) is not None:
        return "cards"
    raise TeachError(f"{expected!r} is not an answer a quiz can check: give a card, cards, "
                     "a number, True/False or a word")


def _answers(expected: Any) -> list[Any]:
    if isinstance(expected, AnyOf):
        return [x for a in expected.answers for x in _answers(a)]
    return [expected]


def same_answer(expected: Any, given: Any, *, digits: int = 2, unit: str | None = None) -> bool:
    """True if ``given`` means the same as ``expected`` (the module's rules).

    ``expected`` is a card (``"8h"`` or a Card), several cards (order does not
    matter), a number (int, Fraction, or text such as ``"1/425"``), a yes/no
    (True/False or ``"yes"``/``"no"``), a named choice (any other text, such as
    ``"box"`` or ``"discard pile"``), an answer in parts (``"defender 10"``),
    :class:`AnyOf` several of those, or a :class:`Sealed` answer.  ``digits``:
    the significant digits a decimal needs to be compared within its rounding
    (fewer: only when exact); ``unit``: what a number answer counts (see
    :func:`unit_of`): a number written with another unit is wrong.

    The plain and the sealed answer are judged by one code path: both compare
    the canonical forms of the given answer with those of the expected one
    (a seal keeps them hashed).

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
    >>> same_answer(10, "10 cards", unit="points"), same_answer(10, "10", unit="points")
    (False, True)
    """
    if isinstance(expected, Sealed):
        return expected.matches(given, unit=unit)
    forms: set[str] = set()
    kinds: dict[str, None] = {}
    for a in _answers(expected):
        kind = kind_of(a)
        kinds[kind] = None
        forms.update(_canonical(kind, a, digits))
    return any(f in forms for kind in kinds for f in _given_forms(kind, given, unit))


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


# --- canonical forms (what the plain and the sealed checker both compare) -----------------------

def _rank_forms(words: str) -> list[str]:
    """"rank:7" for a rank named alone ("7", "sevens", "7s", "7's", "seven", "Q")."""
    t = words.replace(" ", "")
    rank = _plural_rank(t)
    if rank is None and not re.fullmatch(r"\d{2,}|1", t):
        rank = _rank(t)
    return [f"rank:{rank}"] if rank is not None and rank != 0 else []


def _canonical(kind: str, value: Any, digits: int) -> list[str]:
    """The canonical forms of an expected answer of ``kind``."""
    if kind == "yes/no":
        yes = value if isinstance(value, bool) else _YES_NO_EXPECTED[_plain(value)]
        return [f"yes/no:{int(yes)}"]
    if kind == "number":
        n = _as_number(value, nothing=False)
        assert n is not None
        forms = [f"number:{n.value}"]
        for k in range(digits, 16):  # an exact half may be rounded either way
            forms += sorted({f"round:{k}:{_rounded(n.value, k, r)}" for r in _ROUNDINGS})
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
    if kind == "parts":
        found = _parts(value)
        assert found is not None
        return ["parts:" + "|".join(found[0])]
    words = _words(value)
    return [f"choice:{words}", *_rank_forms(words)]


def _choice_forms(given: Any) -> list[str]:
    """A named choice as given: its words, and each first part of it that the
    rest only explains ("draw from the discard pile" says "draw"), unless the
    rest names another option or a "not"; ranks named alone as ranks."""
    words = _words(given)
    if not words:
        return []
    tokens = words.split(" ")
    forms = [] if _as_number(given, nothing=False) is not None else [f"choice:{words}"]
    forms += _rank_forms(words)
    for cut in range(1, len(tokens)):
        rest = tokens[cut:]
        if any(w in _NEGATIONS or w in ("or", "nor", "but", "n't", "instead", "than") for w in rest):
            break
        head = " ".join(tokens[:cut])
        forms.append(f"choice:{head}")
        forms += _rank_forms(head)
    return forms


def _given_forms(kind: str, given: Any, unit: str | None = None) -> list[str]:
    """The canonical forms of a given answer, read as an answer of ``kind``."""
    if kind == "yes/no":
        yes = as_yes_no(given)
        return [] if yes is None else [f"yes/no:{int(yes)}"]
    if kind == "number":
        n = _as_number(given)
        if n is None or not _unit_fits(n.unit, unit):
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
    if kind == "parts":
        in_parts = _parts(given)
        if in_parts is None or not all(_unit_fits(u, unit) for u in in_parts[1]):
            return []
        return ["parts:" + "|".join(in_parts[0])]
    return _choice_forms(given)


_ROUNDINGS = (ROUND_HALF_UP, ROUND_HALF_DOWN)


def _rounded(value: Fraction, k: int, rounding: str = ROUND_HALF_EVEN) -> str:
    """``value`` rounded to ``k`` significant digits, as plain decimal text."""
    if value == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec, ctx.rounding = k, rounding
        d = Decimal(value.numerator) / Decimal(value.denominator)
    return format(d.normalize(), "f")


# --- sealed answers -----------------------------------------------------------------------------

def _hash(salt: str, form: str) -> str:
    return hashlib.sha256(f"{salt}|{form}".encode()).hexdigest()[:24]


def seal(expected: Any, *, salt: str | None = None, digits: int = 2,
         unit: str | None = None) -> dict[str, Any]:
    """``expected`` kept as salted hashes of its canonical forms: a JSON-able dict
    for a student copy, which :class:`Sealed` checks without knowing the answer
    (``unit``: what a number answer counts, kept beside the hashes).

    >>> s = seal(AnyOf("nobody", "no one"), salt="pepper")
    >>> sorted(s), "nobody" in str(s)
    (['digits', 'hashes', 'kinds', 'salt', 'unit'], False)
    >>> same_answer(Sealed.of(s), "No-one"), same_answer(Sealed.of(s), "Ben")
    (True, False)
    """
    salt = salt if salt is not None else secrets.token_hex(16)
    kinds, hashes = [], []
    for a in _answers(expected):
        kind = kind_of(a)
        kinds.append(kind)
        hashes += [_hash(salt, f) for f in _canonical(kind, a, digits)]
    return {"salt": salt, "digits": digits, "kinds": kinds, "hashes": sorted(set(hashes)),
            "unit": unit}


@dataclass(frozen=True)
class Sealed:
    """An answer known only by its :func:`seal`: ``same_answer(Sealed.of(s), given)``."""

    salt: str
    kinds: tuple[str, ...]
    hashes: frozenset[str]
    digits: int = 2
    unit: str | None = None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Sealed:
        return cls(str(data["salt"]), tuple(data["kinds"]), frozenset(data["hashes"]),
                   int(data.get("digits", 2)), data.get("unit"))

    def matches(self, given: Any, unit: str | None = None) -> bool:
        unit = unit or self.unit
        return any(_hash(self.salt, form) in self.hashes
                   for kind in dict.fromkeys(self.kinds) for form in _given_forms(kind, given, unit))


# --- questions and feedback ---------------------------------------------------------------------

_HOW_TO_WRITE = {
    "card": "write a card, e.g. 8h, 8♥ or eight of hearts",
    "cards": "write the cards, e.g. 7h 8h 9h or seven of hearts, eight of hearts, nine of hearts",
    "number": "write a number or a fraction, e.g. 26, 1/425 or 0.0024",
    "yes/no": "answer yes or no",
}
_UNIT_NAMES = {"chance": "a chance (a fraction, a decimal or a percentage)", "percent": "a percentage"}

Hints = Mapping[Any, str] | Iterable[tuple[Any, str]] | Callable[[str], "str | None"]


class Verdict(NamedTuple):
    """What :func:`check` says: right or not, and the feedback a learner reads."""

    right: bool
    feedback: str


def _options_in(question: str) -> list[str]:
    """The options a question offers in its own words: "Which is a run: A♥ 2♥ 3♥,
    or Q♥ K♥ A♥ (TJ-4)?" offers two."""
    text = re.sub(r"\s*\([A-Z]{1,2}-\d+[a-z]?\)", "", question)
    sentences = [s for s in re.split(r"(?<=[?.!])\s+", text) if " or " in s]
    if not sentences:
        return []
    last = sentences[-1].rstrip("?.! ")
    last = last.rsplit(":", 1)[-1] if ":" in last else last
    head, _, tail = last.rpartition(" or ")
    options = [o for o in re.split(r",\s*", head.strip().rstrip(",")) if o] + [tail]
    return [o.strip() for o in options if o.strip()]


@dataclass(frozen=True)
class Question:
    """A quiz question, exercise or drill: its text, the right answer, hints.

    ``answer`` is anything :func:`same_answer` takes (:class:`AnyOf` for
    synonyms, :class:`Sealed` for an answer kept as hashes).  ``hints`` maps
    a wrong answer (compared with :func:`same_answer`, so any spelling
    matches) to the hint it deserves, or is a function of the given text
    returning a hint or None; ``hint`` (naming the rule id) is said for any
    other wrong answer; ``why`` is the worked answer, shown once the learner
    is right; ``digits`` the significant digits a decimal answer needs;
    ``unit`` what a number answer counts (by default read from the question,
    :func:`unit_of`; "" for none).  An ordinal ("the first one") picks from
    ``choices`` or from the options the question's text offers.

    >>> q = Question("Chance of an out in 5 draws?", "37/156",
    ...              hints={"1/20": "That is the chance for one draw, not five."})
    >>> q.check("2/40")
    (False, 'Not yet. That is the chance for one draw, not five.')
    >>> q.check("banana")[1]
    "Not yet. I can't read 'banana' as a number: write a number or a fraction, e.g. 26, 1/425 or 0.0024."
    >>> Question("How many cards in round 7 (TT-1)?", 9).check("8 cards")
    (False, 'Not yet. You are one off: count once more.')
    >>> Question("How many cards in round 7 (TT-1)?", 9).check("9 points")[1]
    'Not yet. The question asks for a number of cards, and 9 points counts points.'
    """

    text: str
    answer: Any
    hints: Hints = ()
    hint: str = ""
    why: str = ""
    choices: tuple[str, ...] = ()
    digits: int = 2
    unit: str | None = None

    def __post_init__(self) -> None:
        kind_of(self.answer)  # raises TeachError for an answer that can't be checked
        if self.unit is None:
            unit = self.answer.unit if isinstance(self.answer, Sealed) else None
            object.__setattr__(self, "unit", unit or unit_of(self.text) or "")

    @property
    def kind(self) -> str:
        return kind_of(self.answer)

    def _kinds(self) -> list[str]:
        if isinstance(self.answer, Sealed):
            return list(self.answer.kinds)
        return [kind_of(a) for a in _answers(self.answer)]

    def _unit(self) -> str | None:
        return self.unit or None

    def resolve(self, given: Any) -> Any:
        """``given``, or the option an ordinal answer picks ("the second one")."""
        if not isinstance(given, str):
            return given
        words = _words(given).split(" ")
        if words and words[-1] in ("one", "option", "choice", "answer"):
            words = words[:-1]
        if len(words) != 1 or words[0] not in _ORDINALS:
            return given
        options = list(self.choices) or _options_in(self.text)
        k = _ORDINALS[words[0]]
        if options and -len(options) <= k < len(options):
            return options[k]
        return given

    def is_right(self, given: Any) -> bool:
        given = self.resolve(given)
        if self._names_two_choices(given):
            return False  # "go out, or wait": not one answer
        return same_answer(self.answer, given, digits=self.digits, unit=self._unit())

    def _names_two_choices(self, given: Any) -> bool:
        """``given`` names two or more of the choices offered ("left or right")."""
        if not self.choices or not isinstance(given, str):
            return False
        words = f" {_words(given)} "
        named = {_words(c) for c in self.choices if f" {_words(c)} " in words}
        return len(named) > 1

    def readable(self, given: Any) -> bool:
        """False for an answer that is not even of the question's kind (it does
        not count as a try): empty, or "zz" where a number or a card is asked."""
        text = str(given).strip() if given is not None else ""
        if not text:
            return False
        text = str(self.resolve(text))
        if self.choices and "choice" in self._kinds():  # one of the choices offered, or right
            return self.is_right(text) or any(same_answer(c, text) for c in self.choices)
        return self._unreadable(text) is None

    def _hint_for(self, given: str) -> str | None:
        if callable(self.hints):
            return self.hints(given)
        pairs = self.hints.items() if isinstance(self.hints, Mapping) else self.hints
        for wrong, text in pairs:
            if same_answer(wrong, given, digits=self.digits, unit=self._unit()):
                return text
        return None

    def check(self, given: Any) -> tuple[bool, str]:
        """(right?, the feedback a learner reads)."""
        text = str(given).strip() if given is not None else ""
        if not text:
            return False, "Write your answer first."
        given = self.resolve(given)
        text = str(given).strip()
        if self.is_right(given):
            if isinstance(self.answer, Sealed):
                return True, "Right!" + (f" {self.why}" if self.why else "")
            shown = show_answer(_first(self.answer))
            return True, f"Right: {shown}." + (f" {self.why}" if self.why else "")
        specific = self._hint_for(text)
        if specific:
            return False, f"Not yet. {specific}"
        unreadable = self._unreadable(text)
        if unreadable is not None:
            return False, f"Not yet. {unreadable}" + (f" Hint: {self.hint}" if self.hint else "")
        readable = self._wrong_kind(text)
        if readable is not None:
            return False, f"Not yet. {readable}" + (
                f" Hint: {self.hint}" if self.hint and "Hint:" not in readable else "")
        clash = self.unit_clash(text)
        if clash:
            return False, f"Not yet. {clash}" + (f" Hint: {self.hint}" if self.hint else "")
        if self._one_off(given):
            return False, "Not yet. You are one off: count once more." + (
                f" Hint: {self.hint}" if self.hint else "")
        return False, "Not yet." + (f" Hint: {self.hint}" if self.hint else " Try again.")

    def unit_clash(self, text: str) -> str:
        """Why a number with another unit is wrong ("9 points" for a count of
        cards), or "" when its unit fits the question's.

        >>> Question("How many cards in round 7?", 9).unit_clash("9 points")
        'The question asks for a number of cards, and 9 points counts points.'
        """
        unit = self._unit()
        kinds = self._kinds()
        if unit is None or not ({"number", "parts"} & set(kinds)):
            return ""
        n = _as_number(text)
        units = [n.unit] if n is not None else (_parts(text) or ([], []))[1]
        bad = [u for u in units if not _unit_fits(u, unit)]
        if not bad:
            return ""
        asked = _UNIT_NAMES.get(unit, f"a number of {unit}")
        return f"The question asks for {asked}, and {text} counts {bad[0]}."

    def _one_off(self, given: Any) -> bool:
        """A whole-number answer one away from a whole-number expected one."""
        if self._kinds() != ["number"]:
            return False
        got = _as_number(given)
        if got is None or got.value.denominator != 1:
            return False
        return any(same_answer(self.answer, str(got.value + step)) for step in (1, -1))

    def _unreadable(self, text: str) -> str | None:
        """How to answer, when ``text`` can't be read as any kind of answer asked."""
        kinds = self._kinds()
        readers: dict[str, Callable[[str], Any]] = {
            "card": as_card, "cards": _card_items, "number": _as_number, "yes/no": as_yes_no}
        if all(k in readers for k in kinds) and all(readers[k](text) is None for k in kinds):
            return f"I can't read {text!r} as {_article(kinds[0])}: {_HOW_TO_WRITE[kinds[0]]}."
        return None

    def _wrong_kind(self, text: str) -> str | None:
        """A message when ``text`` is a number for a name, or not one of the choices."""
        kinds = self._kinds()
        if "choice" in kinds and _as_number(text, nothing=False) is not None and not any(
                f.startswith("rank:") for f in _given_forms("choice", text)):
            return ("This question asks for a name or a word, not a number."
                    + (f" Hint: {self.hint}" if self.hint else ""))
        if self.choices and "choice" in kinds and _words(text) not in {_words(c) for c in self.choices}:
            return "Choose one of: " + ", ".join(self.choices) + "."
        return None


def _article(kind: str) -> str:
    return {"card": "a card", "cards": "cards", "number": "a number", "yes/no": "yes or no"}[kind]


def check(expected: Any, given: Any, *, hints: Hints = (), hint: str = "", why: str = "",
          digits: int = 2, unit: str | None = None, question: str = "") -> Verdict:
    """Check one answer: right or not, and the feedback (the same as a quiz's).

    >>> check(9, "nine cards")
    Verdict(right=True, feedback='Right: 9.')
    >>> check(AnyOf("nobody", "no one", "no winner"), "zero", hint="A tie means no winner (TT-9).")
    Verdict(right=False, feedback='Not yet. This question asks for a name or a word, not a number. Hint: A tie means no winner (TT-9).')
    """
    return Verdict(*Question(question, expected, hints=hints, hint=hint, why=why, digits=digits,
                             unit=unit).check(given))
