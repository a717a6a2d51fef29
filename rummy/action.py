"""Moves as small values with a text form that parses back.

Every engine takes and offers its moves as :class:`Action` values (the game
API of :mod:`rummy.game`); widgets, bots and the table service read and write
them as text:

>>> a = Action.parse("discard 9c")
>>> a, str(a)
(Action.parse('discard 9c'), 'discard 9c')
>>> Action.parse("draw stock").card is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy.cards import Card, CardError, cards, format_cards
from rummy.errors import ActionError

__all__ = ["Action"]


@dataclass(frozen=True, slots=True)
class Action:
    """A move: a verb (``"draw stock"``, ``"discard"``, ``"go out"`` ...), an
    optional card, for lay-offs the meld it goes onto, and for a gin knock
    the melds the knocker lays out (G-8a).

    >>> a = Action.parse("knock Tc with 3c 3d 3h, 4c 4d 4h, 5c 5d 5h")
    >>> len(a.melds), str(a)
    (3, 'knock Tc with 3c 3d 3h, 4c 4d 4h, 5c 5d 5h')
    >>> Action.parse(str(a)) == a
    True
    """

    verb: str
    card: Card | None = None
    onto: tuple[Card, ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()

    @classmethod
    def parse(cls, text: str | Action) -> Action:
        """Read an action from text: words, then optionally a card, then
        optionally ``onto`` and the cards of a meld.

        >>> Action.parse("lay off 5h onto 6h 7h 8h").onto
        (Card.parse('6h'), Card.parse('7h'), Card.parse('8h'))
        >>> Action.parse("")
        Traceback (most recent call last):
        ...
        rummy.errors.ActionError: '' is not an action: write a verb such as 'draw stock', then a card if the move needs one, e.g. 'discard 9c'
        """
        if isinstance(text, Action):
            return text
        if not isinstance(text, str) or not text.strip():
            raise ActionError(
                f"{text!r} is not an action: write a verb such as 'draw stock', then a card "
                "if the move needs one, e.g. 'discard 9c'"
            )
        body, _, onto_text = text.strip().partition(" onto ")
        body, has_with, with_text = body.partition(" with ")
        melds: list[tuple[Card, ...]] = []
        if has_with:
            for part in with_text.split(","):
                try:
                    meld = cards(part)
                except CardError as e:
                    raise ActionError(f"{text!r}: the melds after 'with' are not cards: {e}") from None
                if not meld:
                    raise ActionError(f"{text!r}: after 'with' write melds separated by commas, "
                                      "e.g. 'knock Tc with 3c 3d 3h, 4c 4d 4h'")
                melds.append(meld)
        words = body.split()
        card = None
        if len(words) > 1:
            try:
                card = Card.parse(words[-1])
                words = words[:-1]
            except CardError:
                card = None
        try:
            onto = cards(onto_text) if onto_text else ()
        except CardError as e:
            raise ActionError(f"{text!r}: the meld after 'onto' is not cards: {e}") from None
        verb = " ".join(w.lower() for w in words)
        return cls(verb, card, onto, tuple(melds))

    def __str__(self) -> str:
        out = self.verb if self.card is None else f"{self.verb} {self.card}"
        if self.melds:
            out += " with " + ", ".join(format_cards(m) for m in self.melds)
        if self.onto:
            out += " onto " + format_cards(self.onto)
        return out

    def __repr__(self) -> str:
        return f"Action.parse('{self}')"
