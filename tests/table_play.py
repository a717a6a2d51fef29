"""The game tables driven headless through their own buttons, and the check
that nothing of an opponent's hidden hand reaches the front end.

A helper module of the tests (not a test module), shared by
``tests/test_widgets_tables.py`` and ``tests/test_widgets_table_state.py``:

- one learner decision made with a table's own controls:
  :func:`click_three_thirteen`, :func:`click_big_table`, :func:`click_gin`;
  :func:`play_out` repeats one until a condition holds;
- what the browser receives (:func:`widget_state`, every model a view's
  widget reaches; :func:`front_end_state`, and every model of a
  :func:`tracked` table) and the hidden cards it must not name
  (:func:`hidden_hands`, :func:`leaks`); a test that must show a secret
  never reaches a page (a teacher key, another seat's cards) looks for it in
  :func:`widget_state`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from ipywidgets.widgets.widget import Widget, _instances

from rummy.action import Action
from rummy.cards import Card
from widgets import BigTableTable, GinTable, ThreeThirteenTable

#: A card in an observation's repr.
CARD_TEXT = re.compile(r"Card\.parse\('([^']+)'\)")
#: What a wild card stands for, as the views write it ("=Q♠", "as queen of spades").
STANDS_FOR = re.compile(r"=[^\s<,'\"]+| as [a-z]+ of [a-z]+")
#: A reference to a child widget model (a random id, not content).
MODEL_REF = re.compile(r"IPY_MODEL_[0-9a-f]+")
#: A card in a log line, in the engine's notation.
LOG_CARD = re.compile(r"(?<![A-Za-z0-9])((?:[A2-9TJQK][cdhs])|Jk)(?![A-Za-z])")


def walk(widget: Any) -> list[Any]:
    """Every widget in the tree under ``widget`` (itself included)."""
    out = [widget]
    for child in getattr(widget, "children", ()) or ():
        out.extend(walk(child))
    return out

def tracked(factory: Callable[[], Any]) -> Any:
    """Build a table, remembering which widget models existed before it, so
    that every model it creates (shown or not) can be checked."""
    before = set(_instances)
    table = factory()
    table.models_before = before
    return table


def models(widget: Any) -> list[Any]:
    """Every widget model the page gets with ``widget``: itself and every model
    its state refers to (children, layouts, styles), each once."""
    out: list[Any] = []
    seen: set[int] = set()

    def visit(w: Any) -> None:
        if id(w) in seen or not isinstance(w, Widget):
            return
        seen.add(id(w))
        out.append(w)
        for v in w.get_state().values():
            for x in (v if isinstance(v, (list, tuple)) else [v]):
                if isinstance(x, str) and x.startswith("IPY_MODEL_"):
                    visit(_instances.get(x[len("IPY_MODEL_"):]))
    visit(widget)
    return out


def widget_state(view: Any) -> str:
    """Every widget's state under ``view.widget`` (child models followed), as JSON lines."""
    return "\n".join(json.dumps(m.get_state(), default=str) for m in models(view.widget))


def front_end_state(table: Any) -> str:
    """Everything the browser receives: every widget model's state, as JSON
    (the models of the table's widget, and for a tracked table every model it
    ever created, displayed or not)."""
    states = []
    found = models(table.widget)
    if hasattr(table, "models_before"):
        found += [m for k, m in list(_instances.items()) if k not in table.models_before]
    for wdg in found:
        st = wdg.get_state()
        states.append(json.dumps(st, default=str, ensure_ascii=False))
    # references to child models are random hex ids, not content; what a wild
    # card stands for ("=Q♠", "joker as queen of spades") is not a held card
    text = MODEL_REF.sub("IPY_MODEL", "\n".join(states))
    return STANDS_FOR.sub("", text)


def visible_cards(obs: Any) -> set[Card]:
    """Cards the learner's observation mentions anywhere (own hand, piles,
    melds laid down, the public log ...)."""
    text = repr(obs)
    out = {Card.parse(t) for t in CARD_TEXT.findall(text)}
    for line in obs.log:
        out |= {Card.parse(t) for t in LOG_CARD.findall(line)}
    return out


def hidden_hands(table: Any) -> set[Card]:
    """Cards in other players' real hands (read from the engine) that the
    learner's observation does not show."""
    hands = table.state.hands
    items = hands.items() if isinstance(hands, dict) else enumerate(hands)
    others = {c for seat, hand in items if seat != table.learner for c in hand}
    return others - visible_cards(table.observation())


def leaks(table: Any) -> list[str]:
    """Each hidden card (:func:`hidden_hands`) the front end's state names, and how."""
    dump = front_end_state(table)
    found = []
    for c in hidden_hands(table):
        marks = [c.name, c.symbol, f"rummy-card-{c}"]
        if str(c) not in ("As", "Jk"):  # 'As' is also an English word
            marks.append(str(c))
        for m in marks:
            pattern = re.escape(m) if m != str(c) else rf"(?<![A-Za-z0-9]){re.escape(m)}(?![A-Za-z])"
            if re.search(pattern, dump):
                found.append(f"{c} as {m!r}")
    return found


def no_traceback(table: Any) -> None:
    """The table shows no traceback and kept none."""
    msg = table.message.value
    assert "Traceback" not in msg and "rummy-error" not in msg, msg
    assert table.last_traceback is None


def choose(table: Any, verb: str) -> list[Action]:
    """The learner's legal actions of the verb ``verb`` now."""
    return [a for a in table.observation().legal_actions if a.verb == verb]


def click_three_thirteen(t: ThreeThirteenTable) -> None:
    """One learner decision, made with the table's own controls."""
    obs = t.observation()
    if t.paused:
        assert t.next_round.layout.display != "none"
        t.next_round.click()
    elif obs.phase == "draw":
        # alternate: stock, then discard pile (when there is one)
        if len(obs.log) % 2 and obs.discard_top is not None:
            t.pile.button.click()
        else:
            t.stock.button.click()
    else:
        outs = choose(t, "go out")
        if outs:
            t.hand.select(outs[0].card)
            assert not t.go_out.disabled
            t.go_out.click()
            assert t.confirm_box.layout.display != "none"
            t.confirm_yes.click()
        else:
            a = choose(t, "discard")[-1]
            # tap the card to choose it, then the discard pile to throw it
            view = next(v for v in t.hand.views if getattr(v, "position", None) ==
                        t.hand.cards.index(a.card))
            if t.hand.selected != a.card:
                view.button.click()
            t.pile.button.click()


def play_out(table: Any, click: Callable[[Any], None], until: Callable[[Any], bool],
             check_every: int = 0, limit: int = 3000) -> int:
    """Make the learner's decisions with ``click`` until ``until(table)``;
    no traceback after any click, and no leak after every ``check_every``-th
    (0: never).  Returns how many clicks it took."""
    n = 0
    while not until(table):
        click(table)
        no_traceback(table)
        n += 1
        if check_every and n % check_every == 0:
            assert leaks(table) == []
        assert n < limit, "the table did not finish"
    return n




def click_big_table(t: BigTableTable, match: bool = True) -> None:
    """One learner decision at the Big Table (``match``: call a match in time, or miss it)."""
    obs = t.observation()
    verbs = {a.verb for a in obs.legal_actions}
    if t.paused:
        t.next_round.click()
    elif "call match" in verbs:
        assert not t.match.disabled
        if match:
            t.match.click()
        else:
            t.miss_match()
    elif "draw pool" in verbs:
        if "draw pile" in verbs and len(obs.log) % 3 == 0:
            t.neighbour_pile.button.click()
        else:
            t.pool.button.click()
    elif "discard" in verbs:
        t.coach.do_it.click()
    else:
        pytest.fail(f"the learner has nothing to do in phase {obs.phase}")




def click_gin(t: GinTable) -> None:
    """One learner decision at the Gin table."""
    obs = t.observation()
    verbs = {a.verb for a in obs.legal_actions}
    if t.paused:
        t.next_round.click()
    elif t._hold:
        t.continue_button.click()
    elif "gin" in verbs or "knock" in verbs:
        verb = "gin" if "gin" in verbs else "knock"
        a = choose(t, verb)[0]
        t.hand.select(a.card)
        (t.gin if verb == "gin" else t.knock).click()
        assert t.confirm_box.layout.display != "none"
        t.confirm_yes.click()
    elif "lay off" in verbs:
        t._layoff_buttons[0].click()
    elif "lay out" in verbs:
        t.lay_out.click()
    elif "take upcard" in verbs:
        t.decline_upcard.click()
    elif "draw stock" in verbs:
        t.stock.button.click()
    elif "discard" in verbs:
        t.coach.do_it.click()
    else:
        pytest.fail(f"nothing to click: {obs.phase}, role {obs.role}")
