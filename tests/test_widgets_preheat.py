"""A preheated app kernel builds its view unheard (widgets/apps.py): no page is
connected to hear the comm messages of building, and the page asks for every
widget's state when it connects.  A page that connected and asked while the
view was still being built (a reload with its scripts cached, on a busy
machine) must still hear of the new widgets: in CI the Big Table's page stayed
an empty box ("← All apps") after a server restart, 120 s and more."""

from __future__ import annotations

from typing import Any

import pytest

w = pytest.importorskip("ipywidgets")


@pytest.fixture()
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """The messages the kernel's comms would publish (no kernel here)."""
    from ipykernel.comm.comm import BaseComm

    out: list[tuple[str, Any]] = []

    def publish_msg(self: Any, msg_type: str, data: Any = None, **kw: Any) -> None:
        out.append((msg_type, data))

    monkeypatch.setattr(BaseComm, "publish_msg", publish_msg)
    return out


def _build() -> Any:
    from widgets.apps import _unheard

    with _unheard():
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
