"""Card and hand views: SVG cards from :mod:`rummy.render` that can be clicked.

A card is a picture (an ``HTML`` widget holding the SVG, whose ``<title>``
names the card for screen readers) with a transparent button laid over it in
the same grid cell; the button carries the card's name as its text (its
accessible name: "ace of diamonds", "stock, 44 cards"; the text itself is
not drawn, the picture is) and the CSS class ``rummy-card``.

>>> from rummy import cards
>>> h = HandView(cards("9h 7h 8h Kc"), sort="rank")
>>> [str(c) for c in h.shown_cards()]
['7h', '8h', '9h', 'Kc']
>>> h.views[0].button.click()
>>> str(h.selected)
'7h'
>>> h.views[0].button.click()        # a second tap lets it go
>>> h.selected is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import ipywidgets as w

from rummy import render
from rummy.cards import Card
from rummy.melds import Arrangement, MeldRules
from rummy.search import best_arrangement
from widgets.view import View, esc, face, shared

__all__ = ["CardView", "HandView", "SORTS", "PileView"]

#: The hand orders a learner can choose (label, value).
SORTS = (("as dealt", "dealt"), ("by suit", "suit"), ("by rank", "rank"),
         ("melds first", "melds"))


def _px(n: float) -> str:
    return f"{int(n)}px"


class CardView:
    """One clickable card.

    ``on_click(view)`` is called when the card is clicked.  ``update(...)``
    redraws it in place (the widgets are built once).

    >>> from rummy import Card
    >>> v = CardView(Card.parse("Th"))
    >>> v.button.tooltip, v.button.description, "rummy-card-Th" in v.button._dom_classes
    ('ten of hearts', 'ten of hearts', True)
    """

    def __init__(
        self,
        card: Card | None = None,
        *,
        four_colour: bool = False,
        size: str = "normal",
        selected: bool = False,
        wild: bool = False,
        label: str | None = None,
        face_down: bool = False,
        on_click: Callable[[CardView], Any] | None = None,
        css: str = "rummy-card",
    ) -> None:
        self.card: Card | None = None
        self.on_click = on_click
        # the picture and the button over it share one layout and style with every
        # card's (fewer front-end models: the page is ready sooner)
        self.picture = w.HTML(layout=shared("card-picture"), style=shared("html"))
        self.button = w.Button(description="", layout=shared("card-button"),
                               style=shared("clear-button"))
        self.button.add_class(css)
        self.button.on_click(self._clicked)
        self.widget = w.GridBox([self.picture, self.button])
        self.widget.layout.grid_template_areas = '"card"'
        self.widget.add_class("rummy-cardbox")
        self._classes: list[str] = []
        self.update(card, four_colour=four_colour, size=size, selected=selected, wild=wild,
                    label=label, face_down=face_down)

    def _clicked(self, _b: Any) -> None:
        if self.on_click is not None:
            self.on_click(self)

    def update(
        self,
        card: Card | None,
        *,
        four_colour: bool = False,
        size: str = "normal",
        selected: bool = False,
        wild: bool = False,
        label: str | None = None,
        face_down: bool = False,
        enabled: bool = True,
    ) -> None:
        """Redraw this view as ``card`` (``None`` or ``face_down``: a back)."""
        self.card = None if face_down else card
        d = render.SIZES[size]
        if card is None or face_down:
            svg = render.back_svg(1, size=size) if card is None else render.card_svg(
                card, size=size, face_down=True)
            name = "face-down card"
            height = d.height
        else:
            svg = render.card_svg(card, four_colour=four_colour, size=size, selected=selected,
                                  wild=wild, label=label)
            name = card.name + (" (wild)" if wild else "") + (
                f", {'as ' + label[1:] if label.startswith('=') else label}" if label else "")
            height = d.height + (d.tag if label else 0)
        # the picture is hidden from screen readers: the button over it names the card
        # (each card once in the accessibility tree)
        svg = f"<div aria-hidden='true'>{svg}</div>"
        if self.picture.value != svg:
            self.picture.value = svg
        # the accessible name; being selected is said by aria-pressed (the page's
        # script reads the class rummy-card-selected), the tooltip says it too
        self.button.description = name
        self.button.tooltip = name + (", selected" if selected and card is not None
                                      and not face_down else "")
        self.button.disabled = not enabled
        self.widget.layout.width = _px(d.width + 6)
        self.widget.layout.height = _px(height + 6)
        want = []
        if self.card is not None:
            want.append(f"rummy-card-{self.card}")
        if selected:
            want.append("rummy-card-selected")
        for c in self._classes:
            if c not in want:
                self.button.remove_class(c)
        for c in want:
            if c not in self._classes:
                self.button.add_class(c)
        self._classes = want
        # the chosen card stands up out of the hand (CSS: rummy-lifted)
        lifted = selected and self.card is not None
        if lifted != ("rummy-lifted" in self.widget._dom_classes):
            (self.widget.add_class if lifted else self.widget.remove_class)("rummy-lifted")
        # the card just drawn slides into the hand (CSS: rummy-drawn, motion allowed)
        drawn = label == "new" and self.card is not None
        if drawn != ("rummy-drawn" in self.widget._dom_classes):
            (self.widget.add_class if drawn else self.widget.remove_class)("rummy-drawn")


class PileView:
    """A clickable pile (stock, pool, discard pile): its top card face up, or
    a face-down stack with a count, plus a caption.

    >>> p = PileView("rummy-stock", "stock")
    >>> p.update(count=12)
    >>> "12 face-down cards" in p.picture.value, p.button.description
    (True, 'stock, 12 cards')
    """

    def __init__(self, css: str, caption: str, *, on_click: Callable[[], Any] | None = None
                 ) -> None:
        self.caption_text = caption
        self.on_click = on_click
        self.picture = w.HTML(layout=shared("pile-picture"), style=shared("html"))
        self.button = w.Button(description="", layout=shared("pile-button"),
                               style=shared("clear-button"))
        self.button.add_class(css)
        self.button.add_class("rummy-pile-button")
        self.button.on_click(lambda _b: self.on_click() if self.on_click else None)
        box = w.GridBox([self.picture, self.button])
        box.layout.grid_template_areas = '"pile"'
        box.add_class("rummy-cardbox")
        self.box = box
        self.caption = w.HTML(style=shared("html"))
        self.widget = w.VBox([box, self.caption])
        self.widget.layout.align_items = "center"
        self.widget.layout.margin = "0 8px"

    def update(self, *, top: Card | None = None, count: int | None = None,
               size: str = "normal", four_colour: bool = False, enabled: bool = True,
               caption: str | None = None, face_down: bool = False) -> None:
        """Show ``top`` face up, or ``count`` face-down cards."""
        d = render.SIZES[size]
        if top is not None and not face_down:
            svg = render.card_svg(top, size=size, four_colour=four_colour)
            tip = f"{self.caption_text}, {top.name} on top" + (
                f", {count} card{'s' if count != 1 else ''}" if count is not None else "")
        else:
            n = count or 0
            svg = render.back_svg(n, size=size, label=self.caption_text)
            tip = f"{self.caption_text}, {n} card{'s' if n != 1 else ''}"
        svg = f"<div aria-hidden='true'>{svg}</div>"  # the button names the pile
        if self.picture.value != svg:
            self.picture.value = svg
        extra = 3 * 3
        self.box.layout.width = _px(d.width + extra + 4)
        self.box.layout.height = _px(d.height + extra + 4)
        self.button.tooltip = tip
        self.button.description = tip  # the pile's accessible name
        self.button.disabled = not enabled
        self.caption.value = f"<small>{esc(caption if caption is not None else self.caption_text)}" \
                             "</small>"


class HandView(View):
    """A hand of clickable cards with a sort choice.

    Tap a card to choose it (it is lifted); tap it again to let it go (a
    second tap never plays it: a double tap throws nothing away).
    :meth:`act` hands the chosen card to ``on_act(card)`` (a table calls it
    when the learner taps the discard pile).  ``sort`` is ``"dealt"``, ``"suit"``, ``"rank"`` or
    ``"melds"``: melds first, each outlined, wild cards tagged with what
    they stand for, the deadwood apart (the engine's best arrangement under
    ``rules``).

    >>> from rummy import cards
    >>> from rummy.melds import MeldRules
    >>> h = HandView(cards("Kc 7h 9h 3s 8h"), rules=MeldRules(wild_rank=3), sort="melds")
    >>> [str(c) for c in h.shown_cards()]
    ['7h', '8h', '9h', '3s', 'Kc']
    >>> [">=" in v.picture.value for v in h.views[:5]].count(True)  # 3s tagged
    1
    """

    def __init__(
        self,
        cards: Iterable[Card] = (),
        *,
        rules: MeldRules | None = None,
        sort: str = "dealt",
        four_colour: bool = False,
        size: str = "normal",
        on_select: Callable[[Card | None], Any] | None = None,
        on_act: Callable[[Card], Any] | None = None,
        show_controls: bool = True,
        styled: bool = True,
    ) -> None:
        super().__init__()
        self.cards: tuple[Card, ...] = tuple(cards)
        self.rules = rules
        self.four_colour = four_colour
        self.size = size
        self.on_select = on_select
        self.on_act = on_act
        self.enabled = True
        self.highlight: Card | None = None
        self.views: list[CardView] = []
        self._order: list[int] = []  # positions in self.cards, in display order
        self._selected: int | None = None  # a position in self.cards
        self._groups: list[w.Box] = []
        self.arrangement: Arrangement | None = None
        self.sort = w.ToggleButtons(options=SORTS, value=sort, description="Sort",
                                    style={"button_width": "auto"})
        self.sort.add_class("rummy-sort")
        self.sort.observe(lambda _c: self.render(), names="value")
        self.summary = w.HTML(style=shared("html"))
        self.summary.add_class("rummy-hand-summary")
        self.row = w.Box()
        self.row.layout.flex_flow = "row wrap"
        self.row.layout.align_items = "flex-end"
        self.row.add_class("rummy-hand")
        # inside a table (``styled=False``) the table's stylesheet serves
        parts: list[w.Widget] = [*([self._style] if styled else []), self.row, self.summary]
        if show_controls:
            parts.insert(1, self.sort)
        self.widget = w.VBox(parts)
        self.widget.add_class("rummy-hand-view")
        self.render()

    # -- state -----------------------------------------------------------
    @property
    def selected(self) -> Card | None:
        """The selected card, or None."""
        return None if self._selected is None else self.cards[self._selected]

    def select(self, card: Card | None) -> None:
        """Select ``card`` (the first copy of it in the hand), or nothing."""
        self._selected = None if card is None or card not in self.cards \
            else self.cards.index(card)
        self.render()

    def update(self, cards: Sequence[Card], *, rules: MeldRules | None = None,
               enabled: bool = True, highlight: Card | None = None) -> None:
        """Show new cards, keeping the selection if that card is still held."""
        keep = self.selected
        self.cards = tuple(cards)
        if rules is not None:
            self.rules = rules
        self.enabled = enabled
        self.highlight = highlight
        self._selected = self.cards.index(keep) if keep is not None and keep in self.cards \
            else None
        self.render()

    def set_options(self, *, four_colour: bool | None = None, size: str | None = None) -> None:
        """Redraw the hand four-coloured or not, or at another size."""
        if four_colour is not None:
            self.four_colour = four_colour
        if size is not None:
            self.size = size
        self.render()

    def shown_cards(self) -> list[Card]:
        """The cards in display order."""
        return [self.cards[i] for i in self._order]

    # -- drawing -----------------------------------------------------------
    def _ordered(self) -> tuple[list[list[int]], list[int], dict[int, str]]:
        """(meld groups, deadwood, wild labels) as positions into self.cards."""
        idx = list(range(len(self.cards)))
        mode = self.sort.value
        self.arrangement = None
        if mode == "suit":
            return [], sorted(idx, key=lambda i: self.cards[i].sort_key()), {}
        if mode == "rank":
            return [], sorted(idx, key=lambda i: (self.cards[i].rank or 99,
                                                  self.cards[i].sort_key())), {}
        if mode == "melds" and self.cards:
            arr = best_arrangement(self.cards, self.rules or MeldRules())
            self.arrangement = arr
            free = list(idx)
            groups: list[list[int]] = []
            labels: dict[int, str] = {}
            for m in arr.melds:
                g = []
                for c, r in zip(m.cards, m.represents):
                    pos = next(i for i in free if self.cards[i] == c)
                    free.remove(pos)
                    g.append(pos)
                    if c != r or c.is_joker:
                        labels[pos] = f"={face(r)}"
                groups.append(g)
            dead = []
            for c in arr.deadwood:
                pos = next(i for i in free if self.cards[i] == c)
                free.remove(pos)
                dead.append(pos)
            return groups, dead + free, labels
        return [], idx, {}

    def _view(self, k: int) -> CardView:
        while len(self.views) <= k:
            self.views.append(CardView(None, on_click=self._clicked))
        return self.views[k]

    def render(self) -> None:
        """Redraw the hand (called after every change)."""
        groups, rest, labels = self._ordered()
        rules = self.rules
        order = [i for g in groups for i in g] + rest
        self._order = order
        # the card just drawn, tagged "new" (the last copy of it in the hand)
        new_pos = (len(self.cards) - 1 - self.cards[::-1].index(self.highlight)
                   if self.highlight is not None and self.highlight in self.cards else None)
        for k, pos in enumerate(order):
            c = self.cards[pos]
            v = self._view(k)
            v.position = pos  # type: ignore[attr-defined]
            label = labels.get(pos)
            if label is None and pos == new_pos:
                label = "new"
            v.update(c, four_colour=self.four_colour, size=self.size,
                     selected=pos == self._selected,
                     wild=bool(rules and rules.is_wild(c)), label=label,
                     enabled=self.enabled)
        for v in self.views[len(order):]:
            if v.card is not None:  # a view not shown now keeps no card
                v.position = None  # type: ignore[attr-defined]
                v.update(None, size=self.size, enabled=False)
        for g in self._groups:
            g.children = ()
            g.close()
        self._groups = []
        children: list[w.Widget] = []
        k = 0
        for g in groups:
            box = w.HBox([self.views[k + j].widget for j in range(len(g))])
            box.add_class("rummy-meld-group")
            self._groups.append(box)
            children.append(box)
            k += len(g)
        if groups and rest:
            box = w.HBox([self.views[k + j].widget for j in range(len(rest))])
            box.add_class("rummy-deadwood-group")
            self._groups.append(box)
            children.append(box)
        else:
            children.extend(self.views[k + j].widget for j in range(len(rest)))
        self.row.children = tuple(children)
        if self.arrangement is not None:
            a = self.arrangement
            m = len(a.melds)
            text = (f"{m} meld{'s' if m != 1 else ''}; left over: "
                    + (", ".join(face(c) for c in a.deadwood) or "none")
                    + f" ({a.penalty} point{'s' if a.penalty != 1 else ''})")
        else:
            n = len(self.cards)
            text = f"{n} card{'s' if n != 1 else ''}"
        self.summary.value = f"<small>{esc(text)}</small>"

    def _clicked(self, view: CardView) -> None:
        pos = getattr(view, "position", None)
        if pos is None or pos >= len(self.cards):
            return
        # a second tap on the chosen card lets it go
        self._selected = None if self._selected == pos else pos
        self.render()
        if self.on_select is not None:
            self.on_select(self.selected)

    def act(self) -> bool:
        """Hand the chosen card to ``on_act``; False when none is chosen.

        >>> from rummy import cards
        >>> done = []
        >>> h = HandView(cards("7h 8h"), on_act=done.append)
        >>> h.act()
        False
        >>> h.select(h.cards[1]); h.act(), [str(c) for c in done]
        (True, ['8h'])
        """
        card = self.selected
        if card is None:
            return False
        if self.on_act is not None:
            self.on_act(card)
        return True

