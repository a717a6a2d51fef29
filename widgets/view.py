"""What every view shares: the :class:`View` base (a root box and a message),
handlers that show errors as messages (:func:`safe`), the stylesheet
(:data:`STYLE`), buttons and HTML boxes, the layouts and styles many widgets
share (:func:`shared`), and the words a learner reads: cards as faces and
spoken names (:func:`face`, :func:`cards_html`), moves in words
(:func:`move_words`), refusals and log lines said to "you"
(:func:`learner_error`, :func:`to_learner`, :func:`second_person`).

Nothing here knows a game rule.
"""

from __future__ import annotations

import functools
import html
import re
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

__all__ = ["View", "STYLE", "left_over", "esc", "safe", "button", "html_box", "friendly_error",
           "learner_error", "move_words", "to_learner", "second_person", "face",
           "cards_as_faces", "cards_html", "spoken", "plain", "rule_codes"]

F = TypeVar("F", bound=Callable[..., Any])

#: One stylesheet, added once per view root (an ``HTML`` widget with a
#: ``<style>`` element), so the tables look like a card table in JupyterLab and
#: in Voilà alike: a green felt with the other seats around the piles and the
#: learner's seat at the bottom centre, a "Your turn" banner, game controls,
#: coach and options each styled apart, colours with at least 4.5:1 contrast,
#: and rows that wrap at phone width.  The card buttons sit over their SVG
#: pictures: their text (the card's name, read by screen readers) is not drawn.
#: Colours are written rgb(...): a hex colour such as #8d3a00 would read like a
#: card (8d) to the tests' leak checks of the widget state.
STYLE = """
<style>
.rummy-root { max-width: 100%; box-sizing: border-box; }
.rummy-root .widget-hbox, .rummy-root .widget-box { max-width: 100%; }
.rummy-cardbox { position: relative; margin: 0 2px 4px 0; overflow: visible !important; }
/* the chosen card stands up out of the hand; it moves only for those who want motion */
.rummy-hand .rummy-cardbox.rummy-lifted { transform: translateY(-12px); }
@media (prefers-reduced-motion: no-preference) {
  .rummy-hand .rummy-cardbox { transition: transform 120ms ease-out; }
  /* short motion to follow the game: the card drawn slides into the hand, a card
     thrown drops on the pile, the banner glows once when your turn comes, the
     last-move chip fades in (none of it for whoever asked for less motion) */
  .rummy-hand .rummy-drawn { animation: rummy-drawn 320ms ease-out; }
  .rummy-centre .rummy-cardbox .widget-html-content > div { animation: rummy-thrown 240ms ease-out; }
  .rummy-status.rummy-your-turn { animation: rummy-turn 700ms ease-out 1; }
  }
@keyframes rummy-drawn { from { transform: translateY(-40px); opacity: 0.2; } to { transform: none; opacity: 1; } }
@keyframes rummy-thrown { from { transform: translateY(24px) scale(0.9); opacity: 0.4; } to { transform: none; opacity: 1; } }
@keyframes rummy-turn { 0% { box-shadow: 0 0 0 0 rgba(255,179,0,0.9); } 100% { box-shadow: 0 0 0 10px rgba(255,179,0,0); } }
.rummy-sr { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
/* a widget read but not shown (the live region): its text box as small as it is */
.rummy-sr .widget-html-content { width: 1px !important; max-width: 1px; overflow: hidden;
  white-space: normal; }
.rummy-cardbox .rummy-card, .rummy-cardbox .rummy-pile-button {
  background: transparent !important; border: none !important; box-shadow: none !important;
  color: transparent !important; padding: 0 !important; margin: 0 !important;
  font-size: 1px !important; overflow: hidden; white-space: nowrap;
  cursor: pointer; z-index: 2; }
/* the focus ring is drawn inside the card (a ring outside it would be cut off by the
   boxes around it): amber with a dark edge, so it shows on a white card and on the felt */
.rummy-cardbox .rummy-card:focus-visible, .rummy-cardbox .rummy-pile-button:focus-visible,
.rummy-cardbox .rummy-card:focus, .rummy-cardbox .rummy-pile-button:focus {
  outline: 4px solid rgb(255,179,0) !important; outline-offset: -4px !important;
  box-shadow: inset 0 0 0 6px rgb(26,26,26) !important; border-radius: 6px; }
.rummy-cardbox .widget-html, .rummy-cardbox .widget-html-content { margin: 0; padding: 0;
  line-height: 0; }
.rummy-cardbox button:disabled { cursor: default; }
.rummy-meld-group { border: 2px solid rgb(46,125,50); border-radius: 8px; padding: 3px;
  margin: 0 6px 6px 0; background: rgb(232,245,233); }
.rummy-deadwood-group { border: 2px dashed rgb(198,40,40); border-radius: 8px; padding: 3px;
  margin: 0 6px 6px 0; background: rgb(255,243,243); }
.rummy-message { min-height: 1.4em; }
.rummy-message .rummy-error { color: rgb(183,28,28); font-weight: bold; }
.rummy-message .rummy-notice { color: rgb(27,94,32); }
.rummy-log { display: block; max-height: 14em; overflow-y: auto; font-size: 90%;
  border: 1px solid rgb(117,117,117); padding: 4px; background: rgb(250,250,250); color: rgb(33,33,33); }
.rummy-log:focus { outline: 3px solid rgb(21,101,192); }
.rummy-hint-text { font-style: italic; }
.rummy-review { border: 2px solid rgb(106,27,154); border-radius: 8px; padding: 6px 10px;
  background: rgb(255,255,255); color: rgb(33,33,33); }
.rummy-game-over { border: 3px solid rgb(46,125,50); border-radius: 8px; padding: 6px 10px; }
/* the card table: a compact header (title, running scores), the banner, the felt */
.rummy-head { flex-flow: row wrap; align-items: baseline; gap: 4px 14px; }
.rummy-title h1, .rummy-title h2 { margin: 0.1em 0; font-size: 1.35em; line-height: 1.25; }
.rummy-score-strip { font-size: 0.95em; }
.rummy-score-item { display: inline-block; background: rgb(232,245,233); color: rgb(27,60,32);
  border: 1px solid rgb(46,125,50); border-radius: 10px; padding: 0 8px; margin: 1px 2px; }
.rummy-score-label { color: rgb(33,33,33); }
.rummy-news { font-weight: normal; }
/* the last-move chip by the piles: dark text on a light chip, on the felt too */
.rummy-last-move { align-self: center; text-align: center; max-width: 16em; margin: 0 4px; }
.rummy-last-move .widget-html-content { display: inline-block; line-height: 1.4;
  background: rgb(255,248,225); color: rgb(33,33,33) !important; border-radius: 14px;
  padding: 2px 12px; font-size: 0.95em; white-space: normal; }
.rummy-last-move .widget-html-content:empty { display: none; }
.rummy-chip-label { font-weight: bold; }
/* the game's words (widgets.glossary), opened by the "Words" button in the head */
.rummy-glossary { border: 2px solid rgb(21,101,192); border-radius: 8px; padding: 4px 10px;
  background: rgb(255,255,255); color: rgb(33,33,33); max-width: 40em; }
.rummy-glossary dt { font-weight: bold; margin-top: 4px; }
.rummy-glossary dd { margin: 0 0 0 1.2em; }
.rummy-glossary-button { margin: 0 0 0 auto; }
.rummy-count { font-size: 0.85em; white-space: nowrap; }
.rummy-out-tag { background: rgb(255,213,79); color: rgb(26,26,26); border-radius: 8px;
  padding: 0 6px; font-weight: bold; font-size: 0.9em; }
.rummy-felt .rummy-review .widget-html-content, .rummy-felt .rummy-review small,
.rummy-felt .rummy-game-over .widget-html-content { color: rgb(33,33,33); }
.rummy-felt .rummy-game-over { background: rgb(255,255,255); }
.rummy-review-seat { display: inline-block; vertical-align: top; margin: 3px; padding: 4px 6px;
  border: 1px solid rgb(189,189,189); border-radius: 8px; }
.rummy-review-seat.rummy-went-out { border: 3px solid rgb(230,81,0); }
.rummy-seat-pile { display: inline-flex; flex-direction: column; align-items: center; }
.rummy-seat-pile small { color: rgb(255,255,255); }
.rummy-drawer { margin-top: 6px; }
.rummy-felt { background: rgb(29,91,52); color: rgb(255,255,255); border-radius: 28px; padding: 12px 10px 10px;
  border: 6px solid rgb(93,64,55); box-shadow: inset 0 0 40px rgba(0,0,0,0.45); gap: 6px;
  align-items: stretch; }
.rummy-felt .widget-html-content, .rummy-felt small { color: rgb(255,255,255); }
.rummy-top-row, .rummy-ring, .rummy-middle, .rummy-centre { justify-content: center; gap: 6px; }
.rummy-middle { justify-content: space-between; align-items: center; }
.rummy-centre { align-items: flex-start; padding: 6px 0; }
.rummy-opponent { background: rgb(18,61,34); color: rgb(255,255,255); border: 2px solid rgb(11,42,23);
  border-radius: 12px; padding: 4px 8px; margin: 2px; min-width: 7em; }
.rummy-opponent .widget-html-content { color: rgb(255,255,255); }
.rummy-opponent.rummy-current { border: 3px solid rgb(255,213,79); box-shadow: 0 0 10px rgb(255,213,79); }
.rummy-my-seat { background: rgb(253,253,248); color: rgb(33,33,33); border-radius: 16px; padding: 6px 10px;
  margin: 6px auto 0; align-items: center; max-width: 100%; box-sizing: border-box;
  border: 3px solid rgb(11,42,23); }
.rummy-my-seat .widget-html-content, .rummy-my-seat small { color: rgb(33,33,33); }
.rummy-my-seat .rummy-hand { justify-content: center; }
.rummy-seat-label { text-align: center; }
.rummy-turn-tag { background: rgb(255,213,79); color: rgb(26,26,26); border-radius: 8px; padding: 1px 8px;
  font-weight: bold; }
.rummy-status { font-size: 1.05em; padding: 4px 10px; border-radius: 10px; margin: 4px 0;
  background: rgb(236,239,241); color: rgb(38,50,56); border-left: 8px solid rgb(144,164,174); }
.rummy-status.rummy-your-turn { background: rgb(255,224,130); color: rgb(26,26,26); font-weight: bold;
  border-left-color: rgb(230,81,0); font-size: 1.1em; }
.rummy-caller { background: rgb(11,42,23); color: rgb(255,255,255); border-radius: 10px; padding: 4px 10px;
  align-self: center; }
.rummy-caller .widget-html-content, .rummy-caller small { color: rgb(255,255,255); }
.rummy-countdown { background: rgb(183,28,28); color: rgb(255,255,255); border-radius: 10px; padding: 2px 10px; }
.rummy-countdown .widget-html-content { color: rgb(255,255,255); font-weight: bold; }
.rummy-countdown-secs { font-size: 1.6em; }
.rummy-knock-view, .rummy-knock-view .widget-html-content { color: rgb(255,255,255); }
/* game controls: big and bold; coach: purple, outlined; options: quiet and small */
.rummy-root .jupyter-button { border-radius: 8px; }
.rummy-controls .jupyter-button, .rummy-confirmation .jupyter-button,
.rummy-layoffs .jupyter-button, .rummy-moves .jupyter-button, .rummy-next-round {
  min-height: 40px; font-size: 1.05em; font-weight: bold; padding: 0 16px; margin: 3px; }
.rummy-root .jupyter-button.mod-success { background: rgb(27,94,32); color: rgb(255,255,255); }
.rummy-root .jupyter-button.mod-primary { background: rgb(13,71,161); color: rgb(255,255,255); }
.rummy-root .jupyter-button.mod-warning { background: rgb(141,58,0); color: rgb(255,255,255); }
.rummy-root .jupyter-button.mod-danger { background: rgb(183,28,28); color: rgb(255,255,255); }
.rummy-root .jupyter-button:disabled { opacity: 0.45; }
.rummy-root .jupyter-button:focus-visible { outline: 3px solid rgb(255,179,0); outline-offset: 2px; }
.rummy-confirmation { background: rgb(255,248,225); color: rgb(33,33,33); border-radius: 10px; padding: 4px 8px;
  align-items: center; }
.rummy-coach { background: rgb(246,239,250); color: rgb(49,27,146); border-left: 8px solid rgb(106,27,154);
  border-radius: 10px; padding: 4px 8px; margin: 6px 0; }
.rummy-root .jupyter-button { width: auto; min-width: 2.5em; max-width: 100%; }
.rummy-root .widget-dropdown { width: auto; max-width: 100%; }
.rummy-root .widget-dropdown > select { min-width: 5em; }
.rummy-sort .widget-toggle-button { width: auto !important; padding: 0 8px; }
.rummy-coach .jupyter-button { background: rgb(255,255,255); color: rgb(74,20,140); border: 2px solid rgb(106,27,154); }
.rummy-options { background: rgb(245,245,245); color: rgb(66,66,66); border: 1px dashed rgb(158,158,158);
  border-radius: 8px; padding: 2px 8px; margin: 6px 0; font-size: 0.92em; }
.rummy-secondary.jupyter-button { background: rgb(255,255,255); color: rgb(55,71,79); border: 1px solid rgb(96,125,139); }
.rummy-advice-panel .widget-html-content { color: rgb(49,27,146); }
.rummy-details .jupyter-widget-Collapse-header,
.rummy-details .jupyter-widget-Collapse-header span { color: rgb(33,33,33); background: rgb(224,224,224); }
@media (max-width: 600px) {
  .rummy-felt { border-radius: 16px; border-width: 4px; padding: 4px 3px; gap: 3px; }
  .rummy-title h1, .rummy-title h2 { font-size: 1.15em; }
  .rummy-score-strip { font-size: 0.85em; }
  .rummy-status, .rummy-status.rummy-your-turn { font-size: 0.95em; padding: 3px 8px; margin: 2px 0; }
  .rummy-wild { font-size: 0.9em; }
  .rummy-my-seat { padding: 4px 3px; margin-top: 3px; border-width: 2px; }
  /* an app's page: the learner's seat is fixed at the bottom of the screen while the
     rest scrolls; the page keeps room under its end so that nothing stays hidden */
  .rummy-app-table .rummy-my-seat { position: fixed !important; left: 4px; right: 4px;
    bottom: 0; z-index: 30; max-height: 50vh; overflow-y: auto; margin: 0 !important;
    border-radius: 14px 14px 0 0; box-shadow: 0 -2px 10px rgba(0,0,0,0.45); }
  .rummy-app-table { padding-bottom: 52vh; }
  .rummy-my-seat .rummy-hand-summary { display: none; }
  .rummy-hand .rummy-cardbox { width: 44px !important; height: auto !important; margin: 0 1px 3px 0; }
  .rummy-hand .rummy-cardbox svg { width: 42px !important; height: auto !important; }
  .rummy-meld-group, .rummy-deadwood-group { padding: 1px; margin: 0 3px 3px 0; }
  .rummy-centre .rummy-cardbox { width: 50px !important; height: auto !important; }
  .rummy-centre .rummy-cardbox svg { width: 48px !important; height: auto !important; }
  .rummy-centre { padding: 2px 0; }
  .rummy-sort { font-size: 0.85em; }
  .rummy-sort .widget-toggle-button { height: 26px; padding: 0 5px; }
  .rummy-sort > .widget-label { display: none; }
  .rummy-controls .jupyter-button, .rummy-confirmation .jupyter-button,
  .rummy-layoffs .jupyter-button, .rummy-moves .jupyter-button, .rummy-next-round {
    min-height: 36px; font-size: 1em; padding: 0 10px; margin: 2px; }
  .rummy-opponent .rummy-back-svg { display: none; }
  .rummy-ring { flex-wrap: nowrap !important; overflow-x: auto; justify-content: flex-start !important; }
  .rummy-ring > .rummy-opponent { flex: 0 0 auto; }
  .rummy-middle { justify-content: space-around; }
  .rummy-middle > .rummy-centre { order: 2; flex-basis: 100%; }
  /* Three Thirteen: the other seats in one row above the piles */
  .rummy-three-thirteen .rummy-felt { flex-flow: row wrap !important; justify-content: center;
    align-items: flex-start !important; }
  .rummy-three-thirteen .rummy-felt > .rummy-top-row,
  .rummy-three-thirteen .rummy-felt > .rummy-middle,
  .rummy-three-thirteen .rummy-middle > .widget-box:not(.rummy-centre) { display: contents !important; }
  .rummy-three-thirteen .rummy-felt.rummy-reviewing > .rummy-top-row,
  .rummy-three-thirteen .rummy-felt.rummy-reviewing > .rummy-middle { display: none !important; }
  .rummy-three-thirteen .rummy-felt .rummy-opponent { order: 1; flex: 1 1 28%; }
  .rummy-three-thirteen .rummy-felt .rummy-seat-top { order: 1; }
  .rummy-three-thirteen .rummy-felt .rummy-seat-right { order: 1; }
  .rummy-three-thirteen .rummy-felt .rummy-centre { order: 2; flex: 1 1 100%; }
  .rummy-three-thirteen .rummy-felt > .rummy-review-box,
  .rummy-three-thirteen .rummy-felt > .rummy-game-over { order: 3; flex: 1 1 100%; }
  .rummy-three-thirteen .rummy-felt > .rummy-my-seat { order: 4; flex: 1 1 100%; }
  .rummy-opponent { min-width: 0; padding: 2px 5px; font-size: 0.85em; max-width: 11em; }
  .rummy-opponent .widget-html-content { line-height: 1.25; }
  .rummy-seat-label { display: none; }
  .rummy-score-item { padding: 0 5px; margin: 1px; }
  .rummy-head { gap: 0 8px; }
  .rummy-caller { font-size: 0.85em; padding: 2px 8px; }
  .rummy-centre { flex-wrap: nowrap !important; gap: 2px; }
  /* the last-move chip on a row of its own under the piles: beside them it squeezed
     the piles into each other and the stock's focus ring was hidden */
  .rummy-centre:has(> .rummy-last-move) { flex-wrap: wrap !important; }
  .rummy-centre > .rummy-last-move { flex: 1 1 100%; order: 9; max-width: none; margin: 2px 0 0; }
  .rummy-centre .widget-vbox { margin: 0 3px !important; }
  .rummy-centre small { font-size: 0.75em; }
  .rummy-opponent svg { height: 56px; width: auto; }
  .rummy-opponent .widget-hbox { flex-wrap: nowrap; gap: 4px; }
  .rummy-root .widget-slider, .rummy-root .widget-text, .rummy-root .widget-dropdown {
    width: 100% !important; max-width: 100%; }
}
</style>
"""


def esc(text: Any) -> str:
    """HTML-escape anything textual."""
    return html.escape(str(text), quote=True)


#: A card as the engine writes it ("Th", "Jk") or as a face ("T♥", "10♥"), as a word.
_CARD_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])(?:(?P<code>[2-9TJQKA][cdhs]|Jk)|(?P<sym>(?:10|[2-9TJQKA])[♠♥♦♣]|🃏))"
    r"(?![A-Za-z0-9♠♥♦♣])")


_SMALL = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen")


def left_over(points: int, cards: int) -> str:
    """What a round's points are for, as a child reads it.

    >>> left_over(7, 3), left_over(0, 0), left_over(10, 1)
    ('+7: three cards left over', '+0: no cards left over', '+10: one card left over')
    """
    many = _SMALL[cards] if 0 <= cards < len(_SMALL) else str(cards)
    return f"+{points}: {many} card{'s' if cards != 1 else ''} left over"


def face(card: Any) -> str:
    """A card as the learner reads it on the table: rank and suit symbol,
    the ten written 10 as on the card's face.

    >>> from rummy import Card
    >>> face(Card.parse("Th")), face(Card.parse("Jd")), face(Card.parse("Jk"))
    ('10♥', 'J♦', '🃏')
    """
    sym = str(card.symbol)
    return "10" + sym[1:] if sym.startswith("T") else sym


def _token_card(m: re.Match[str]) -> Any:
    from rummy.cards import Card

    text = m.group(0)
    if m.group("sym"):
        text = {"🃏": "Jk"}.get(text, text.replace("10", "T"))
        text = text[:-1] + {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}[text[-1]] \
            if text != "Jk" else text
    if text == "As" and m.group("code"):
        before = m.string[:m.start()].rstrip()
        if not before or before.endswith((".", ":", "!", "?")):
            return None  # the English word "As" starting a sentence
    try:
        return Card.parse(text)
    except ValueError:
        return None


def cards_as_faces(text: str) -> str:
    """Engine shorthand in a sentence (``Th``, ``7c``) written as card faces.

    >>> cards_as_faces("Ben discards Th. The first discard is 7c; Ana took T♣.")
    'Ben discards 10♥. The first discard is 7♣; Ana took 10♣.'
    """
    def sub(m: re.Match[str]) -> str:
        card = _token_card(m)
        return m.group(0) if card is None else face(card)

    return _CARD_TOKEN.sub(sub, text)



def cards_html(text: str) -> str:
    """A sentence as HTML: each card drawn as its face (``10♥``) and named in
    words for screen readers ("the ten of hearts"), the face hidden from them.

    >>> cards_html("Ben discards Th.")
    'Ben discards <span aria-hidden="true">10♥</span><span class="rummy-sr">the ten of \
hearts</span>.'
    """
    out = []
    at = 0
    for m in _CARD_TOKEN.finditer(text):
        card = _token_card(m)
        if card is None:
            continue
        out.append(esc(text[at:m.start()]))
        out.append(f'<span aria-hidden="true">{esc(face(card))}</span>'
                   f'<span class="rummy-sr">the {esc(card.name)}</span>')
        at = m.end()
    out.append(esc(text[at:]))
    return "".join(out)


_MELD = re.compile(r"\[([^\[\]]*)\]")


def spoken(text: str) -> str:
    """A sentence as a screen reader should say it (plain text): each card in
    words, a meld as a list of cards, without the brackets and dashes the log
    writes around it.

    >>> spoken("Ana goes out: [8c 8h 3d], discarding Th.")
    'Ana goes out: the eight of clubs, the eight of hearts and the three of diamonds, \
discarding the ten of hearts.'
    >>> spoken("Ben scores 12: unmelded: 4c 7c Ks.")
    'Ben scores 12: unmelded: the four of clubs, the seven of clubs and the king of spades.'
    >>> spoken("Ben lays off 9♥ onto [6♥-7♥-8♥].")
    'Ben lays off the nine of hearts onto the six of hearts, the seven of hearts and the \
eight of hearts.'
    """
    def named(m: re.Match[str]) -> str:
        card = _token_card(m)
        return m.group(0) if card is None else f"the {card.name}"

    def listed(names: list[str]) -> str:
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def meld(m: re.Match[str]) -> str:
        return listed([_CARD_TOKEN.sub(named, part)
                       for part in re.split(r"[\s,\-–]+", m.group(1)) if part])

    text = _MELD.sub(meld, text)
    # cards written one after another ("unmelded: 4c 7c 4s") are read as a list
    out: list[str] = []
    run: list[str] = []
    at = 0
    for m in _CARD_TOKEN.finditer(text):
        if _token_card(m) is None:
            continue
        gap = text[at:m.start()]
        if run and re.fullmatch(r"[ \-–]+", gap):
            run.append(named(m))
        else:
            if run:
                out.append(listed(run))
            out.append(gap)
            run = [named(m)]
        at = m.end()
    if run:
        out.append(listed(run))
    out.append(text[at:])
    return "".join(out)


_RULE_CODES = re.compile(r"\s*\((?:rules?\s+)?[A-Z]{1,2}-\d+[a-z]?(?:(?:,\s*|\s+and\s+)"
                         r"[A-Z]{1,2}-\d+[a-z]?)*\)")
#: the engine's terms, as a learner at a game table reads them
_PLAIN = [
    (re.compile(r"\bpoints of deadwood\b"), "points left over"),
    (re.compile(r"\bno deadwood\b"), "no cards left over"),
    (re.compile(r"\bmore deadwood\b"), "more points left over"),
    (re.compile(r"\bdeadwood\b"), "left over"),
    (re.compile(r"\bunmelded\b"), "left over"),
    (re.compile(r"\bthe shoe\b"), "the cards in play"),
    (re.compile(r"\bthe knocker's\b"), "the knocking player's"),
    (re.compile(r"\bthe knocker\b"), "the player who knocked"),
    (re.compile(r"\bthe defender\b"), "the other player"),
]


def rule_codes(text: str) -> tuple[str, list[str]]:
    """``text`` without its rule codes in brackets, and those codes (for a "Why?").

    >>> rule_codes("You must draw first (TT-5). You can: draw.")
    ('You must draw first. You can: draw.', ['TT-5'])
    >>> rule_codes("a knock keeps at most 10 (G-6, G-7)")
    ('a knock keeps at most 10', ['G-6', 'G-7'])
    """
    codes: list[str] = []
    for m in _RULE_CODES.finditer(text):
        codes += [c for c in re.findall(r"[A-Z]{1,2}-\d+[a-z]?", m.group(0)) if c not in codes]
    return _RULE_CODES.sub("", text), codes


def plain(text: str) -> str:
    """An engine sentence in plain words for a game table: no rule codes, and
    "left over" for deadwood and unmelded cards.

    >>> plain("Ben knocks, discarding 9c: [4h 5h 6h]; deadwood 2c = 2 (G-6).")
    'Ben knocks, discarding 9c: [4h 5h 6h]; left over 2c = 2.'
    >>> plain("Ana scores 15: no melds; unmelded: 4c 7c 4s.")
    'Ana scores 15: no melds; left over: 4c 7c 4s.'
    """
    text = rule_codes(text)[0]
    for pattern, repl in _PLAIN:
        text = pattern.sub(repl, text)
    return text


def told(line: str) -> str:
    """An engine log sentence as the learner reads it at a table where their
    seat is named "You": in the second person (:func:`second_person`) and in
    plain words (:func:`plain`: no rule codes, "left over" for deadwood).

    >>> told("You draws from the stock (TT-5).")
    'You draw from the stock.'
    """
    return plain(second_person(line))


def friendly_error(exc: BaseException) -> str:
    """The message a learner sees for an exception: its own text, which in
    this kit says what was wrong and what is allowed, written for the learner
    (:func:`learner_error`).

    >>> friendly_error(ValueError("bad card"))
    'Bad card'
    >>> friendly_error(ModuleNotFoundError("No module named 'pandas'", name="pandas"))[:42]
    'This needs the Python package pandas, whic'
    >>> friendly_error(ModuleNotFoundError("No module named 'sqlite3'", name="sqlite3"))[:44]
    'Your answers are checked here but not kept: '
    """
    if isinstance(exc, ImportError) and exc.name == "sqlite3":  # the in-browser site's Python
        return ("Your answers are checked here but not kept: this in-browser site has no "
                "place to keep your record of learning. To keep it, run the kit with make app "
                "or make lab, or open it on Binder.")
    if isinstance(exc, ImportError) and exc.name:
        return (f"This needs the Python package {exc.name.split('.')[0]}, which is not "
                "installed here (the in-browser site has no pandas or matplotlib): run the "
                "kit with make app or make lab, or open it on Binder.")
    return learner_error(str(exc) or type(exc).__name__)


#: A move, as the learner reads it (the engine's action text -> words).
_MOVE_WORDS = {
    "draw stock": "draw from the stock",
    "draw discard": "take the top card of the discard pile",
    "draw pool": "draw from the pool",
    "draw pile": "take the top card of your right neighbour's pile",
    "draw own pile": "take from your own pile",
    "take upcard": "take the upcard",
    "pass": "pass",
    "call match": "call match",
    "play on": "play on",
    "lay out": "stop laying off (Done)",
}
#: A move with a card, when the card is left out (several such moves).
_MOVE_ANY = {
    "discard": "discard a card", "go out": "go out", "knock": "knock", "gin": "go gin",
    "lay off": "lay off a card", "draw pile": _MOVE_WORDS["draw pile"],
}


def move_words(text: str, *, card: bool = True) -> str:
    """An engine action (``"discard 9c"``) in words for the learner.

    >>> move_words("draw stock")
    'draw from the stock'
    >>> move_words("go out 9c")
    'go out, discarding the nine of clubs'
    >>> move_words("discard 9c", card=False), move_words("knock <card>")
    ('discard a card', 'knock')
    """
    from rummy.action import Action

    text = text.strip().strip("'")
    if text in _MOVE_WORDS:
        return _MOVE_WORDS[text]
    verb = text.replace("<card>", "").strip()
    if verb in _MOVE_ANY:
        return _MOVE_ANY[verb]
    try:
        a = Action.parse(text)
    except ValueError:
        return text
    if a.card is None or not card:
        return _MOVE_ANY.get(a.verb, _MOVE_WORDS.get(a.verb, a.verb))
    name = f"the {a.card.name}"
    if a.verb == "discard":
        return f"discard {name}"
    if a.verb in ("go out", "knock", "gin"):
        what = {"go out": "go out", "knock": "knock", "gin": "go gin"}[a.verb]
        return f"{what}, discarding {name}"
    if a.verb == "lay off":
        return f"lay off {name} onto " + " ".join(face(c) for c in a.onto)
    if a.verb == "draw pile":
        return _MOVE_WORDS["draw pile"]
    return text


_ALLOWED = re.compile(r"[;,]? *(?:legal now|legal moves|allowed): *(?P<moves>.*)$")
_HEAD_MOVE = re.compile(r"^'?(?P<move>(?:draw|discard|go out|knock|gin|lay|take|pass|call|play)"
                        r"[^:']*)'?(?:: | is not (?:a legal move|allowed)[^;:]*)")


def learner_error(text: str) -> str:
    """An engine error written for the learner: moves in words instead of
    action strings, "you" for the learner's seat (named "You" by the tables).

    >>> learner_error("discard 9c: You must draw first (TT-5); legal now: "
    ...               "'draw stock', 'draw discard'")
    "You can't discard the nine of clubs now: you must draw first (TT-5). You can: \
draw from the stock, or take the top card of the discard pile."
    >>> learner_error("You can never take from their own pile (BT-3); allowed: draw pool, "
    ...               "draw pile 8d")
    "You can never take from your own pile (BT-3). You can: draw from the pool, or take \
the top card of your right neighbour's pile."
    >>> learner_error("draw stock: You has already drawn this turn; now discard a card, or "
    ...               "go out (e.g. 'discard 9c', 'go out 9c')")
    "You can't draw from the stock now: you have already drawn this turn; now discard a card, \
or go out"
    >>> learner_error("'go out 9c' is not a legal move now; legal moves: 'discard 9c', "
    ...               "'discard Kd'")
    "You can't go out, discarding the nine of clubs now. You can: discard a card."
    >>> learner_error("You has already chosen (draw pool); waiting for Ben, Cleo")
    'You have already chosen to draw from the pool; waiting for Ben, Cleo'
    """
    text = text.strip()
    text = re.sub(r"\bchosen \((?P<move>[^)]+)\)",
                  lambda k: "chosen to " + move_words(k.group("move")), text)
    tail = ""
    m = _ALLOWED.search(text)
    if m:
        moves = [x.strip() for x in re.split(r",\s*(?=')|,\s+(?=[a-z])", m.group("moves"))
                 if x.strip() and not x.strip().startswith("...")]
        words = list(dict.fromkeys(move_words(x, card=len(moves) == 1) for x in moves))
        if words:
            tail = " You can: " + (", ".join(words[:-1]) + ", or " + words[-1]
                                   if len(words) > 1 else words[0]) + "."
        text = text[:m.start()]
    h = _HEAD_MOVE.match(text)
    if h:
        rest = text[h.end():].strip()
        head = f"You can't {move_words(h.group('move'))} now"
        text = head + (": " + rest if rest else "")
    text = re.sub(r"\s*\(e\.g\. '[^)]*\)", "", text)  # examples written as action text
    text = cards_as_faces(second_person(text))
    text = re.sub(r"\b(You|you)( [a-z]+)+ (their|its) own\b", lambda k: k.group(0)[:-len(
        k.group(3) + " own")] + "your own", text)
    text = re.sub(r"([:;,] )You\b", lambda k: k.group(1) + "you", text)
    if tail:
        text = text.rstrip(" ;") + ("" if text.rstrip().endswith((".", "!", "?")) else ".") + tail
    return text[:1].upper() + text[1:]


_FIRST_PERSON = (
    (re.compile(r"\bI am\b"), "you are"), (re.compile(r"\bI'm\b"), "you're"),
    (re.compile(r"\bI\b"), "you"), (re.compile(r"\bmy\b"), "your"),
    (re.compile(r"\bMy\b"), "Your"), (re.compile(r"\bme\b"), "you"),
    (re.compile(r"\bmine\b"), "yours"),
)


def to_learner(text: str) -> str:
    """A bot's explanation of its own move, retold to the learner it advises.

    >>> to_learner("Qc would not lower my 21 points: I draw from the stock")
    'Q♣ would not lower your 21 points: you draw from the stock'
    """
    for pattern, repl in _FIRST_PERSON:
        text = pattern.sub(repl, text)
    return cards_as_faces(text)


def safe(method: F) -> F:
    """Wrap a handler so any exception becomes a message in the view
    (``self.show_error``), never a traceback in the page."""

    @functools.wraps(method)
    def wrapper(self: View, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown to the learner, by design
            self.show_error(exc)
            self.last_traceback = traceback.format_exc()
            return None

    return wrapper  # type: ignore[return-value]


def button(description: str, css: str, *, tooltip: str = "", style: str = "",
           icon: str = "", width: str | None = None) -> w.Button:
    """A button with a stable CSS class."""
    b = w.Button(description=description, tooltip=tooltip or description, button_style=style,
                 icon=icon)
    if width:
        b.layout.width = width
    b.add_class(css)
    return b


#: Layouts and styles that many widgets use unchanged, one front-end model each
#: (a table's page draws faster with fewer models: every card would otherwise
#: bring a layout and a style for its picture and its button).  Never change
#: one of these in place: give the widget a layout of its own instead.
SHARED_MAKERS: dict[str, Callable[[], Any]] = {
    "html": lambda: HTMLStyle(),
    "clear-button": lambda: w.ButtonStyle(button_color="transparent"),
    "card-picture": lambda: w.Layout(grid_area="card"),
    "card-button": lambda: w.Layout(grid_area="card", width="100%", height="100%"),
    "pile-picture": lambda: w.Layout(grid_area="pile"),
    "pile-button": lambda: w.Layout(grid_area="pile", width="100%", height="100%"),
}
_SHARED: dict[str, Any] = {}


def shared(kind: str) -> Any:
    """The one shared layout or style called ``kind`` (made again if it was
    closed).

    >>> shared("card-button") is shared("card-button")
    True
    >>> shared("card-button").width
    '100%'
    """
    obj = _SHARED.get(kind)
    if obj is None or obj.comm is None:
        obj = _SHARED[kind] = SHARED_MAKERS[kind]()
    return obj


def html_box(css: str, value: str = "") -> w.HTML:
    """An HTML widget with a stable CSS class."""
    h = w.HTML(value=value, style=shared("html"))
    h.add_class(css)
    return h


class View:
    """Base of every view: a ``.widget`` root, a ``.message`` and display.

    Composition, not subclassing of ipywidgets: the root box is displayed in
    place of the object (``_repr_mimebundle_`` delegates to it).
    """

    widget: w.Box
    last_traceback: str | None = None

    def __init__(self) -> None:
        self.message = html_box("rummy-message")
        self._style_widget: w.HTML | None = None

    @property
    def _style(self) -> w.HTML:
        """The stylesheet's widget, made when a view first shows it (a view
        inside another view, such as a table's hand, shows none of its own)."""
        if self._style_widget is None:
            self._style_widget = w.HTML(value=STYLE)
            self._style_widget.layout.display = "none"
        return self._style_widget

    def show_error(self, exc: BaseException | str) -> None:
        """Show an error in words in this view's message area."""
        text = exc if isinstance(exc, str) else friendly_error(exc)
        self.message.value = f"<span class='rummy-error' role='alert'>{esc(text)}</span>"

    def show_notice(self, text: str) -> None:
        """Show a neutral notice in the message area."""
        self.message.value = f"<span class='rummy-notice' role='status'>{esc(text)}</span>" \
            if text else ""

    def clear_message(self) -> None:
        """Take away the message under the view."""
        self.message.value = ""

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def close(self) -> None:
        """Close the whole widget tree (front-end models included)."""
        _close_tree(self.widget)


def _close_tree(widget: Any) -> None:
    for child in getattr(widget, "children", ()) or ():
        _close_tree(child)
    widget.close()


_VERB_FIXES = {"has": "have", "is": "are", "was": "were", "goes": "go", "does": "do"}
_YOU_VERB = re.compile(r"\bYou( \([^)]*\))? ([a-z]+)\b")
#: a second verb of the same sentence, after "and" ("You has 3 cards and goes out")
_AND_VERB = re.compile(r" and ([a-z]+)\b")
#: a clause whose subject is "You": "You" opens the sentence or a clause of it
_YOU_CLAUSE = re.compile(r"(?:^|(?<=[.;:,!?] ))You\b[^.;:,!?]*")
#: "You" inside a sentence is written "you" ("deals to Ana and you", "Ana, you")
_MID_YOU = re.compile(r"(?<=[a-z0-9,] )You\b")
#: verbs the engines narrate with, in their third-person form
_NARRATED = frozenset({"advises", "becomes", "calls", "deals", "discards", "draws", "goes",
                       "has", "helps", "holds", "is", "knocks", "lays", "matches", "melds",
                       "passes", "plays", "reaches", "scores", "sits", "stays", "takes",
                       "throws", "turns", "wins"})
#: "You's" before the thing owned reads "your"; at the end of a clause, "yours"
_YOURS = re.compile(r"\bYou's(?!\s+[a-z0-9])")


def _verb(verb: str) -> str:
    """The form of a third-person verb that goes with "you"."""
    if verb in _VERB_FIXES:
        return _VERB_FIXES[verb]
    if verb.endswith(("ches", "shes", "sses", "xes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def as_you(text: str, name: str) -> str:
    """``text`` with the learner's seat, named ``name`` by a shared table's
    engine, called "You" as the kit's own tables call it (then
    :func:`second_person` and :func:`learner_error` make it English).

    >>> as_you("Ana has no complete hand to call match with (BT-4)", "Ana")
    'You has no complete hand to call match with (BT-4)'
    >>> as_you("Ben takes 7h from Ana's pile; Anastasia passes.", "Ana")
    "Ben takes 7h from You's pile; Anastasia passes."
    """
    if not name.strip() or name == "You":
        return text
    return re.sub(rf"(?<![\w']){re.escape(name)}(?!\w)", "You", text)


def second_person(line: str) -> str:
    """Make an engine log sentence about the seat named "You" read as English.

    The engines narrate every seat in the third person ("Ana draws"); for the
    learner's seat, called "You" by the tables, that would read "You draws".

    >>> second_person("You draws from the stock.")
    'You draw from the stock.'
    >>> second_person("Ben takes 7h from You's pile; You (captain) passes.")
    'Ben takes 7h from your pile; You (captain) pass.'
    >>> second_person("You has 3 cards and goes out.")
    'You have 3 cards and go out.'
    >>> second_person("You and Ben hold the same cards and Ben wins.")
    'You and Ben hold the same cards and Ben wins.'
    >>> second_person("discard Js: it is Ana's turn, not You's")
    "discard Js: it is Ana's turn, not yours"
    >>> second_person("You has matched and sits out the rest of this hand")
    'You have matched and sit out the rest of this hand'
    >>> second_person("You deals 10 cards each to You and Ben and turns up 7h.")
    'You deal 10 cards each to you and Ben and turn up 7h.'
    >>> second_person("Ben deals 10 cards each to Ben and You and turns up 7h.")
    'Ben deals 10 cards each to Ben and you and turns up 7h.'
    """

    def fix(m: re.Match[str]) -> str:
        return f"You{m.group(1) or ''} {_verb(m.group(2))}"

    def fix_and(m: re.Match[str]) -> str:
        verb = m.group(1)
        return " and " + (_verb(verb) if verb in _NARRATED else verb)

    def fix_clause(m: re.Match[str]) -> str:
        # every "and <verb>" of a clause whose subject is "You"
        return _AND_VERB.sub(fix_and, m.group(0))

    out = _YOU_VERB.sub(fix, _YOURS.sub("yours", line).replace("You's", "your"))
    out = _YOU_CLAUSE.sub(fix_clause, out)
    return _MID_YOU.sub("you", out)
