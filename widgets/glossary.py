"""The game's words in plain words, a tap away at every table: what a meld, a
set, a run, a wild card, "left over" (deadwood), knocking ... mean.

>>> "<dt>Run</dt>" in glossary_html("three_thirteen")
True
>>> "<dt>Knock</dt>" in glossary_html("gin"), "<dt>Knock</dt>" in glossary_html("big_table")
(True, False)
"""

from __future__ import annotations

import html

__all__ = ["WORDS", "glossary_html", "words_for"]

#: Each word, what it means (written to a learner), and the game families that use
#: it (empty: every family).
WORDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Meld", "a group of cards that belong together: a set or a run. Cards in melds "
             "count nothing.", ()),
    ("Set", "three or four cards of the same rank, such as three sevens.", ()),
    ("Run", "three or more cards in a row in one suit, such as a four, five and six, all "
            "hearts.", ()),
    ("Wild card", "a card that can stand for any card you need in a meld. Which rank "
                  "is wild changes from round to round.", ("three_thirteen", "big_table")),
    ("Joker", "a wild card in every round.", ("three_thirteen",)),
    ("Stock", "the face-down pile you draw a new card from.", ("three_thirteen", "gin")),
    ("Discard pile", "the face-up pile: take its top card, or throw a card onto it at "
                     "the end of your turn.", ("three_thirteen", "gin")),
    ("Left over", "cards in your hand that are in no meld (some players call them "
                  "deadwood). They count against you: aces 1, picture cards 10.", ()),
    ("Go out", "lay down your whole hand in melds, with one card thrown away. Everyone "
               "else gets one more turn.", ("three_thirteen",)),
    ("Lowest score wins", "points are bad: the player with the fewest points at the end "
                          "wins.", ("three_thirteen", "big_table")),
    ("Pool", "the face-down pile in the middle that everyone may draw from.",
     ("big_table",)),
    ("Caller", "the voice that says when everyone draws (\"draw!\") and when everyone "
               "throws a card (\"discard!\").", ("big_table",)),
    ("Call match", "say that your whole hand is in melds: the hand ends.", ("big_table",)),
    ("Upcard", "the first card turned face up after the deal: each player may take it "
               "or pass.", ("gin",)),
    ("Knock", "end the hand when your left-over cards add up to 10 or less: lay your "
              "melds down and the other player counts theirs.", ("gin",)),
    ("Gin", "knock with no cards left over at all: it scores a bonus.", ("gin",)),
    ("Lay off", "after the other player knocks, add your left-over cards to their "
                "melds so that they no longer count.", ("gin",)),
    ("Undercut", "the player who did not knock has as few points left over as the "
                 "player who knocked, or fewer: they win the hand.", ("gin",)),
    ("Box", "the player who plays alone against the captain, hand after hand.", ("gin",)),
    ("Captain", "the player who plays against the box.", ("gin",)),
    ("Advisor", "the third player: sits out this hand and may help the captain.",
     ("gin",)),
)


def words_for(family: str) -> list[tuple[str, str]]:
    """The words a game of ``family`` uses, with what each means.

    >>> [w for w, _ in words_for("big_table")][:3]
    ['Meld', 'Set', 'Run']
    """
    return [(word, meaning) for word, meaning, families in WORDS
            if not families or family in families]


def glossary_html(family: str) -> str:
    """The words of ``family`` as a definition list (HTML)."""
    items = "".join(f"<dt>{html.escape(word)}</dt><dd>{html.escape(meaning)}</dd>"
                    for word, meaning in words_for(family))
    return f"<p><b>Words of the game</b></p><dl>{items}</dl>"
