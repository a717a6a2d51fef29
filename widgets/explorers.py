"""Explorers: a meld checker, an odds explorer and a rules stepper.

>>> m = MeldChecker()
>>> m.input.value = "7h 8h 9h"
>>> m.check.click()
>>> m.result.value.startswith("<b>Yes")
True
>>> m.input.value = "1x 7h"
>>> m.check.click()
>>> "is not a card" in m.message.value and "1x" in m.message.value
True
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from rummy import render, rulebook
from rummy.cards import JOKER, SUITS, Card, cards, format_cards
from rummy.melds import Meld, why_not
from rummy.search import best_arrangement
from rummy.variants import find_variant, variant_names
from widgets.view import View, button, esc, html_box, safe

__all__ = ["MeldChecker", "OddsExplorer", "RulesStepper", "game_name"]


def _rounds(variant: str) -> int:
    return find_variant(variant).rounds or 1


#: what the games are called on the kit's pages (the start page's names)
_GAME_NAMES = {"big_table": "Big Table", "gin_three": "Gin Rummy for three"}


def game_name(variant: str) -> str:
    """A variant's name as a learner knows it (its title's first part).

    >>> [game_name(v) for v in ("three_thirteen", "three_thirteen_jokers", "big_table")]
    ['Three Thirteen', 'Three Thirteen with jokers', 'Big Table']
    """
    return _GAME_NAMES.get(variant) or find_variant(variant).title.split(",")[0]


def _variant_and_round(v: Any, round: int, css: str) -> tuple[w.Dropdown, w.IntSlider]:
    """The variant chooser (the games by name; the value is the variant's id) and
    the round slider of an explorer (CSS classes ``rummy-<css>-variant`` and
    ``rummy-<css>-round``)."""
    variant = w.Dropdown(options=[(game_name(n), n) for n in variant_names()], value=v.name,
                         description="Game")
    variant.add_class(f"rummy-{css}-variant")
    slider = w.IntSlider(value=round, min=1, max=max(_rounds(v.name), 1), description="Round")
    slider.add_class(f"rummy-{css}-round")
    return variant, slider


class MeldChecker(View):
    """Pick cards (or type them) and ask whether they form a meld.

    The answer and the reason come from the engine (:func:`rummy.why_not`
    under the chosen variant's rules for the chosen round).
    """

    def __init__(self, variant: str = "three_thirteen", round: int = 1, **options: Any) -> None:
        super().__init__()
        self.options = dict(options)
        v = find_variant(variant)
        v.resolve(**options)
        self.variant, self.round = _variant_and_round(v, round, "meld")
        self.rules_text = w.HTML()
        self.input = w.Text(placeholder="cards, e.g. 7h 8h 9h or Qs Qd Jk",
                            description="Cards")
        self.input.add_class("rummy-meld-input")
        self.input.continuous_update = False
        self.check = button("Check", "rummy-meld-check", style="primary")
        self.clear = button("Clear", "rummy-meld-clear")
        self.result = html_box("rummy-meld-result")
        self.picture = html_box("rummy-meld-picture")
        self.picks: list[w.Button] = []
        rows = []
        for s in SUITS:
            row = []
            for r in range(1, 14):
                row.append(self._pick_button(Card(r, s)))
            rows.append(w.HBox(row, layout=w.Layout(flex_flow="row wrap")))
        rows.append(w.HBox([self._pick_button(JOKER)]))
        self.picker = w.VBox(rows)
        self.picker.add_class("rummy-meld-picker")
        self.check.on_click(lambda _b: self.run())
        self.clear.on_click(lambda _b: self._clear())
        self.input.observe(lambda _c: self.run(), names="value")
        self.variant.observe(self._variant_changed, names="value")
        self.round.observe(lambda _c: self.run(), names="value")
        self.widget = w.VBox([
            self._style,
            w.HBox([self.variant, self.round], layout=w.Layout(flex_flow="row wrap")),
            self.rules_text, self.picker,
            w.HBox([self.input, self.check, self.clear], layout=w.Layout(flex_flow="row wrap")),
            self.message, self.result, self.picture,
        ])
        self.widget.add_class("rummy-meld-checker")
        self._show_rules()

    def _pick_button(self, card: Card) -> w.Button:
        b = w.Button(description="Jk" if card.is_joker else card.symbol,
                     tooltip=f"add the {card.name}",
                     layout=w.Layout(width="3.2em", height="2.2em", padding="0"))
        b.style.text_color = render.suit_colour(card.suit)
        b.style.font_weight = "bold"
        b.add_class("rummy-pick-card")
        b.add_class(f"rummy-pick-{card}")
        b.on_click(lambda _b, c=card: self._add(c))
        self.picks.append(b)
        return b

    def rules(self) -> Any:
        """The meld rules being checked against."""
        v = find_variant(self.variant.value)
        opts = {k: val for k, val in self.options.items() if k in {o.name for o in v.options}}
        return v.meld_rules(self.round.value if v.rounds else 1, **opts)

    def _variant_changed(self, _change: Any) -> None:
        self.round.max = max(_rounds(self.variant.value), 1)
        self.round.disabled = find_variant(self.variant.value).rounds is None
        self._show_rules()
        self.run()

    def shoe_problem(self, hand: Sequence[Card]) -> str | None:
        """Why ``hand`` can't come from the variant's shoe (more copies of a
        card than its packs hold, or a joker where there are none), or None.
        The shoe is the variant's own (TT-11, TJ-2, BT-1, G-1) for the
        ``players`` option or the variant's usual number of players.

        >>> m = MeldChecker("three_thirteen")
        >>> m.shoe_problem(cards("Jk Jk Jk"))
        'three_thirteen is played without jokers, so Jk cannot be in a hand'
        >>> m.shoe_problem(cards("7h 7h 7h"))
        'three_thirteen for 4 players deals from 2 packs: 7h can be in a hand at most 2 times, not 3'
        >>> m.shoe_problem(cards("7h 7h 7s")) is None
        True
        """
        v = find_variant(self.variant.value)
        known = {o.name for o in v.options}
        opts = {k: val for k, val in self.options.items() if k in known}
        players = int(self.options.get("players") or v.default_players)
        packs, jokers = v.packs_for(players, **opts), v.jokers(**opts)
        for c, n in Counter(hand).items():
            if c.is_joker:
                if not jokers:
                    return f"{v.name} is played without jokers, so Jk cannot be in a hand"
                if n > jokers:
                    return (f"{v.name} is played with {jokers} jokers here: Jk can be in a hand "
                            f"at most {jokers} times, not {n}")
            elif n > packs:
                return (f"{v.name} for {players} players deals from {packs} "
                        f"pack{'s' if packs != 1 else ''}: {c} can be in a hand at most "
                        f"{packs} time{'s' if packs != 1 else ''}, not {n}")
        return None

    def _jokers_in_play(self) -> int:
        """How many jokers the chosen variant's shoe holds (0: no joker to offer)."""
        v = find_variant(self.variant.value)
        opts = {k: val for k, val in self.options.items() if k in {o.name for o in v.options}}
        return int(v.jokers(**opts))

    def _show_rules(self) -> None:
        rules = self.rules()
        jokers = self._jokers_in_play()
        if not jokers:  # a game without jokers does not speak of them, nor offer one
            rules = dataclasses.replace(rules, jokers_wild=False)
        self.picks[-1].layout.display = None if jokers else "none"
        self.input.placeholder = ("cards, e.g. 7h 8h 9h or Qs Qd Jk" if jokers
                                  else "cards, e.g. 7h 8h 9h or Qs Qd Qc")
        self.rules_text.value = f"<small>{esc(rules.describe())}</small>"

    def _add(self, card: Card) -> None:
        text = self.input.value.strip()
        self.input.value = (text + " " + str(card)).strip()

    def _clear(self) -> None:
        self.input.value = ""
        self.clear_message()
        self.result.value = ""
        self.picture.value = ""

    @safe
    def run(self) -> None:
        """Check the typed cards and show the verdict."""
        self._show_rules()
        self.clear_message()
        self.result.value = ""
        self.picture.value = ""
        text = self.input.value
        if not text.strip():
            self.result.value = "<i>Pick or type some cards.</i>"
            return
        hand = cards(text)  # CardError -> message, via @safe
        problem = self.shoe_problem(hand)
        if problem is not None:
            self.result.value = f"<b>No</b>: {esc(problem)}."
            return
        rules = self.rules()
        reason = why_not(hand, rules)
        if reason is None:
            meld = Meld.of(hand, rules)
            self.result.value = (f"<b>Yes</b>: {esc(format_cards(hand))} is a {meld.kind}"
                                 f" ({esc(str(meld))}).")
            self.picture.value = render.meld_svg(meld, size="small")
            return
        self.result.value = f"<b>No</b>: {esc(reason)}."
        arr = best_arrangement(hand, rules)
        if arr.melds:
            self.picture.value = ("<small>Best arrangement of these cards:</small><br>"
                                  + render.arrangement_svg(arr, size="small", wild=rules))


def _plot_svg(draws: list[int], chance: list[float], complete: list[float],
              title: str) -> str:
    """A small line plot as an SVG string (matplotlib, no pyplot state; where
    matplotlib is missing, as on the static site, :func:`line_plot_svg`)."""
    import io

    try:
        from matplotlib.figure import Figure
    except ImportError:
        return line_plot_svg(draws, chance, complete, title)

    fig = Figure(figsize=(5.2, 2.8), dpi=80)
    fig.subplots_adjust(left=0.12, right=0.97, bottom=0.17, top=0.88)
    ax = fig.add_subplot()
    ax.plot(draws, chance, marker="o", label="at least one out (improves)")
    ax.plot(draws, complete, marker="s", label="a card that completes the hand")
    ax.set_xlabel("draws")
    ax.set_ylabel("chance")
    ax.set_ylim(0, 1)
    ax.set_xticks(draws if len(draws) <= 12 else draws[::2])
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    svg = buf.getvalue()
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def line_plot_svg(draws: list[int], chance: list[float], complete: list[float],
                  title: str) -> str:
    """The odds plot drawn by the kit (no matplotlib): the two chances against the
    number of draws, on a 0-1 scale, with a title and a legend.

    >>> svg = line_plot_svg([1, 2], [0.25, 0.5], [0.0, 0.125], "round 1")
    >>> svg.startswith("<svg") and svg.count("<polyline") == 2 and "<title>" in svg
    True
    """
    width, height, left, right, top, bottom = 416, 224, 48, 12, 28, 36
    span_x = max(max(draws) - min(draws), 1)

    def x(d: float) -> float:
        return left + (d - min(draws)) / span_x * (width - left - right)

    def y(p: float) -> float:
        return top + (1 - min(max(p, 0.0), 1.0)) * (height - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" '
             f'font-size="11"><title>{esc(title)}: chance by number of draws</title>',
             f'<rect width="{width}" height="{height}" fill="#fff"/>',
             f'<text x="{width / 2:.0f}" y="16" text-anchor="middle" font-size="12">'
             f'{esc(title)}</text>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" '
                     f'y2="{y(tick):.1f}" stroke="#ddd"/>'
                     f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
    shown = draws if len(draws) <= 12 else draws[::2]
    for d in shown:
        parts.append(f'<text x="{x(d):.1f}" y="{height - bottom + 14}" '
                     f'text-anchor="middle">{d}</text>')
    parts.append(f'<text x="{width / 2:.0f}" y="{height - 6}" text-anchor="middle">draws</text>')
    series = (("at least one out (improves)", chance, "#1f77b4", "circle"),
              ("a card that completes the hand", complete, "#d62728", "square"))
    for i, (label, values, colour, mark) in enumerate(series):
        points = " ".join(f"{x(d):.1f},{y(v):.1f}" for d, v in zip(draws, values))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                     f'points="{points}"/>')
        for d, v in zip(draws, values):
            if mark == "circle":
                parts.append(f'<circle cx="{x(d):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>')
            else:
                parts.append(f'<rect x="{x(d) - 3:.1f}" y="{y(v) - 3:.1f}" width="6" '
                             f'height="6" fill="{colour}"/>')
        ly = top + 6 + 14 * i
        parts.append(f'<line x1="{left + 8}" x2="{left + 26}" y1="{ly}" y2="{ly}" '
                     f'stroke="{colour}" stroke-width="2"/><text x="{left + 30}" y="{ly + 4}">'
                     f'{esc(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def outs_rows_table(melds: list[tuple[str, str, int, bool]]) -> str:
    """The outs table from :meth:`rummy.probability.Outs.melds` (no pandas), every
    column headed in words, "yes"/"no" instead of True/False.

    >>> html = outs_rows_table([("7h 8h", "9h", 1, False)])
    >>> "<th>partial meld</th>" in html, "<td>no</td>" in html, "rummy-outs-table" in html
    (True, True, True)
    """
    head = "".join(f"<th>{h}</th>" for h in ("partial meld", "cards it needs", "unseen copies",
                                             "completes the hand"))
    body = "".join(f"<tr><td>{esc(m)}</td><td>{esc(c)}</td><td>{n}</td>"
                   f"<td>{'yes' if done else 'no'}</td></tr>" for m, c, n, done in melds)
    return (f'<table class="dataframe rummy-outs-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


class OddsExplorer(View):
    """Sliders for variant, round, packs, jokers and draws: the chance of
    drawing an out for a hand within so many draws, plotted, with the exact
    fraction (all from :mod:`rummy.probability`); a button for the chance
    that a dealt hand is already complete.

    >>> o = OddsExplorer(round=2, hand="7h 8h Kc 2d", draws=3)
    >>> "/" in o.fraction.value and "<svg" in o.plot.value
    True
    """

    def __init__(self, variant: str = "three_thirteen", round: int = 2, packs: int | None = None,
                 jokers: int = 0, draws: int = 5, hand: str = "7h 8h Kc 2d",
                 players: int | None = None) -> None:
        super().__init__()
        v = find_variant(variant)
        self.players = players
        self.variant, self.round = _variant_and_round(v, round, "odds")
        default_packs = v.packs_for(players or v.default_players)
        self.packs = w.IntSlider(value=packs or default_packs, min=1, max=8,
                                 description="Packs")
        self.packs.add_class("rummy-odds-packs")
        self.jokers = w.IntSlider(value=jokers, min=0, max=4, step=2, description="Jokers")
        self.jokers.add_class("rummy-odds-jokers")
        self.draws = w.IntSlider(value=draws, min=1, max=20, description="Draws")
        self.draws.add_class("rummy-odds-draws")
        self.hand = w.Text(value=hand, description="Hand",
                           placeholder="the cards you hold, e.g. 7h 8h Kc 2d")
        self.hand.continuous_update = False
        self.hand.add_class("rummy-odds-hand")
        self.fraction = html_box("rummy-odds-fraction")
        self.plot = html_box("rummy-odds-plot")
        self.table = html_box("rummy-odds-table")
        self.dealt_button = button("Chance a dealt hand is complete", "rummy-odds-dealt",
                                   width="auto")
        self.dealt = html_box("rummy-odds-dealt-result")
        self.dealt_button.on_click(lambda _b: self.dealt_chance())
        for control in (self.round, self.packs, self.jokers, self.draws, self.hand):
            control.observe(lambda _c: self.update(), names="value")
        self.variant.observe(self._variant_changed, names="value")
        self._sync_controls()
        self.widget = w.VBox([
            self._style,
            w.HBox([self.variant, self.round], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.packs, self.jokers, self.draws], layout=w.Layout(flex_flow="row wrap")),
            self.hand, self.message, self.fraction, self.plot, self.table,
            w.HBox([self.dealt_button, self.dealt], layout=w.Layout(flex_flow="row wrap")),
        ])
        self.widget.add_class("rummy-odds-explorer")
        self.update()

    def _sync_controls(self) -> None:
        v = find_variant(self.variant.value)
        self.round.max = max(v.rounds or 1, 1)
        self.round.disabled = v.rounds is None
        self.jokers.disabled = not any(o.name == "jokers" for o in v.options)
        if self.jokers.disabled and self.jokers.value:
            self.jokers.value = 0

    def _variant_changed(self, _change: Any) -> None:
        v = find_variant(self.variant.value)
        self._sync_controls()
        self.packs.value = v.packs_for(self.players or v.default_players)
        self.update()

    def _options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"packs": self.packs.value}
        if self.players is not None:
            opts["players"] = self.players
        if not self.jokers.disabled and self.jokers.value:
            opts["jokers"] = self.jokers.value
        return opts

    @safe
    def update(self) -> None:
        """Recompute the outs, the plot and the exact fraction."""
        from rummy import probability

        self.clear_message()
        # an old answer must not stay under a new question that fails
        self.fraction.value = self.plot.value = self.table.value = ""
        v = find_variant(self.variant.value)
        rnd = self.round.value if v.rounds else None
        o = probability.outs(self.hand.value, v.name, round=rnd, **self._options())
        k = self.draws.value
        p = o.p_within(k)
        pc = o.p_within(k, completing=True)
        self.fraction.value = (
            f"<b>{esc(format_cards(o.hand))}</b>: penalty {o.penalty}; "
            f"{o.count} outs among {o.unseen} unseen cards "
            f"({o.completing} complete the hand).<br>"
            f"Chance of at least one out in {k} draw{'s' if k != 1 else ''}: "
            f"<b>{esc(p)}</b> ≈ {float(p):.1%}; of a completing card: "
            f"<b>{esc(pc)}</b> ≈ {float(pc):.1%}."
        )
        xs = list(range(1, max(k, 2) + 1))
        self.plot.value = _plot_svg(
            xs, [float(o.p_within(x)) for x in xs],
            [float(o.p_within(x, completing=True)) for x in xs],
            f"{v.name}, round {rnd or 1}, {self.packs.value} pack(s)")
        self.table.value = outs_rows_table(o.melds()) if o.count else \
            "<i>No unseen card improves this hand.</i>"

    @safe
    def dealt_chance(self) -> None:
        """The chance that a hand dealt in this round is already complete."""
        from rummy import probability

        v = find_variant(self.variant.value)
        opts = self._options()
        kw: dict[str, Any] = {"packs": opts["packs"], "samples": 3000}
        if "jokers" in opts:
            kw["jokers"] = opts["jokers"]
        if self.players is not None:
            kw["players"] = self.players
        self.dealt.value = ""
        odds = probability.dealt_complete(v.name, self.round.value if v.rounds else 1, **kw)
        self.dealt.value = f"{esc(odds)}"


# ---------------------------------------------------------------------------
# The rules stepper

#: Which rule each kind of move illustrates, per family (teaching labels).
_STEP_RULES: dict[str, dict[str, tuple[str, ...]]] = {
    "three_thirteen": {
        "deal": ("TT-1", "TT-2", "TT-3", "TT-4"), "draw stock": ("TT-5",),
        "draw discard": ("TT-5",), "discard": ("TT-5",), "go out": ("TT-6",),
        "last turn": ("TT-7",), "score": ("TT-8", "M-7"),
    },
    "big_table": {
        "deal": ("BT-1", "BT-2"), "draw pool": ("BT-3",), "draw pile": ("BT-3",),
        "discard": ("BT-3",), "call match": ("BT-4",), "play on": ("BT-5",),
        "last turn": ("BT-5",), "score": ("BT-6", "M-7"),
    },
    "gin": {
        "deal": ("G-2", "G-3"), "take upcard": ("G-4",), "pass": ("G-4",),
        "draw stock": ("G-5",), "draw discard": ("G-5",), "discard": ("G-5",),
        "knock": ("G-6",), "gin": ("G-7",), "lay off": ("G-8",), "lay out": ("G-8",),
        "last turn": (), "score": ("G-9", "G-10", "G-11"),
    },
}


class RulesStepper(View):
    """Walks one scripted round (two or three expert bots, cards face up for
    teaching) move by move; each step shows what happened, in the engine's
    words, and cites the rule it illustrates.

    >>> s = RulesStepper("three_thirteen", seed=1)
    >>> s.steps[0]["rules"][:2]
    ('TT-1', 'TT-2')
    >>> s.next.click(); s.index
    1
    """

    def __init__(self, variant: str = "three_thirteen", seed: int = 1, *,
                 max_steps: int = 80) -> None:
        super().__init__()
        self.variant_name = find_variant(variant).name
        self.seed = seed
        self.max_steps = max_steps
        self.steps: list[dict[str, Any]] = []
        self.index = 0
        self.prev = button("◀ Back", "rummy-rules-prev")
        self.next = button("Next ▶", "rummy-rules-next", style="primary")
        self.counter = w.HTML()
        self.rule = html_box("rummy-rules-rule")
        self.text = html_box("rummy-rules-step")
        self.hands = html_box("rummy-rules-hands")
        self.prev.on_click(lambda _b: self.go(self.index - 1))
        self.next.on_click(lambda _b: self.go(self.index + 1))
        self.widget = w.VBox([
            self._style, w.HBox([self.prev, self.next, self.counter]), self.rule, self.text,
            self.hands, self.message,
        ])
        self.widget.add_class("rummy-rules-stepper")
        self._script()
        self.go(0)

    def _script(self) -> None:
        from rummy import new_game
        from rummy.bots import ExpertBot

        v = find_variant(self.variant_name)
        n = max(v.min_players, 2)
        g = new_game(v, players=n, seed=self.seed)
        bots = [ExpertBot(seed=self.seed + i) for i in range(n)]
        rules_of = _STEP_RULES[v.family]
        seen = 0

        def snapshot() -> str:
            parts = []
            for s, name in enumerate(g.players):
                obs = g.observe(s)
                rules = obs.rules
                if obs.hand:
                    parts.append(f"<div><b>{esc(name)}</b>: "
                                 + render.hand_svg(obs.hand, size="small", wild=rules,
                                                   title=f"{name}'s hand") + "</div>")
            return "".join(parts)

        def new_lines() -> list[str]:
            nonlocal seen
            lines = g.log[seen:]
            seen = len(g.log)
            return lines

        self.steps.append({"rules": rules_of["deal"], "what": "The deal",
                           "lines": new_lines(), "hands": snapshot()})
        start_round = g.number
        anyone_out = False
        for _ in range(self.max_steps):
            if g.is_over:
                break
            p = g.to_act()[0]
            action = bots[p].choose(g.observe(p))
            g.apply(action, player=p)
            now = g.number
            ended = now != start_round or g.is_over
            ids = rules_of.get(action.verb, ())
            if anyone_out and not ended and action.verb not in ("go out", "call match"):
                ids = ids + rules_of["last turn"]
            if action.verb in ("go out", "call match", "knock", "gin"):
                anyone_out = True
            lines = new_lines()
            if ended:
                ids = ids + rules_of["score"]
            self.steps.append({"rules": ids, "what": f"{g.players[p]}: {action}",
                               "lines": lines, "hands": "" if ended else snapshot()})
            if ended:
                break

    def go(self, index: int) -> None:
        """Show step ``index`` (clamped to the script)."""
        self.index = max(0, min(index, len(self.steps) - 1))
        step = self.steps[self.index]
        self.counter.value = f"step {self.index + 1} of {len(self.steps)}"
        ids = ", ".join(step["rules"]) or "—"
        said = "".join(f"<li><b>{esc(r)}</b> {esc(rulebook.rule(r).text)}.</li>"
                       for r in step["rules"])
        self.rule.value = (f"<b>Rule {esc(ids)}</b> <small>(RULES.md)</small>"
                           + (f"<ul>{said}</ul>" if said else ""))
        self.text.value = (f"<b>{esc(step['what'])}</b><br>"
                           + "<br>".join(esc(line) for line in step["lines"]))
        self.hands.value = ("<small>Every hand face up: a scripted round for teaching, not "
                            "a game.</small>" + step["hands"]) if step["hands"] else ""
        self.prev.disabled = self.index == 0
        self.next.disabled = self.index == len(self.steps) - 1
