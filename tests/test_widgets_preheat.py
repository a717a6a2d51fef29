"""A preheated app kernel builds its view unheard (widgets/apps.py): no page is
connected to hear the comm messages of building, and the page asks for every
widget's state when it connects (widgets/quiet.py).  A page that connected and asked while the
view was still being built (a reload with its scripts cached, on a busy
machine) must still hear of the new widgets: in CI the Big Table's page stayed
an empty box ("← All apps") after a server restart, 120 s and more."""

from __future__ import annotations

from typing import Any

import pytest

w = pytest.importorskip("ipywidgets")


@pytest.fixture()
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """The messages the kernel's comms would publish (no kernel here): their
    type and data, with the comm's id."""
    from ipykernel.comm.comm import BaseComm

    out: list[tuple[str, Any]] = []

    def publish_msg(self: Any, msg_type: str, data: Any = None, **kw: Any) -> None:
        out.append((msg_type, {**(data or {}), "comm_id": self.comm_id}))

    monkeypatch.setattr(BaseComm, "publish_msg", publish_msg)
    return out


def _build() -> Any:
    from widgets.quiet import unheard

    with unheard():
        label = w.HTML("the table")
        box = w.VBox([label])
    return box, label


def test_widgets_built_before_any_page_asked_stay_unheard(
        sent: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(w.Widget, "_control_comm", None)  # no page has asked yet
    _build()
    assert sent == []  # the page asks for every state once it connects


def test_widgets_built_after_a_page_asked_for_the_states_are_announced(
        sent: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(w.Widget, "_control_comm", object())  # a page connected and asked
    box, label = _build()
    opened = {d["state"]["_model_name"]: d["state"] for m, d in sent if m == "comm_open"}
    assert {"HTMLModel", "VBoxModel", "LayoutModel"} <= set(opened)
    assert opened["HTMLModel"]["value"] == "the table"
    assert opened["VBoxModel"]["children"] == [f"IPY_MODEL_{label.model_id}"]


def test_a_box_made_before_its_children_is_announced_after_them(
        sent: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    from widgets.quiet import unheard

    monkeypatch.setattr(w.Widget, "_control_comm", object())
    with unheard():
        box = w.VBox()  # made first, filled later: its state names widgets made after it
        label = w.HTML("the table")
        box.children = (label,)
    opened = [d["state"]["_model_name"] for m, d in sent if m == "comm_open"]
    # the page makes each model as its comm_open comes: what a state names comes first
    assert opened.index("HTMLModel") < opened.index("VBoxModel")
    assert opened.index("LayoutModel") < opened.index("HTMLModel")


@pytest.fixture()
def connected_page(sent: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch
                   ) -> list[tuple[str, Any]]:
    """A kernel whose page is connected and asked for every widget's state:
    the widgets' comms talk (each message kept in ``sent``)."""
    import comm
    import IPython
    from ipykernel.comm.comm import BaseComm

    class Talking(BaseComm):  # type: ignore[misc]
        kernel = object()  # ipywidgets sends only through a comm with a kernel

    class Shell:
        kernel = object()

    monkeypatch.setattr(comm, "create_comm", Talking)
    monkeypatch.setattr(IPython, "get_ipython", lambda: Shell())
    monkeypatch.setattr(w.Widget, "_control_comm", object())
    return sent


def test_a_seats_view_reaches_a_connected_page_as_one_message_per_widget(
        connected_page: list[tuple[str, Any]], api: str) -> None:
    from tests.servers import create_table
    from widgets.remote_table import find_seat

    made = create_table(api, {"variant": "big_table", "seats": ["human", "greedy", "greedy"],
                              "speed": 0})
    page = find_seat(made["code"], "Ana", api=api)
    before = len(connected_page)
    seat = page.handoff({"token": "", "name": ""})
    assert seat.table is not None  # the game started: the whole table was drawn
    said = connected_page[before:]
    opened = {d["comm_id"] for m, d in said if m == "comm_open"}
    updated = [d for m, d in said if m == "comm_msg" and d.get("comm_id") in opened]
    assert len(opened) > 100  # the seat's whole table ...
    assert updated == []  # ... each widget in one message, with the state it ended with
