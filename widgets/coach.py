"""The coach: a hint (the expert bot's move and its reason), "do it for me",
undo, and optionally the live chance of completing each partial meld.

The coach reads only the learner's observation, like any bot; the odds come
from :mod:`rummy.probability`.  It works with any table that offers
``observation()``, ``act(action)`` and ``undo()``.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from rummy.bots import ExpertBot
from rummy.cards import Card
from widgets.view import View, button, cards_html, esc, html_box, move_words, safe, to_learner

__all__ = ["Coach", "going_out_chances", "meld_chances", "seen_cards"]


def seen_cards(obs: Any) -> list[Card]:
    """Cards the learner has seen go out of reach: the discard piles, as far
    as the observation shows them (public facts only)."""
    return list(obs.discards_seen())


def meld_chances(obs: Any, options: dict[str, Any] | None = None, draws: int = 3
                 ) -> list[tuple[str, str]]:
    """(partial meld, chance in words) for the learner's hand: for each meld
    an unseen card would complete or extend, the chance of drawing one of
    those cards from the stock next time and within ``draws`` draws
    (:func:`rummy.probability.outs` and :func:`~rummy.probability.p_at_least_one`).

    >>> from rummy import new_game
    >>> g = new_game("gin_three", seed=4)
    >>> rows = meld_chances(g.observe(g.current_player))
    >>> all("next draw" in text for _meld, text in rows)
    True
    """
    from rummy import probability

    hand = tuple(obs.hand_in_play)
    if not hand:
        return []
    v = obs.variant
    known = {o.name for o in v.options}
    opts = {k: val for k, val in (options or {}).items() if k in {"aces", "jokers"} & known}
    kw: dict[str, Any] = {"players": len(obs.players), "packs": obs.packs}
    result = probability.outs(hand, v.name, round=obs.number if v.rounds else None,
                              seen=tuple(seen_cards(obs)), **kw, **opts)
    out = []
    for meld, row in result.by_meld.iterrows():
        copies = int(row["copies"])
        one = probability.p_at_least_one(copies, result.unseen, 1)
        more = probability.p_at_least_one(copies, result.unseen, draws)
        done = " (completes your hand)" if row["completes"] else ""
        out.append((f"{meld}: needs {row['cards']}",
                    f"{copies} unseen card{'s' if copies != 1 else ''}; next draw {one} "
                    f"≈ {float(one):.0%}, within {draws} draws ≈ {float(more):.0%}{done}"))
    return out


def going_out_chances(obs: Any, options: dict[str, Any] | None = None, draws: int = 3,
                      samples: int = 600) -> str:
    """"What is my chance of going out within n draws?" for the learner's hand,
    in words: the next draw exactly, and within ``draws`` draws exactly when
    the enumeration is small, else simulated with a 95% interval
    (:func:`rummy.probability.going_out_chance`; in Gin, the chance of being able to
    knock, G-6).

    >>> from rummy import new_game
    >>> g = new_game("three_thirteen", players=2, seed=3)
    >>> going_out_chances(g.observe(g.current_player)).startswith("Chance of going out")
    True
    """
    from rummy.probability import going_out_chance

    hand = tuple(obs.hand_in_play)
    if not hand:
        return ""
    v = obs.variant
    known = {o.name for o in v.options}
    opts = {k: val for k, val in (options or {}).items() if k in {"aces", "jokers"} & known}
    rnd = obs.number
    kw: dict[str, Any] = {"players": len(obs.players), "seen": tuple(seen_cards(obs)),
                          "packs": obs.packs, **opts}
    limit = v.knock_limit if v.family == "gin" else 0
    what = "being able to knock" if limit else "going out"
    one = going_out_chance(hand, v.name, rnd if v.rounds else None, draws=1, limit=limit, **kw)
    if one.probability == 1:
        return f"Chance of {what}: you can do it now."
    more = going_out_chance(hand, v.name, rnd if v.rounds else None, draws=draws, limit=limit,
                            samples=samples, **kw)
    if more.probability is not None:
        within = f"{more.probability} ≈ {float(more.probability):.1%} (exact)"
    else:
        within = (f"≈ {more.value:.0%} (simulated, {more.samples} stocks; 95% interval "
                  f"{more.low:.0%} to {more.high:.0%})")
    return (f"Chance of {what}: on your next draw {one.probability} ≈ "
            f"{float(one.probability or 0):.1%} (exact); within {draws} draws {within}. "
            "Assumes you draw from the stock and keep the best cards each time.")


class Coach(View):
    """The coach panel of a table (``table.coach``)."""

    def __init__(self, table: Any, *, show_odds: bool = False) -> None:
        super().__init__()
        self.table = table
        shared = getattr(table, "message", None)
        if shared is not None:  # one message area per table
            self.message = shared
        self.bot = ExpertBot()
        self.hint_button = button("Hint", "rummy-hint", icon="lightbulb-o",
                                  tooltip="What would the expert do, and why?")
        self.do_it = button("Do it for me", "rummy-do-it",
                            tooltip="Make the expert's move for me")
        self.undo_button = button("Undo", "rummy-undo", icon="undo",
                                  tooltip="Take back my last move")
        self.text = html_box("rummy-hint-text")
        self.odds_toggle = w.Checkbox(value=show_odds, description="Show my chances",
                                      indent=False)
        self.odds_toggle.add_class("rummy-odds-toggle")
        self.odds = html_box("rummy-odds")
        self.hint_button.on_click(lambda _b: self.hint())
        self.do_it.on_click(lambda _b: self.do_it_for_me())
        self.undo_button.on_click(lambda _b: self.undo())
        self.odds_toggle.observe(lambda _c: self.update(self.table.observation()),
                                 names="value")
        self._hinted_for: Any = None
        self._odds_key: Any = None
        self.widget = w.VBox([
            w.HBox([self.hint_button, self.do_it, self.undo_button, self.odds_toggle],
                   layout=w.Layout(flex_flow="row wrap")),
            self.text, self.odds,
            *([] if shared is not None else [self.message]),
        ])
        self.widget.add_class("rummy-coach")
        self.hint_button.add_class("rummy-coach-button")
        self.do_it.add_class("rummy-coach-button")
        self.undo_button.add_class("rummy-coach-button")

    def update(self, obs: Any) -> None:
        """Follow the table: buttons on when the learner must act."""
        mine = (bool(obs.legal_actions) and not obs.is_over
                and not getattr(self.table, "paused", False))
        self.hint_button.disabled = not mine
        self.do_it.disabled = not mine
        # a discard that ended the round (or the game) can be taken back from its review
        self.undo_button.disabled = False
        if self._hinted_for is not None and self._hinted_for != _obs_key(obs):
            self.text.value = ""
            self._hinted_for = None
        if self.odds_toggle.value:
            self._show_odds(obs)
        elif self.odds.value:
            self.odds.value = ""
            self._odds_key = None

    def _show_odds(self, obs: Any) -> None:
        key = (tuple(obs.hand_in_play),
               tuple(seen_cards(obs)), obs.number)
        if key == self._odds_key:
            return  # nothing the chances depend on has changed
        self._odds_key = key
        try:
            rows = meld_chances(obs, getattr(self.table, "options", None))
        except Exception as exc:  # noqa: BLE001 - shown, not raised
            self.odds.value = f"<i>Chances unavailable: {esc(exc)}</i>"
            return
        try:
            out = going_out_chances(obs, getattr(self.table, "options", None))
        except Exception as exc:  # noqa: BLE001 - shown, not raised
            out = f"Chance of going out unavailable: {exc}"
        head = f"<p class='rummy-going-out'>{esc(out)}</p>" if out else ""
        if not rows:
            self.odds.value = head + "<i>No partial meld to complete right now.</i>"
            return
        items = "".join(f"<li>{cards_html(c)}: {cards_html(t)}</li>" for c, t in rows)
        self.odds.value = (head + "<b>Chance of drawing what each partial meld needs</b> "
                           f"<small>(from the stock; discards you saw are counted out)</small>"
                           f"<ul>{items}</ul>")

    def _expert(self) -> tuple[Any, Any, str] | None:
        """(observation, the expert's move, why) for the learner now; None, with a
        notice, when it is not the learner's move."""
        self.clear_message()
        obs = self.table.observation()
        if not obs.legal_actions:
            self.show_notice("Nothing to do now: it is not your move.")
            return None
        return obs, self.bot.choose(obs), self.bot.explain(obs)

    @safe
    def hint(self) -> None:
        """Show the expert's move for the learner and why."""
        found = self._expert()
        if found is None:
            return
        obs, move, why = found
        said = move_words(str(move))
        # many reasons begin with the move ("discard Jc: 10 points, ..."): say it once,
        # in words ("discard the jack of clubs: 10 points, ...")
        first, colon, rest = why.partition(":")
        words = first.split()
        if colon and words and len(words) <= 4 \
                and words[0].casefold() == said.split()[0].casefold():
            same = move_words(first.replace(" discarding ", " ")).casefold() == said.casefold()
            extra = "" if same or len(words) == 1 else f" ({' '.join(words[1:])})"
            why, head = said + extra + colon + rest, ""  # "take ... pile (2c): then ..."
        else:
            head = f"{esc(said)}. "
        self.text.value = f"<b>Coach:</b> {head}<span>{cards_html(to_learner(why))}</span>"
        self._hinted_for = _obs_key(obs)

    @safe
    def do_it_for_me(self) -> None:
        """Make the expert's move for the learner."""
        found = self._expert()
        if found is None:
            return
        _obs, move, why = found
        self.text.value = (f"<b>The coach played for you:</b> {esc(move_words(str(move)))}. "
                           f"<span>{cards_html(to_learner(why))}</span>")
        self.table.act(move)

    @safe
    def undo(self) -> None:
        """Take back the learner's last move (and the bots' moves after it)."""
        self.clear_message()
        self.table.undo()
        self.text.value = ""


def _obs_key(obs: Any) -> tuple[Any, ...]:
    return (len(obs.log), obs.phase, tuple(obs.hand))
