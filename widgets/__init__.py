"""widgets: the ipywidgets views of the Rummy teaching kit.

Each view holds an engine state from :mod:`rummy` and renders only what its
player may see (``state.observe(player)``); no game rule lives here: every
legal move comes from ``obs.legal_actions``, every check and every score from
the engine, and any engine error (``GameError``, ``CardError`` ...) is shown
as a message in the view, never as a traceback.

Every view is here: the lessons' and the apps' (``widgets.apps`` is what the
app notebooks share), and the classroom's, which talk to the table service.
The package imports :mod:`rummy`, ipywidgets and IPython, and of the table
service only its kernel-side client (:mod:`tableserver.client`,
:mod:`tableserver.progress_client`), never a server module; nothing in
:mod:`rummy` or :mod:`tableserver` imports it.

Every view is a plain Python object with a ``.widget`` (the root ipywidgets
box, displayed when the object is the last thing in a cell) and a
``.message`` (an ``HTML`` widget with CSS class ``rummy-message``).

Public constructors
-------------------
Cards and hands (``widgets.cards``)::

    CardView(card, *, four_colour=False, size="normal", selected=False,
             wild=False, label=None, face_down=False, on_click=None)
    HandView(cards=(), *, rules=None, sort="dealt", four_colour=False,
             size="normal", on_select=None, on_act=None, show_controls=True,
             styled=True)   # styled=False: inside a view that brings the stylesheet
        # sort: "dealt", "suit", "rank" or "melds" (best arrangement first,
        # melds outlined, wilds tagged with what they stand for)

Game tables (``widgets.tables``)::

    ThreeThirteenTable(variant="three_thirteen", *, players=4, learner=0,
                       name="You", bots="expert", seed=None, speed=0.6,
                       four_colour=False, large=False, show_odds=False,
                       heading=2, wait_for_page=False, **options)
        # variants: three_thirteen, tre_tretton, three_thirteen_jokers
        # (three_thirteen_jokers: you against AI players seated left, top, right)
    BigTableTable(players=6, *, learner=0, name="You", bots="expert",
                  seed=None, speed=0.6, match_window=4.0, four_colour=False,
                  large=False, **options)
    GinTable(*, learner=0, name="You", bots="expert", seed=None, speed=0.6,
             four_colour=False, large=False, **options)
    play(variant="three_thirteen", **kw) -> the right table for the variant

    Every table also takes ``heading`` (the level of its title: 1 on an app
    page, 2 in a lesson) and ``wait_for_page`` (True: no bot moves until the
    page has drawn the table and pressed its ``rummy-page-ready`` button, which
    the kit's Voilà template does; the app pages use it).  ``add_panel(title,
    widget)`` puts a panel in the drawer under the table, ``remove_panel``
    takes it out, ``log_html`` is the log as shown, ``score_strip`` the running
    totals.

    ``speed`` is seconds per bot move: 0 applies the bots' moves at once
    (what headless tests use); in a live kernel a positive speed steps them
    with an asyncio task so the learner can follow.  ``bots`` is a bot name
    ("random", "greedy", "expert") or a list of names, one per AI seat.
    Tables expose ``.state`` (the engine game), ``.learner`` (seat),
    ``.observation()`` (the learner's observation, the only thing drawn),
    ``.act(action)`` (the learner's move; raises the engine's error),
    ``.play_move(action)`` (the same, errors shown as a message),
    ``.undo()``, ``.run_bots()``, ``.new_game(seed=None)``, ``.coach``,
    ``.hand`` (a HandView) and ``.message``; ``BigTableTable.miss_match()``
    is what the Match! timer calls when the window closes.

Coach, score sheet, explorers::

    Coach(table, *, show_odds=False)      # hint, "do it for me", undo, odds
    ScoreSheet(state=None, *, title="Score sheet", shown=True, styled=True)
                                          # state.score_sheet() as a table
    MeldChecker(variant="three_thirteen", round=1, **options)
    OddsExplorer(variant="three_thirteen", round=2, packs=None, jokers=0,
                 draws=5, hand="7h 8h Kc 2d", players=None)
    RulesStepper(variant="three_thirteen", seed=1, *, max_steps=80)

Learning by doing (``widgets.quiz``, ``widgets.guided``)::

    Quiz(question, answer, *, hints=(), hint="", why="", choices=())
        # answer(text) -> bool, feedback; answers compared by meaning
        # (rummy.teach.same_answer); hints keyed by the wrong answer

App pages (``widgets.apps``)::

    App(defaults, make, *, show_notes=True, query=None)
        # make(settings) built from the page's address (?seed=7&players=3);
        # a bad setting is reported in words and its default used
    VariantChooser(make_table, *, variant, players, jokers=None, panels=None)
    warm_up(make)          # a preheated Voilà kernel builds a throw-away view

The classroom, through the table service (``widgets.classroom``,
``widgets.join_box``, ``widgets.remote_table``, ``widgets.class_grid``)::

    Classroom(*, api=None, query=None)     # the teacher's page
    JoinBox(code="", name="", *, message="", api=None)
    find_seat(table, name="", api=None)    # a learner's page at ?table=CODE
    shared_table(table, name="", token="", api=None)

Stable CSS classes (for browser tests and app notebooks)
--------------------------------------------------------
Every table root: ``rummy-table``, ``rummy-root`` plus ``rummy-three-thirteen``,
``rummy-big-table`` or ``rummy-gin``; ``rummy-table-ready`` is added once the
first observation is rendered.  Shared by the tables:

- ``rummy-title``: the heading; ``rummy-message``: errors (``.rummy-error``
  inside, ``role=alert``) and notices, never a traceback
- ``rummy-status``: whose turn / the phase, in words
- ``rummy-wild``: the round's wild cards announced
- ``rummy-hand-view`` holds ``rummy-hand`` (the learner's cards) and
  ``rummy-hand-summary`` (melds, unmelded cards, penalty when sorted "melds
  first").  Each card is a ``rummy-cardbox`` (SVG picture with a transparent
  button over it); the button has ``rummy-card`` and ``rummy-card-<text>``
  (e.g. ``rummy-card-Th``, ``rummy-card-Jk``), its tooltip is the card's name
  ("ten of hearts"); the selected card's button also has
  ``rummy-card-selected`` (its box ``rummy-lifted``, drawn raised).  In "melds first" order meld groups are
  ``rummy-meld-group`` and the deadwood group ``rummy-deadwood-group``
- ``rummy-sort`` (sort choice: as dealt / by suit / by rank / melds first),
  ``rummy-four-colour``, ``rummy-large`` (checkboxes), ``rummy-speed`` (bot
  speed slider)
- ``rummy-stock``, ``rummy-discard-pile``: click to draw (pile buttons also
  have ``rummy-pile-button``)
- ``rummy-discard``: discard the selected card (clicking a selected card
  again does the same)
- ``rummy-confirmation`` (hidden until needed) with ``rummy-confirm`` and
  ``rummy-cancel``: the confirmation of going out, knocking or gin
- ``rummy-opponent`` (one per other player, with ``rummy-seat-<n>`` and, where
  seats have positions, ``rummy-seat-left``, ``rummy-seat-top``,
  ``rummy-seat-right``; the player to act also has ``rummy-current``),
  ``rummy-last-action`` inside it
- ``rummy-log``: the narrated log; ``rummy-score-sheet``: the scores
  (inside ``rummy-score-sheet-view``)
- ``rummy-review``: the end-of-round review; ``rummy-next-round``: go on
- ``rummy-game-over``: the final result; ``rummy-new-game``: start again
- ``rummy-moves``: buttons ``rummy-move`` for any legal move not covered by
  a dedicated control (so every legal move is always reachable)
- coach: ``rummy-coach``, ``rummy-hint``, ``rummy-hint-text``, ``rummy-do-it``,
  ``rummy-undo``, ``rummy-odds-toggle``, ``rummy-odds`` (the three coach buttons also
  ``rummy-coach-button``, styled apart from the game's controls)
- the card-table layout, the part you play first: ``rummy-head`` (the title,
  ``rummy-title``, and ``rummy-score-strip``, every player's running total,
  always in view; in a game where the lowest total wins, ranked, each place in
  ``rummy-score-place``; a card just drawn is ``rummy-drawn``; ``rummy-glossary-button``, "Words", opens
  ``rummy-glossary``, the game's words in plain words), ``rummy-status`` (the banner: the other players' moves
  since yours, in ``rummy-news``, then what to do; ``rummy-your-turn`` while the
  learner must act), ``rummy-announce`` (also ``rummy-live``, the polite live
  region, and ``rummy-sr``, read but not shown: only what changed, once, as
  sentences), then ``rummy-play-area`` holding ``rummy-felt`` (the green table:
  ``rummy-top-row``, ``rummy-middle`` or ``rummy-ring`` for the other seats,
  ``rummy-centre`` for the piles, with ``rummy-last-move`` beside them, the chip
  saying what the other players did last, its label in ``rummy-chip-label``) and the
  learner's own seat
  ``rummy-my-seat`` at the bottom centre (``rummy-seat-label``, the hand,
  the game buttons in ``rummy-controls``, the messages); at the end of a
  round ``rummy-review-box`` (the review, ``rummy-review-on-felt``, whose
  seats that went out, knocked or matched have ``rummy-went-out`` and a
  ``rummy-out-tag``) is drawn on the felt in place of the seats and the hand
  (the felt has ``rummy-reviewing`` meanwhile);
  under the table ``rummy-drawer`` (also ``rummy-details``) folds the log, the
  score sheet and ``rummy-options-panel`` (``rummy-options``: four colours,
  large cards, speed; ``rummy-secondary``: New game), and any panel an app
  adds (how to play, the meld checker, the variant form);
  ``rummy-page-ready`` is a hidden button the page's script presses once the
  table is drawn (with ``wait_for_page=True`` the bots wait for it, and the
  table, ``rummy-app-table``, keeps the hand at the bottom of a phone's screen); such an
  app's table keeps its game (:mod:`widgets.saved`) in ``rummy-game-keeper``:
  ``rummy-continue`` (``rummy-continue-note`` and the ``rummy-continue-game``
  button, "Continue this game", shown when the page brought a kept game) and,
  hidden, ``rummy-game-save-in``, ``rummy-game-look`` and ``rummy-game-save-out``

Three-Thirteen: ``rummy-go-out``.  Big Table: ``rummy-caller`` (the caller's
"draw!" / "discard!"), ``rummy-pool``, ``rummy-neighbour-pile`` (click to
take), ``rummy-own-pile`` (clicking it explains BT-3), ``rummy-match``
(``rummy-match-open`` while the learner may call), ``rummy-play-on``,
``rummy-countdown`` (the seconds left to call match, in a live notebook).  Gin:
``rummy-roles``, ``rummy-upcard`` (on the discard-pile button),
``rummy-take-upcard``, ``rummy-decline-upcard``, ``rummy-knock``,
``rummy-gin``, ``rummy-knock-layouts`` (the knocker picks how to lay out,
G-8a), ``rummy-knock-view`` (the knocker's melds), ``rummy-layoffs``
holding ``rummy-lay-off`` buttons and ``rummy-lay-out``; as captain
``rummy-advisor`` (ask) and ``rummy-advice`` (the advice, in
``rummy-advice-panel``); as advisor
``rummy-advise-pause``, ``rummy-advise-input``, ``rummy-advise``,
``rummy-continue``.

Explorers: ``rummy-meld-checker`` with ``rummy-meld-variant``,
``rummy-meld-round``, ``rummy-meld-picker`` (card buttons ``rummy-pick-card``
and ``rummy-pick-<text>``), ``rummy-meld-input``, ``rummy-meld-check``,
``rummy-meld-clear``, ``rummy-meld-result``, ``rummy-meld-picture``;
``rummy-odds-explorer`` with ``rummy-odds-variant``, ``rummy-odds-round``,
``rummy-odds-packs``, ``rummy-odds-jokers``, ``rummy-odds-draws``,
``rummy-odds-hand``, ``rummy-odds-fraction``, ``rummy-odds-plot``,
``rummy-odds-table`` (holding ``rummy-outs-table``), ``rummy-odds-dealt``, ``rummy-odds-dealt-result``;
``rummy-rules-stepper`` with ``rummy-rules-prev``, ``rummy-rules-next``,
``rummy-rules-rule``, ``rummy-rules-step``, ``rummy-rules-hands``.

Progress: ``rummy-progress`` with ``rummy-progress-map`` (``rummy-progress-summary``;
one ``li.rummy-rule`` per rule with ``data-rule``, ``rummy-rule-not-seen``,
``rummy-rule-practising`` or ``rummy-rule-mastered``, ``rummy-rule-due``; inside
``rummy-rule-badge`` (its status in words), ``rummy-rule-status`` and the link
``rummy-practise``; above them ``rummy-progress-step``, what to practise next, with its
link ``rummy-next-step``),
``rummy-progress-refresh``, ``rummy-progress-show``, ``rummy-progress-events``,
``rummy-progress-erase`` (then ``rummy-progress-erase-yes`` / ``-no``),
``rummy-progress-code`` (then ``rummy-recovery-code`` and ``rummy-recovery-qr``); the name
box ``rummy-who`` (``rummy-who-asking`` while it asks) with ``rummy-learner-input``,
``rummy-learner-ok``, ``rummy-learner-code`` and ``rummy-learner-code-ok`` (a recovery
code), ``rummy-learner-change`` and ``rummy-learner-name[data-learner]``; hidden, the
browser's key goes in through ``rummy-learner-key-in`` and ``rummy-learner-resume``, and a
new key comes out in ``rummy-learner-key-out[data-key]``;
``rummy-progress-line`` (the landing page).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CardView",
    "HandView",
    "Coach",
    "ScoreSheet",
    "MeldChecker",
    "OddsExplorer",
    "RulesStepper",
    "ThreeThirteenTable",
    "BigTableTable",
    "GinTable",
    "play",
    "Quiz",
    "GuidedHand",
    "Practice",
    "Drill",
    "Progress",
    "ProgressLine",
    "WhoIsLearning",
    "App",
    "VariantChooser",
    "warm_up",
    "Classroom",
    "JoinBox",
    "find_seat",
    "shared_table",
]

_WHERE = {
    "CardView": "widgets.cards",
    "HandView": "widgets.cards",
    "Coach": "widgets.coach",
    "ScoreSheet": "widgets.scores",
    "MeldChecker": "widgets.explorers",
    "OddsExplorer": "widgets.explorers",
    "RulesStepper": "widgets.explorers",
    "ThreeThirteenTable": "widgets.tables",
    "BigTableTable": "widgets.tables",
    "GinTable": "widgets.tables",
    "play": "widgets.tables",
    "Quiz": "widgets.quiz",
    "GuidedHand": "widgets.guided",
    "Practice": "widgets.practice",
    "Drill": "widgets.practice",
    "Progress": "widgets.progress",
    "ProgressLine": "widgets.progress",
    "WhoIsLearning": "widgets.progress",
    "App": "widgets.apps",
    "VariantChooser": "widgets.apps",
    "warm_up": "widgets.apps",
    "Classroom": "widgets.classroom",
    "JoinBox": "widgets.join_box",
    "find_seat": "widgets.remote_table",
    "shared_table": "widgets.remote_table",
}


def __getattr__(name: str) -> Any:
    # import on first use, so `import widgets` stays light
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'widgets' has no attribute {name!r}")
