"""What every game table shares (:class:`GameTable`): the game loop with bots,
messages, the coach, the log, the score sheet, options, the fallback move
buttons and the card-table layout.  Each family's table (:mod:`widgets.tables`)
builds its own controls on it.

A table is built once and then updated from ``state.observe(learner)`` only.
It holds no game rule: the buttons it enables are the moves in
``obs.legal_actions``, every move goes through ``state.apply`` (whose errors
are shown as messages), and every score comes from the engine.  The state is
a local engine, or a shared table's seat (:class:`tableserver.client.RemoteGame`,
which speaks the same calls).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ipywidgets as w

import rummy
from rummy.action import Action
from rummy.bots import Bot, make_bot
from rummy.cards import Card
from rummy.engine import DEFAULT_NAMES, standings
from rummy.errors import GameError
from rummy.rulebook import is_rule, rule
from rummy.variants import Variant, find_variant
from widgets.cards import HandView
from widgets.coach import Coach
from widgets.glossary import glossary_html
from widgets.progress import judged_move
from widgets.saved import GameKeeper
from widgets.scores import ScoreSheet
from widgets.view import (
    View,
    as_you,
    button,
    cards_html,
    esc,
    friendly_error,
    html_box,
    learner_error,
    move_words,
    plain,
    rule_codes,
    safe,
    shared,
    spoken,
    told,
)

_R = TypeVar("_R")

__all__ = ["GameTable", "PAGE_WAIT_S", "display_name"]

_LOG_LINES = 40
#: seconds a table made with ``wait_for_page`` waits at most for its page
PAGE_WAIT_S = 15.0


def _sentences(text: str) -> list[str]:
    """``text`` cut into sentences (after ". ", "! ", "? ").

    >>> _sentences("Your turn: discard a card. You drew 7h. ")
    ['Your turn: discard a card.', 'You drew 7h.']
    """
    return [x.strip() for x in re.split(r"(?<=[.!?…])\s+", text) if x.strip()]


#: A log line that is a player's move (not the scoring or dealing of a round's end).
_MOVE = re.compile(r"^\S+(?: \([^)]*\))? (?:draws|takes|discards|goes out|goes gin|knocks|"
                   r"lays off|calls match|passes|melds every card|plays on)\b")
#: A seat's role after its name in a gin log line ("Ana (captain) draws").
_ROLE_TAG = re.compile(r"^\((?:box|captain|advisor)\) |(?<=\w) \((?:box|captain|advisor)\)(?= )")


def _bot_seed(seed: int | None, seat: int) -> int | None:
    return None if seed is None else seed * 1000 + 7 * seat + 1


def ordinal(n: int) -> str:
    """A place in words a child reads: 1st, 2nd, 3rd, 4th ... 11th, 12th.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def display_name(name: str) -> str:
    """A player's name as the table writes it: capitalised, and "You" for the learner.

    >>> display_name("ben"), display_name("you")
    ('Ben', 'You')
    """
    return "You" if name.lower() == "you" else name[:1].upper() + name[1:]


class GameTable(View):
    """What every table shares: the game loop with bots, messages, the
    coach, the log, the score sheet, options and the fallback move buttons.

    Subclasses build their own controls in ``_build`` and redraw them in
    ``_render(obs)``; ``_covered(action)`` says which legal moves have a
    dedicated control (the others get a plain button in ``rummy-moves``).
    """

    family_css = ""
    title = ""

    def __init__(
        self,
        variant: str | Variant,
        *,
        players: int | Sequence[str] = 4,
        learner: int = 0,
        name: str = "You",
        bots: str | Bot | Sequence[str | Bot | None] = "expert",
        seed: int | None = None,
        speed: float = 0.6,
        four_colour: bool = False,
        large: bool = False,
        show_odds: bool = False,
        source: Any = None,
        heading: int = 2,
        wait_for_page: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        #: bots wait until the page reports it has drawn the table (see :meth:`page_ready`)
        self.wait_for_page = wait_for_page
        self._page_seen = not wait_for_page
        #: a shared table's seat (tableserver.client.RemoteGame) instead of a local engine
        self.source = source
        #: an app's table keeps its game after every move, to continue it on a new page
        self.keeper: GameKeeper | None = None
        if wait_for_page and source is None:
            self.keeper = GameKeeper(self, find_variant(variant).name)
        self.variant = find_variant(variant)
        self.variant.resolve(**options)
        self.options = dict(options)
        self.learner = learner
        self.learner_name = name
        self.bot_spec = bots
        self.player_spec = players
        self.seed = seed
        self.state: Any = None
        self.bots: list[Bot | None] = []
        self._generation = 0
        self._task: asyncio.Task[Any] | None = None
        self._paused = False
        self._obs: Any = None
        self._pending: Action | None = None
        self._scores_key: Any = None

        # options row
        self.speed = w.FloatSlider(value=speed, min=0.0, max=3.0, step=0.1,
                                   description="Bot speed (s)", readout_format=".1f",
                                   style={"description_width": "initial"})
        self.speed.add_class("rummy-speed")
        self.four_colour = w.Checkbox(value=four_colour, description="Four-colour deck",
                                      indent=False)
        self.four_colour.add_class("rummy-four-colour")
        self.large = w.Checkbox(value=large, description="Large cards", indent=False)
        self.large.add_class("rummy-large")
        self.four_colour.observe(lambda _c: self._options_changed(), names="value")
        self.large.observe(lambda _c: self._options_changed(), names="value")
        self.options_row = w.HBox([self.four_colour, self.large, self.speed],
                                  layout=w.Layout(flex_flow="row wrap"))
        self.options_row.add_class("rummy-options")

        level = min(max(int(heading), 1), 5)
        self._sub = level + 1  # the review's and the result's heading level
        self.header = html_box("rummy-title", f"<h{level}>{esc(self.title or self.variant.title)}"
                                              f"</h{level}>")
        self.score_strip = html_box("rummy-score-strip")  # running totals, always in view
        # the page's script presses it once the table is drawn (wait_for_page)
        self.seen_button = button("The table is on screen", "rummy-page-ready")
        self.seen_button.layout.display = "none"
        self.seen_button.on_click(lambda _b: self.page_ready())
        self.wild = html_box("rummy-wild")
        self.status = html_box("rummy-status")  # the banner: "Your turn ..."
        # the live region (read by screen readers, not shown): only what changed, once,
        # as sentences; the banner itself is not re-read on every move
        self.announce = html_box("rummy-announce")
        self.announce.add_class("rummy-live")
        self.announce.add_class("rummy-sr")
        self._heard: tuple[int, int] = (-1, 0)  # (generation, log lines announced)
        self._heard_status = ""
        # what the other player did last, by the piles ("Last move: Ben discards 9♥")
        self.last_move = html_box("rummy-last-move")
        #: the one message that a round or hand ended (who went out, the points)
        self._end_text = ""
        # the log appends: one HTML box per batch of new lines, oldest first, so a
        # screen reader (role=log) hears only what was added
        self.log_view = w.VBox()
        self.log_view.add_class("rummy-log")
        self._log_shown: tuple[int, int] = (0, 0)  # (generation, lines shown)
        self._said = 0  # log lines announced up to here (the learner's last move)
        self.scores = ScoreSheet(None, shown=False, styled=False)  # drawn when its pane opens
        self.moves = w.Box(layout=w.Layout(flex_flow="row wrap"))
        self.moves.add_class("rummy-moves")
        self._move_buttons: list[w.Button] = []

        self.confirm_text = w.HTML(style=shared("html"))
        self.confirm_yes = button("Confirm", "rummy-confirm", style="success")
        self.confirm_no = button("Cancel", "rummy-cancel")
        self.confirm_yes.on_click(lambda _b: self._confirmed())
        self.confirm_no.on_click(lambda _b: self._cancelled())
        self.confirm_box = w.HBox([self.confirm_text, self.confirm_yes, self.confirm_no],
                                  layout=w.Layout(display="none", flex_flow="row wrap"))
        self.confirm_box.add_class("rummy-confirmation")

        self.hand = HandView((), size=self._size(), four_colour=four_colour, styled=False,
                             on_act=self._card_act, on_select=self._card_selected)
        self.seat_label = html_box("rummy-seat-label")
        self.discard_button = button("Discard selected", "rummy-discard", style="primary")
        self.discard_button.on_click(lambda _b: self._discard_selected())

        self.review = html_box("rummy-review")
        self.review.add_class("rummy-review-on-felt")
        self.next_round = button("Next round", "rummy-next-round", style="primary")
        self.next_round.on_click(lambda _b: self.resume())
        self.review_box = w.VBox([self.review, self.next_round],
                                 layout=w.Layout(display="none"))
        self.review_box.add_class("rummy-review-box")
        self.game_over = html_box("rummy-game-over")
        self.game_over.layout.display = "none"
        self.new_game_button = button("New game", "rummy-new-game")
        self.new_game_button.on_click(lambda _b: self._new_game_clicked())

        self.coach = Coach(self, show_odds=show_odds)
        self._message_key: Any = None
        self._build()
        self.widget.add_class("rummy-table")
        self.widget.add_class("rummy-root")
        if wait_for_page:  # an app's page: on a phone the hand stays at the bottom
            self.widget.add_class("rummy-app-table")
        if self.family_css:
            self.widget.add_class(self.family_css)
        self.new_game(seed)
        self.widget.add_class("rummy-table-ready")
        if wait_for_page:
            # a page without the kit's script (another Voilà template) never says it
            # has drawn the table: then the bots start after PAGE_WAIT_S seconds
            with contextlib.suppress(RuntimeError):  # no event loop (a test): by hand
                asyncio.get_running_loop().call_later(PAGE_WAIT_S, self.page_ready)

    # -- to be filled in by each family ----------------------------------------
    @classmethod
    def for_variant(cls, variant: Variant, **kw: Any) -> GameTable:
        """A table of this family for ``variant`` (what :func:`play` calls)."""
        return cls(variant, **kw)

    def _build(self) -> None:
        raise NotImplementedError

    def _render(self, obs: Any) -> None:
        raise NotImplementedError

    def _covered(self, action: Action) -> bool:
        return False

    #: the round or hand whose review is still to come (None once the game is over)
    _number_seen: int | None = None
    #: what the banner says the learner may do now (plain text; cards as the engine writes
    #: them are drawn as faces and named for screen readers)
    status_text = ""

    @property
    def paused(self) -> bool:
        """True while the review of a round or hand just ended waits for the
        learner to go on (:meth:`resume`)."""
        return self._paused

    def after_move(self) -> None:
        """Called after every move (learner's or bot's): when a round or hand
        has ended (``number`` went up, or the game is over) show its review
        and pause until the learner goes on; then the family's :meth:`_moved`.
        A shared table's page calls it when the service's news arrives."""
        obs = self.observation()
        seen = self._number_seen
        if seen is not None and (obs.number > seen or obs.is_over):
            self._show_review(obs, seen)
            self._end_text = self._end_words(obs, seen)
            self._number_seen = None if obs.is_over else obs.number
            if not obs.is_over:
                self._paused = True
        if self.keeper is not None:
            self.keeper.save()
        self._moved(obs)

    def _moved(self, obs: Any) -> None:
        """Per-family work after every move (timers, holds)."""

    def _show_review(self, obs: Any, number: int) -> None:
        """Show the review of round or hand ``number``, which just ended."""

    def _end_words(self, obs: Any, number: int) -> str:
        """The one message that round or hand ``number`` ended: who went out
        or won it and the points, in a sentence or two (the family's)."""
        return f"Round {number} is over."

    def end_status(self, button: str) -> str:
        """The banner while a review waits: the end message and what to press."""
        return f"{self._end_text} Read the review, then press {button}.".strip()

    def _assemble(self, around: Sequence[w.Widget], actions: w.Widget, *,
                  top: Sequence[w.Widget] = (), above_hand: Sequence[w.Widget] = (),
                  below_hand: Sequence[w.Widget] = ()) -> None:
        """Lay the table out as a card table, the part you play first: a compact
        header (title and the running scores), the "Your turn" banner, then the
        felt with the other seats and the piles (``around``) and the learner's
        own seat at the bottom centre (hand, game controls, messages), so that
        on your turn the hand and the piles are in the first screen on a phone
        too; then the coach; the log, score sheet and options (and any panel an
        app adds with :meth:`add_panel`) fold away in a drawer below.  At the
        end of a round the review is drawn on the felt in place of the seats."""
        self.my_seat = w.VBox([self.seat_label, *above_hand, self.hand.widget, actions,
                               *below_hand, self.confirm_box, self.moves, self.message])
        self.my_seat.add_class("rummy-my-seat")
        actions.add_class("rummy-controls")
        self._around = (*top, self.wild, *around)  # folded while a review is read
        self.felt = w.VBox([*around, self.review_box, self.game_over, self.my_seat])
        self.felt.add_class("rummy-felt")
        self.play_area = w.VBox([*top, self.wild, self.felt])
        self.play_area.add_class("rummy-play-area")
        self.new_game_button.add_class("rummy-secondary")
        # the game's words, a tap away (widgets.glossary)
        self.glossary_button = w.ToggleButton(value=False, description="Words",
                                              tooltip="What the game's words mean",
                                              icon="book")
        self.glossary_button.add_class("rummy-glossary-button")
        self.glossary = html_box("rummy-glossary", glossary_html(self.variant.family))
        self.glossary.layout.display = "none"
        self.glossary_button.observe(
            lambda c: setattr(self.glossary.layout, "display", "" if c["new"] else "none"),
            names="value")
        head = w.HBox([self.header, self.score_strip, self.glossary_button])
        head.add_class("rummy-head")
        details = self._details()
        details.add_class("rummy-details")
        details.add_class("rummy-drawer")
        kept = [self.keeper.widget] if self.keeper is not None else []
        self.widget = w.VBox([
            self._style, head, self.glossary, *kept, self.status, self.announce, self.play_area,
            self.coach.widget, details, self.seen_button,
        ])

    @property
    def log_html(self) -> str:
        """The log as the page shows it (HTML, oldest line first)."""
        return "<br>".join(k.value for k in self.log_view.children)

    def add_panel(self, title: str, widget: w.Widget) -> None:
        """Add a folded panel (how to play, a meld checker, a variant form ...)
        to the drawer under the table."""
        kids = self.details.children
        if widget in kids:
            return
        self.details.children = (*kids, widget)
        self.details.set_title(len(kids), title)

    def remove_panel(self, widget: w.Widget) -> None:
        """Take a panel out of the drawer (it stays open for use elsewhere)."""
        kids = list(self.details.children)
        if widget not in kids:
            return
        titles = [self.details.get_title(i) for i in range(len(kids))]
        k = kids.index(widget)
        del kids[k], titles[k]
        self.details.selected_index = None
        self.details.children = tuple(kids)
        for i, t in enumerate(titles):
            self.details.set_title(i, t)

    def show_error(self, exc: BaseException | str) -> None:
        """Show a refusal in the learner's words (never a traceback), and keep it
        until the table moves on."""
        if isinstance(exc, GameError) and self.learner_name != "You":
            # a shared table's engine names the learner's seat ("Ana has no complete
            # hand"): the learner reads "You have no complete hand"
            exc = learner_error(as_you(str(exc), self.learner_name))
        text = exc if isinstance(exc, str) else friendly_error(exc)
        # the rule's code is not for reading aloud: it is behind "Why?", with the rule
        words, codes = rule_codes(text)
        why = "".join(
            f"<p>{esc(r.title)}: {esc(r.text)}. <small>(rule {esc(r.id)})</small></p>"
            for r in (rule(c) for c in codes if is_rule(c)))
        self.message.value = (f"<span class='rummy-error' role='alert'>{esc(plain(words))}</span>"
                              + (f" <details class='rummy-why'><summary>Why?</summary>{why}"
                                 "</details>" if why else ""))
        self._message_key = self._situation()

    def show_notice(self, text: str) -> None:
        """Show ``text`` until the table moves on."""
        super().show_notice(text)
        self._message_key = self._situation()

    def _situation(self) -> Any:
        """What a message is about: once it changes (a move was made, a review
        shown or closed), an old message is cleared."""
        state = self.state
        return (len(state.history) if state is not None else 0, self._paused,
                self._generation)

    def _you(self, text: str) -> str:
        """An engine sentence as the learner reads it: the seat called "You"
        in the second person ("You lay off", not "You lays off"), in plain words
        (:func:`widgets.view.plain`: no rule codes, "left over" for deadwood)."""
        return told(text) if self.learner_name == "You" else plain(text)

    def _card_selected(self, _card: Card | None) -> None:
        """A card was selected: an old "select a card first" no longer applies."""
        if "rummy-error" in self.message.value:
            self.clear_message()

    def _player_names(self, count: int) -> list[str]:
        others = [n for n in DEFAULT_NAMES if n.lower() != self.learner_name.lower()]
        names = []
        k = 0
        for seat in range(count):
            if seat == self.learner:
                names.append(self.learner_name)
            else:
                names.append(others[k % len(others)])
                k += 1
        return names

    # -- game lifecycle --------------------------------------------------------
    def new_game(self, seed: int | None = None, *, state: Any = None) -> None:
        """Start a new game (same variant, players, bots and options), or go on
        with ``state``, a game of this variant kept from before
        (:class:`widgets.saved.GameKeeper`)."""
        self._generation += 1
        self._paused = False
        spec = self.player_spec
        names = list(spec) if not isinstance(spec, int) else self._player_names(spec)
        if state is not None:
            if state.variant.name != self.variant.name:
                raise GameError(f"this table plays {self.variant.name}, not "
                                f"{state.variant.name}")
            self.state = state
        else:
            self.state = self.source if self.source is not None else rummy.new_game(
                self.variant, players=names, seed=seed, **self.options)
        self.seed = self.state.seed
        n = len(self.state.players)
        if not 0 <= self.learner < n:
            raise GameError(f"learner must be a seat 0..{n - 1}, not {self.learner!r}")
        if isinstance(self.bot_spec, (str, Bot)):
            kinds: list[Any] = [self.bot_spec] * n
        else:
            kinds = list(self.bot_spec)
            others = [s for s in range(n) if s != self.learner]
            if len(kinds) == len(others):  # one per AI seat
                full: list[Any] = [None] * n
                for s, k in zip(others, kinds):
                    full[s] = k
                kinds = full
        self.bots = [None if s == self.learner or kinds[s] is None or self.source is not None
                     else make_bot(kinds[s], seed=_bot_seed(self.seed, s)) for s in range(n)]
        if self.source is not None:  # the service runs the other seats and deals new games
            self.new_game_button.layout.display = "none"
        self.coach.bot.reset()
        self._said = 0
        self.review_box.layout.display = "none"
        self.game_over.layout.display = "none"
        self.clear_message()
        self._start_hooks()
        self._refresh_seen()
        self.refresh()
        self.advance()

    def _start_hooks(self) -> None:
        """Per-family reset at a new game."""

    def _refresh_seen(self) -> None:
        """Remember the round or hand on the table (its review comes when it ends)."""
        obs = self.observation()
        self._number_seen = None if obs.is_over else obs.number

    @safe
    def _new_game_clicked(self) -> None:
        self.new_game(None)

    def observation(self) -> Any:
        """What the learner sees now (the only thing the view reads)."""
        return self.state.observe(self.learner)

    def act(self, action: Action | str) -> None:
        """Make the learner's move through the engine, then let the bots play.

        Raises the engine's error for an illegal move (the buttons catch it
        and show it as a message)."""
        self._pending = None
        self.confirm_box.layout.display = "none"
        if self._paused:
            raise GameError("the round is over: read the review, then press 'Next round'")
        self._said = len(self.observation().log)  # the others' moves from here on are news
        self._send(lambda: judged_move(self, action, lambda: self.state.apply(  # kept (rummy.progress)
            action, player=self.learner)))
        self.clear_message()
        self.after_move()
        self.advance()  # redraws

    def _send(self, move: Callable[[], _R]) -> _R:
        """Make ``move`` on the state.  A shared table refuses a move made on
        a page that had not heard of the latest moves, and sends the table as
        it is now with the refusal: the page then shows that table (the
        refusal's message says why) instead of the one it had drawn."""
        seen = getattr(self.state, "version", None)
        try:
            return move()
        except GameError:
            if getattr(self.state, "version", None) != seen:
                self.after_move()
                self.refresh()
            raise

    @safe
    def play_move(self, action: Action | str) -> None:
        """Like :meth:`act`, but an error becomes a message (for buttons)."""
        self.act(action)

    def undo(self) -> None:
        """Take back the learner's last move (and the bots' moves after it)."""
        if not any(seat == self.learner for seat, _ in self.state.history):
            raise GameError("nothing to undo: you have not moved yet")
        self._generation += 1  # stop a bot task in flight
        self._paused = False
        self.state.undo(player=self.learner)
        self.review_box.layout.display = "none"
        self.game_over.layout.display = "none"
        self._refresh_seen()
        self.show_notice("Move taken back.")
        self.refresh()
        self.advance()

    # -- bots --------------------------------------------------------------------
    def _bots_to_act(self) -> list[int]:
        if self.state.is_over:
            return []
        return [p for p in self.state.to_act() if p != self.learner and self.bots[p] is not None]

    def _bot_step(self) -> bool:
        """One bot move; False when no bot has to act."""
        todo = self._bots_to_act()
        if not todo:
            return False
        p = todo[0]
        bot = self.bots[p]
        assert bot is not None
        bot_obs = self.state.observe(p)
        self.state.apply(bot.choose(bot_obs), player=p)
        self.after_move()
        return True

    def run_bots(self) -> int:
        """Play every pending bot move now (no delay); returns how many."""
        n = 0
        while not self._paused and self._bot_step():
            n += 1
            if n > 100_000:
                raise RuntimeError("the bots did not stop playing")
        return n

    def _live_loop(self) -> asyncio.AbstractEventLoop | None:
        if self.speed.value <= 0:
            return None
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    @safe
    def advance(self) -> None:
        """Let the bots move: at once when ``speed`` is 0 (or no event loop
        runs, as in tests), else one move every ``speed`` seconds."""
        if not self._page_seen:  # the page has not drawn the table yet: no bot moves
            self.refresh()
            return
        loop = self._live_loop()
        if loop is None:
            self.run_bots()
            self.refresh()
            return
        self.refresh()  # show the learner's move now; the bots follow
        if self._task is not None and not self._task.done():
            return  # the running task picks up the new work
        self._task = loop.create_task(self._run_live(self._generation))

    async def _run_live(self, generation: int) -> None:
        try:
            while generation == self._generation and not self._paused and self._bots_to_act():
                await asyncio.sleep(max(self.speed.value, 0.0))
                if generation != self._generation or self._paused:
                    return
                self._bot_step()
                self.refresh()
        except Exception as exc:  # noqa: BLE001 - shown to the learner
            self.show_error(exc)
        finally:
            if generation == self._generation:
                self.refresh()

    @safe
    def resume(self) -> None:
        """After a review: hide it and let the game go on."""
        self._paused = False
        self.review_box.layout.display = "none"
        self._refresh_seen()
        self.refresh()
        self.advance()

    # -- drawing -----------------------------------------------------------------
    def _size(self) -> str:
        return "large" if getattr(self, "large", None) is not None and self.large.value \
            else "normal"

    @safe
    def _options_changed(self) -> None:
        self.hand.set_options(four_colour=self.four_colour.value, size=self._size())
        self.refresh()

    def _details(self) -> w.Accordion:
        """The drawer under the table: the log (open), the score sheet and the
        options (new game, cards, bot speed), each folded.  The sheet is drawn
        only while its pane is open: a table that is never asked for its
        scores never loads pandas."""
        options = w.VBox([self.options_row, self.new_game_button])
        options.add_class("rummy-options-panel")
        details = w.Accordion(children=[self.log_view, self.scores.widget, options])
        details.set_title(0, "What happened (log)")
        details.set_title(1, "Score sheet")
        details.set_title(2, "Options and new game")
        details.selected_index = 0
        details.observe(lambda c: self.scores.show(c["new"] == 1), names="selected_index")
        self.details = details
        return details

    def _render_log(self, obs: Any) -> None:
        """Append the log's new lines (oldest first); redraw it only when it
        went back (undo, a new game) or grew long."""
        lines = obs.log
        gen, shown = self._log_shown
        kids = self.log_view.children
        if gen != self._generation or shown > len(lines) or len(kids) > 60:
            for k in kids:
                k.close()
            kids = ()
            shown = max(0, len(lines) - _LOG_LINES)
        new = lines[shown:]
        if new:
            box = w.HTML("<br>".join(cards_html(self._you(line)) for line in new))
            kids = (*kids, box)
        if kids != self.log_view.children:
            self.log_view.children = kids
        self._log_shown = (self._generation, len(lines))

    def _news_sentences(self, lines: Sequence[str], *, moves_only: bool = False) -> list[str]:
        """The other players' moves among log ``lines``: one sentence per player
        and turn ("Ben draws from the stock and discards Ks."); ``moves_only``
        leaves out the scoring and dealing of a round's end."""
        me = self.learner_name
        news = [line for line in lines
                if not line.startswith((f"{me} ", f"{me}'s ", "Caller:", "Piles start",
                                        "Role draw", "Round ", "Hand "))
                and (not moves_only or _MOVE.match(line))]
        said: list[list[str]] = []
        for line in news:
            who, _, rest = line.rstrip(".").partition(" ")
            if said and said[-1][0] == who and rest:
                # "Ana (captain) draws ... and knocks", not "... and (captain) knocks"
                said[-1].append(_ROLE_TAG.sub("", rest))
            else:
                said.append([who, rest])
        return [self._you(f"{who} {' and '.join(rest)}".strip()) + "."
                for who, *rest in said]

    def _news(self, obs: Any) -> str:
        """What the other players did since the learner's last move, in words
        (HTML: cards as faces, named for screen readers), for the banner."""
        lines = obs.log
        self._said = min(self._said, len(lines))
        tail = self._news_sentences(lines[self._said:])[-3:]
        if not tail:
            return ""
        return f"<span class='rummy-news'>{cards_html(' '.join(tail))}</span> "

    def _announce(self, obs: Any, status: str) -> None:
        """Say in the live region what changed since it last spoke, once: the
        others' moves since then and the new sentences of the banner (a sentence
        the banner keeps, "Ana went out: ...", is not said again)."""
        lines = obs.log
        gen, upto = self._heard
        if gen != self._generation or upto > len(lines):  # a new game, an undo
            upto = min(self._said, len(lines))
            self._heard_status = ""
        # at a round's end only the moves: its one end message says the rest
        news = self._news_sentences(lines[upto:], moves_only=self._paused)[-4:]
        self._heard = (self._generation, len(lines))
        before = set(_sentences(self._heard_status))
        fresh = [x for x in _sentences(status) if x not in before]
        self._heard_status = status
        text = spoken(" ".join(news + fresh))
        if not text:
            return
        if text == self.announce.value:  # the same words again: still news, said again
            text += "\u00a0"
        self.announce.value = esc(text)

    def _last_move_html(self, obs: Any) -> str:
        """The chip by the piles: the other players' last move, in words."""
        if self._paused or obs.is_over:
            return ""
        news = self._news_sentences(obs.log[-16:], moves_only=True)
        if not news:
            return ""
        # the melds laid down are on the table and in the log: the chip stays short
        words = _ROLE_TAG.sub("", news[-1]).split(": [")[0].rstrip(".") + "."
        return f"<span class='rummy-chip-label'>Last move:</span> {cards_html(self._you(words))}"

    def _render_scores(self, obs: Any) -> None:
        names = [display_name(n) for n in obs.players]
        roles = list(getattr(obs, "roles", ()) or ())  # Gin: box, captain, advisor (G-2)
        if self.variant.family == "gin":
            parts = [f"<span class='rummy-score-item'>{esc(n)} <b>{pt}</b>"
                     + (f" <span class='rummy-score-role'>({esc(roles[i])})</span>"
                        if i < len(roles) and roles[i] else "") + "</span>"
                     for i, (n, pt) in enumerate(zip(names, obs.scores))]
            label = f"Score (first to {obs.target} wins)"
        else:
            # points are bad: the players ranked, the lowest total first (TT-9, BT-7)
            ranks, _won = standings(list(obs.scores), low_wins=True, over=False)
            order = sorted(range(len(names)), key=lambda i: (ranks[i], i))
            parts = [f"<span class='rummy-score-item'><span class='rummy-score-place'>"
                     f"{ordinal(ranks[i])}</span> {esc(names[i])} <b>{obs.scores[i]}</b></span>"
                     for i in order]
            label = "Points. Lowest score wins"
        value = f"<span class='rummy-score-label'>{label}:</span> " + " ".join(parts)
        if self.score_strip.value != value:
            self.score_strip.value = value

    def page_ready(self) -> None:
        """The page has drawn the table (its script presses the hidden
        ``rummy-page-ready`` button): the bots may start to play."""
        if self._page_seen:
            return
        self._page_seen = True
        self.advance()

    def refresh(self) -> None:
        """Redraw everything from the learner's observation."""
        obs = self.observation()
        self._obs = obs
        if self._message_key is not None and self._message_key != self._situation():
            self.clear_message()  # the situation the message spoke of has passed
            self._message_key = None
        self._render(obs)
        self._render_moves(obs)
        self.coach.update(obs)
        self._render_log(obs)
        self._render_scores(obs)
        key = (tuple(obs.scores), obs.number, obs.is_over)
        if key != self._scores_key:
            self._scores_key = key
            self.scores.update(self.state)
        over = obs.is_over
        if over:
            self.game_over.layout.display = ""
            self.game_over.value = self._result_html(obs)
        if self._paused:
            self.review_box.layout.display = ""
        folded = self._paused or (over and self.review_box.layout.display != "none")
        show = "none" if folded else ""
        for part in (*self._around, self.my_seat):
            if part.layout.display != show:
                part.layout.display = show
        if folded:  # (the phone layout's CSS must not show the seats again)
            self.felt.add_class("rummy-reviewing")
        else:
            self.felt.remove_class("rummy-reviewing")
        mine = bool(obs.legal_actions) and not self._paused and not over
        if mine:
            self.status.add_class("rummy-your-turn")
        else:
            self.status.remove_class("rummy-your-turn")
        # the banner (a live region): the others' moves since yours, then what to do
        banner = ("" if folded else self._news(obs)) + cards_html(self.status_text)
        if self.status.value != banner:
            self.status.value = banner
        self._announce(obs, self.status_text)
        chip = self._last_move_html(obs)
        if self.last_move.value != chip:
            self.last_move.value = chip
        self.seat_label.value = (f"<b>{esc(self.learner_name)}</b>"
                                 + (" <span class='rummy-turn-tag'>your turn</span>"
                                    if mine else ""))

    def _result_html(self, obs: Any) -> str:
        rows = self.state.summary()
        names = [display_name(n) for n in obs.players]
        winners = [names[i] for i, r in enumerate(rows) if r.get("won")]
        head = (f"<b>{esc(' and '.join(winners))} won the game.</b>" if winners
                else "<b>Nobody wins: a tie for the best total.</b>")
        items = "".join(
            f"<li>{esc(names[i])}: {r['score']} points (place {r['rank']})</li>"
            for i, r in sorted(enumerate(rows), key=lambda ir: ir[1]["rank"]))
        return f"<h{self._sub}>Game over</h{self._sub}>{head}<ol>{items}</ol>"

    def _render_moves(self, obs: Any) -> None:
        extra = [a for a in obs.legal_actions if not self._covered(a)]
        while len(self._move_buttons) < len(extra):
            b = button("", "rummy-move")
            b.on_click(self._move_clicked)
            self._move_buttons.append(b)
        for b, a in zip(self._move_buttons, extra):
            words = move_words(str(a))
            b.description = words[:1].upper() + words[1:]
            b.tooltip = b.description
            b.action = a  # type: ignore[attr-defined]
        shown = tuple(self._move_buttons[:len(extra)])
        if self.moves.children != shown:
            self.moves.children = shown

    def _move_clicked(self, b: w.Button) -> None:
        self.play_move(b.action)  # type: ignore[attr-defined]

    def _legal(self, verb: str, card: Card | None = None) -> list[Action]:
        obs = self._obs or self.observation()
        return [a for a in obs.legal_actions if a.verb == verb
                and (card is None or a.card == card)]

    # -- the learner's hand ------------------------------------------------------
    def _card_act(self, card: Card) -> None:
        """The hand hands over its chosen card (the discard pile was tapped): discard it."""
        self.play_move(Action("discard", card))

    @safe
    def _discard_selected(self) -> None:
        card = self.hand.selected
        if card is None:
            self.show_error("Tap a card in your hand to choose it first, then press Discard "
                            "(or tap the discard pile).")
            return
        self.act(Action("discard", card))

    def _throw(self) -> None:
        """The discard pile was tapped while the learner has to discard: throw
        the chosen card there (a tap on a card only chooses it)."""
        if not self.hand.act():
            self.show_error("Tap a card in your hand to choose it, then tap the discard pile "
                            "to throw it there.")

    def ask_confirm(self, text: str, action: Action) -> None:
        """Show a confirmation for ``action`` (any older message is gone)."""
        self.clear_message()
        self._pending = action
        self.confirm_text.value = f"<b>{esc(text)}</b>"
        self.confirm_box.layout.display = ""

    @safe
    def _confirmed(self) -> None:
        action = self._pending
        self.confirm_box.layout.display = "none"
        if action is None:
            self.show_error("Nothing to confirm.")
            return
        self.act(action)

    @safe
    def _cancelled(self) -> None:
        self._pending = None
        self.confirm_box.layout.display = "none"
        self.show_notice("Cancelled.")

