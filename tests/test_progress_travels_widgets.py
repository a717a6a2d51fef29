"""The progress page's "Save my record" and "Load my record": the file made in one
browser continues the same record in another (with the recovery code), and an edited
file is refused in words, keeping nothing."""

from __future__ import annotations

import base64
import re

import pytest

from rummy import progress
from widgets import progress as wp

pytestmark = pytest.mark.usefixtures("own_data")


def _saved_file(link_html: str) -> str:
    data = re.search(r"base64,([A-Za-z0-9+/=]+)'", link_html)
    assert data, link_html
    return base64.b64decode(data[1]).decode("utf-8")


def _another_browser(monkeypatch: pytest.MonkeyPatch, folder) -> None:
    monkeypatch.setenv("RUMMY_DATA", str(folder))
    monkeypatch.setattr(progress, "_learner", None)
    monkeypatch.setattr(progress, "_key", None)
    monkeypatch.setattr(progress, "_records", {})
    monkeypatch.setattr(wp, "_who", None)


def test_save_then_load_in_another_browser(monkeypatch, tmp_path) -> None:
    key = progress.enrol("Ana")
    progress.record("TT-5", "your move", "draw stock", True, source="drill")
    progress.record("TT-6", "which card goes out?", "Kc", False, source="quiz")
    page = wp.Progress()
    text = page.save()
    link = page.saved.value
    assert "download='rummy-record-Ana.jsonl'" in link and "2 answers" in link
    assert _saved_file(link) == text and key not in text
    before = [(e.rule, e.answered, e.right, e.when) for e in progress.default_record().events("Ana")]

    _another_browser(monkeypatch, tmp_path / "elsewhere")
    there = wp.Progress()
    assert progress.learner() is None
    there.load(text.encode(), progress.show_key(key))
    assert progress.learner() == "Ana" and progress.current_key() == key
    assert [(e.rule, e.answered, e.right, e.when)
            for e in progress.default_record().events("Ana")] == before
    assert "Your record is loaded: 2 answers, learning as Ana." in there.message.value
    # the browser is given the key to keep, as when the learner typed their name
    assert f"data-key='{key}'" in wp.who_is_learning().key_out.value
    assert "of 58 rules mastered" in there.summary and "TT-6" in there.map.value


def test_an_edited_file_is_refused_in_words_and_keeps_nothing(monkeypatch, tmp_path) -> None:
    key = progress.enrol("Ben")
    progress.record("TT-6", "which card goes out?", "Kc", False, source="quiz")
    text = wp.Progress().save()
    assert text is not None
    _another_browser(monkeypatch, tmp_path / "elsewhere")
    there = wp.Progress()
    there.load(text.replace('"right": false', '"right": true'), key)
    assert "changed after it was saved" in there.message.value
    assert "Traceback" not in there.message.value
    assert progress.learner() is None and progress.default_record().count() == 0
    there.load(text, "not a code")
    assert "recovery code" in there.message.value


def test_nobody_named_has_no_record_to_save() -> None:
    page = wp.Progress()
    assert page.save() is None
    assert "once you learn under your name" in page.message.value
