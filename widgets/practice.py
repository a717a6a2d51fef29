"""Practice: drills one after another, drawn as cards on the felt like the tables.

A thin view over :mod:`rummy.practice` (the engine makes the positions and
computes the answers, :func:`rummy.teach.same_answer` judges them): the view
shows the question, the position's cards (clickable where the answer is
cards), one button per choice, a box to type any answer, *Check*, *Hint*
(three steps: a question, the rule and why, the answer) and *Next*.

In a lesson, one drill for a rule is one line::

    widgets.Drill("TT-7")            # a drill for TT-7; Next deals a new position

and the practice app is ``widgets.Practice()`` (choose a variant or a rule).

Where the kit's server runs (``make app``, ``make classroom``, a hub), the
server judges each answer and keeps it (it deals the drill's position again
from its seed: ``POST /rummy/api/progress/answer``); elsewhere the drill is a
self-check, judged in the kernel, and says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import ipywidgets as w

from rummy import practice, rulebook
from rummy import progress as _p
from rummy.cards import Card
from rummy.teach import as_cards
from widgets.cards import CardView
from widgets.progress import judge_remotely, remember, server_judging
from widgets.quiz import SELF_CHECK, SERVER_CHECK, as_text
from widgets.view import View, button, esc, html_box, safe

__all__ = ["Drill", "Practice"]

_TITLES = {"three_thirteen": "Three Thirteen", "tre_tretton": "Tre-tretton",
           "three_thirteen_jokers": "Three Thirteen with jokers", "big_table": "Big Table",
           "gin_three": "Gin for three"}
#: What the learner can choose to practise: every rule, a variant's rules, or one rule.
TOPICS: tuple[tuple[str, str], ...] = (
    ("Every rule", "all"),
    *((f"All rules of {t}", v) for v, t in _TITLES.items()),
    *((f"Rule {r}", r) for r in rulebook.RULE_IDS),
)


def due_first_drills(topic: str | None = None, *, seed: int = 0,
                     variant: str | None = None) -> Iterator[Any]:
    """Drills one after another for ``topic`` (None: every rule; a variant's
    name; a rule id), each on a new position: each time the rule the
    learner's record says is most overdue (FSRS, :func:`rummy.progress.due_first`),
    then the rules never seen, then the others by when they are due; never
    the same rule twice in a row when there is another.  With ``variant``, each
    drill is dealt from that variant (:func:`rummy.practice.drill`).

    >>> it = due_first_drills("gin_three", seed=5)
    >>> next(it).rule in rulebook.rules_of("gin_three")
    True
    """
    ids: list[str] = ([topic] if topic is not None and topic in practice.generators() else
                      [r for r in practice.rules_of(topic) if r in practice.generators()])
    last, k = None, 0
    while True:
        who = _p.learner()
        events = _p.default_record().events(who) if who else _p.pending()
        order = _p.due_first(events, _p.clock(), ids)
        pick = next((r for r in order if r != last), order[0])
        yield practice.drill(pick, seed + k, variant=variant)
        last, k = pick, k + 1


class Practice(View):
    """``Practice(topic="all", *, seed=0, variant=None)``: drills one after another
    (with ``variant``, each dealt from that variant).

    ``topic`` is ``"all"``, a variant's name (its rules, in order) or a rule
    id (that rule on new positions).  ``answer(text) -> bool`` checks an
    answer, ``hint() -> str`` gives the next of three hints, ``next()`` deals
    the next drill; ``drill`` is the current :class:`rummy.practice.Drill`,
    ``feedback`` the last sentence shown.

    >>> p = Practice("TT-1", seed=2)
    >>> p.answer(str(p.drill.an_answer()))
    True
    >>> p.answer("1"), "TT-1" in p.feedback
    (False, True)
    """

    def __init__(self, topic: str = "all", *, seed: int = 0, choose: bool = True,
                 variant: str | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.variant = variant  # deal every drill from this variant (a lesson's)
        self.feedback = ""
        self.picked: list[Card] = []
        self.hints_given = 0
        self.title = html_box("rummy-title", "<b>Practise the rules</b>")
        self.topic = w.Dropdown(options=TOPICS, value=topic if topic in dict(TOPICS).values()
                                else "all", description="Practise")
        self.topic.add_class("rummy-practice-topic")
        self.topic.observe(lambda _c: self._restart(), names="value")
        self.question = html_box("rummy-practice-question")
        self.facts = html_box("rummy-practice-facts")
        self.felt = w.VBox()
        self.felt.add_class("rummy-felt")
        self.felt.add_class("rummy-practice-felt")
        self.choices = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.choices.add_class("rummy-practice-choices")
        self.typed = w.Text(placeholder="type your answer", continuous_update=False,
                            description="Answer")
        self.typed.add_class("rummy-practice-input")
        # with continuous_update=False the value arrives on Enter (or leaving the box)
        self._quiet = False
        self.typed.observe(self._typed_changed, names="value")
        self.check_button = button("Check", "rummy-practice-check")
        self.check_button.on_click(lambda _b: self.answer(self.typed.value))
        self.hint_button = button("Hint", "rummy-hint", icon="lightbulb-o")
        self.hint_button.on_click(lambda _b: self.hint())
        self.next_button = button("Next drill", "rummy-practice-next")
        self.next_button.on_click(lambda _b: self.next())
        self.feedback_view = html_box("rummy-practice-feedback")
        self.remote = server_judging()
        self.how = html_box("rummy-quiz-how", "<small>" + esc(
            SERVER_CHECK if self.remote else SELF_CHECK) + "</small>")
        head = [self.title, self.topic] if choose else [self.title]
        self.widget = w.VBox([self._style, *head, self.question, self.facts, self.felt,
                              self.choices,
                              w.HBox([self.typed, self.check_button, self.hint_button,
                                      self.next_button]),
                              self.feedback_view, self.how, self.message])
        self.widget.add_class("rummy-practice")
        self.widget.add_class("rummy-root")
        self._restart()

    # -- dealing ------------------------------------------------------------------
    def _restart(self) -> None:
        value = self.topic.value
        self._stream = due_first_drills(None if value == "all" else value, seed=self.seed,
                                        variant=self.variant)
        self.next()

    @safe
    def next(self) -> None:
        """Deal the next drill."""
        self.clear_message()
        self.drill = next(self._stream)
        self.picked = []
        self.hints_given = 0
        self.tries = 0  # answers given to this drill (the first counts for mastery)
        self.solved = ""  # the feedback of the right answer, once given (it stays shown)
        self.feedback = ""
        self.feedback_view.value = ""
        self._set_typed("")
        self._render()

    def _render(self) -> None:
        d = self.drill
        self.title.value = (f"<b>Practise the rules: {esc(d.rule)}</b> "
                            f"<small>({esc(_TITLES.get(d.variant, d.variant))}, a {esc(d.kind)} "
                            "question)</small>")
        self.question.value = f"<p><b>{esc(d.question)}</b></p>"
        self.facts.value = "".join(f"<p>{esc(f)}</p>" for f in d.facts)
        rows = []
        for old in self.felt.children:
            old.close()
        for row in d.rows:
            views = []
            for card in row.cards:
                view = CardView(card, on_click=self._card_clicked if row.pick else None,
                                selected=card in self.picked)
                if not row.pick:
                    view.button.disabled = True
                views.append(view.widget)
            label = html_box("rummy-practice-row", f"<small>{esc(row.label)}</small>")
            line = w.HBox(views, layout=w.Layout(flex_flow="row wrap"))
            rows.append(w.VBox([label, line]))
        self.felt.children = tuple(rows)
        self.felt.layout.display = "" if rows else "none"
        for old in self.choices.children:
            old.close()
        buttons = []
        for choice in d.choices:
            b = button(choice, "rummy-practice-choice")
            b.on_click(lambda _b, c=choice: self._choose(c))
            buttons.append(b)
        self.choices.children = tuple(buttons)

    def _choose(self, choice: str) -> None:
        """A choice button: its words go in the box (so *Check* judges the same answer)."""
        self._set_typed(choice)
        self.answer(choice)

    def _typed_changed(self, change: Any) -> None:
        if not self._quiet and str(change["new"]).strip():
            self.answer(change["new"])

    def _set_typed(self, text: str) -> None:
        self._quiet = True
        try:
            self.typed.value = text
        finally:
            self._quiet = False

    def _card_clicked(self, view: CardView) -> None:
        card = view.card
        if card is None:
            return
        if self.drill.answer_kind == "card":
            self.answer(str(card))
            return
        if card in self.picked:
            self.picked.remove(card)
        else:
            self.picked.append(card)
        self._set_typed(" ".join(c.symbol for c in self.picked))

    # -- answering ------------------------------------------------------------------
    def answer(self, given: Any) -> bool:
        """Check ``given`` (text, a card, True/False); True when right."""
        return bool(self._answer(given))

    @safe
    def _answer(self, given: Any) -> bool:
        self.clear_message()
        if self.solved and (not str(given).strip() or self.drill.check(given).right):
            self._say(self.solved, True)  # a right answer stays shown (Check again, a tap)
            return True
        if isinstance(given, str) and self.drill.answer_kind in ("card", "cards"):
            cards = as_cards(given)
            if cards is not None:
                given = " ".join(map(str, cards))
        if self.remote:
            return self._judged_remotely(given)
        f = self.drill.check(given)
        self._say(f.text, f.right)
        if not f.counted:  # an answer that can't be read is not a try: it says how to answer
            return False
        # kept in the learner's record (rummy.progress), as what this answer was judged
        # by: the rules, or the play (a legal choice weighed against the best, which
        # never counts against the rule); an answer after a hint is not a first try
        remember(self, self.drill.rule, self.drill.question, given, f.right, source="drill",
                 first=self.tries == 0 and self.hints_given == 0, judged=f.judged)
        self.tries += 1
        if f.right:
            self.solved = f.text
        return f.right

    def _judged_remotely(self, given: Any) -> bool:
        """The server deals this drill again from its seed, judges ``given`` and keeps it."""
        body = {"drill": self.drill.rule, "seed": self.drill.seed, "answer": as_text(given),
                "hinted": self.hints_given > 0}
        if self.variant is not None:  # dealt from the lesson's variant: the server deals it so too
            body["variant"] = self.variant
        verdict = judge_remotely(self, body)
        if verdict is None:  # nobody named yet, or no server: the view says why
            return False
        right, text = bool(verdict["right"]), str(verdict["feedback"])
        self._say(text, right)
        if not verdict["counted"]:
            return False
        self.tries += 1
        if right:
            self.solved = text
        return right

    def hint(self) -> str:
        """Show the next of three hints (a question, the rule and why, the answer)."""
        hints = self.drill.hints()
        text = hints[min(self.hints_given, 2)]
        self.hints_given = min(self.hints_given + 1, 3)
        self._say(f"Hint {min(self.hints_given, 3)} of 3: {text}", True, hint=True)
        return text

    def _say(self, text: str, good: bool, hint: bool = False) -> None:
        self.feedback = text
        css = "rummy-practice-hint" if hint else ("rummy-quiz-right" if good else "rummy-quiz-wrong")
        role = "status" if good else "alert"
        self.feedback_view.value = f"<span class='{css}' role='{role}'>{esc(text)}</span>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


class Drill(Practice):
    """``Drill(rule, *, seed=0, variant=None)``: practise one rule (a lesson's one-line drill;
    *Next drill* deals a new position for the same rule).

    >>> d = Drill("TT-7")
    >>> d.drill.rule, d.drill.kind
    ('TT-7', 'move')
    """

    def __init__(self, rule: str, *, seed: int = 0, variant: str | None = None) -> None:
        if rule not in practice.generators():
            raise ValueError(f"no drill for {rule!r}; rule ids are: "
                             + ", ".join(rulebook.RULE_IDS))
        if variant is not None:
            practice.drill(rule, seed, variant=variant)  # a rule its drill can't deal from it: say so now
        super().__init__(rule, seed=seed, choose=False, variant=variant)
