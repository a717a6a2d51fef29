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


def _app_on_an_open_page() -> tuple[Any, Any]:
    from widgets.apps import App

    class View:
        def __init__(self, players: int) -> None:
            self.widget = w.VBox()  # made first, filled after: announced after what it holds
            self.widget.children = (w.HTML(f"{players} players"), w.Button(description="Deal"))

    def make(s: dict[str, Any]) -> Any:
        return View(s["players"])

    app = App({"players": 2}, make, query="players=3")
    return app, app.widget


@pytest.mark.parametrize("kernel", ["pyodide", "ipykernel"])
def test_an_app_built_while_its_page_is_open_reaches_it_as_one_message_per_widget(
        kernel: str, sent: list[tuple[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The static site's kernel runs in the page, which hears every comm message as it
    comes and never asked for every state (its control comm opened before ipywidgets
    was imported): a Three Thirteen table was 200 comm_open and 171 updates."""
    import comm
    import IPython
    from comm.base_comm import BaseComm as PlainComm
    from ipykernel.comm.comm import BaseComm

    if kernel == "pyodide":  # pyodide_kernel.comm.Comm: comm's own class, no kernel
        class Talking(PlainComm):  # type: ignore[misc]
            def publish_msg(self, msg_type: str, data: Any = None, **kw: Any) -> None:
                sent.append((msg_type, {**(data or {}), "comm_id": self.comm_id}))
    else:
        class Talking(BaseComm):  # type: ignore[no-redef, misc]
            kernel = object()

        from ipykernel.kernelbase import Kernel

        monkeypatch.setattr(comm, "create_comm", lambda *a, **k: Talking(*a, **k))
        kernel_here = object()  # the kernel that a comm made unheard learns at the end
        monkeypatch.setattr(Kernel, "initialized", lambda: True)
        monkeypatch.setattr(Kernel, "instance", lambda: kernel_here)

    class Shell:
        kernel = object()

    if kernel == "pyodide":
        monkeypatch.setattr(comm, "create_comm", Talking)
    monkeypatch.setattr(IPython, "get_ipython", lambda: Shell())
    monkeypatch.setattr(w.Widget, "_control_comm", None)  # the page never asked
    app, box = _app_on_an_open_page()
    opened = [d for m, d in sent if m == "comm_open"]
    ids = {d["comm_id"] for d in opened}
    assert len(ids) == len(opened) >= 6  # each widget once: app box, view box, HTML, ...
    assert [d for m, d in sent if m == "comm_msg" and d["comm_id"] in ids] == []
    models = [d["state"]["_model_name"] for d in opened]
    assert models.index("HTMLModel") < models.index("VBoxModel")
    values = [d["state"]["value"] for d in opened if d["state"]["_model_name"] == "HTMLModel"]
    assert "3 players" in values  # the state it ended with
    assert box.comm.comm_id in ids  # the app's own box too
    deal = app.view.widget.children[1]
    deal.description = "Deal again"  # after the build: it talks as usual
    assert [m for m, d in sent if d["comm_id"] == deal.comm.comm_id][-1] == "comm_msg"
