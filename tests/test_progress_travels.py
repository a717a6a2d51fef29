"""A record that travels: "Save my record" writes JSON lines with an HMAC keyed by the
learner key; "Load my record" brings the same events back in another browser (another
store), and a file changed after it was saved is refused, keeping nothing."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

import rummy.progress as progress
from rummy.progress import (
    DAY,
    ProgressError,
    Record,
    export_record,
    import_record,
    mastery,
    read_record,
)
from rummy.progress_store import LogStore


def _browser(folder: Path) -> Record:
    """A record as the static site keeps it (its JSON-lines log)."""
    folder.mkdir(parents=True, exist_ok=True)
    return Record(folder / "progress.sqlite3", store=LogStore(folder / "progress.jsonl"))


def _fields(r: Record, who: str) -> list[tuple[object, ...]]:
    return [(e.rule, e.asked, e.answered, e.right, e.first, e.source, e.when, e.judged)
            for e in r.events(who)]


@pytest.fixture()
def saved(tmp_path: Path) -> tuple[Record, str, str]:
    home = _browser(tmp_path / "home")
    _, key = home.enrol("Åsa Lind")
    home.add("Åsa Lind", "TT-5", "your move, holding 9♣ 4♠ 6♠", "draw stock", True,
             source="drill", when=1.5)
    home.add("Åsa Lind", "TT-6", "which card goes out?", "K♣", False, source="quiz",
             when=2 * DAY, first=False)
    home.add("Åsa Lind", "BT-3", "your move at Big Table", "own pile", True, source="table",
             when=3 * DAY, judged="play")
    home.add("Åsa Lind", "TT-5", 'a "quoted"\nline', "draw discard", True, source="guided",
             when=9 * DAY)
    return home, key, export_record(key, home)


def test_the_file_is_json_lines_with_an_hmac_keyed_by_the_learner_key(saved) -> None:
    _home, key, text = saved
    lines = text.splitlines()
    assert len(lines) == 1 + 4 + 1
    head, events, last = json.loads(lines[0]), [json.loads(x) for x in lines[1:-1]], \
        json.loads(lines[-1])
    assert head["format"] == progress.RECORD_FORMAT and head["learner"] == "Åsa Lind"
    assert [e["rule"] for e in events] == ["TT-5", "TT-6", "BT-3", "TT-5"]
    body = "".join(line + "\n" for line in lines[:-1]).encode()
    expected = hmac.new(b"rummy-record\0" + key.encode(), body, hashlib.sha256).hexdigest()
    assert last == {"mac": expected}
    assert key not in text and progress.show_key(key) not in text


def test_round_trip_to_another_browser_keeps_the_events_identical(saved, tmp_path) -> None:
    home, key, text = saved
    away = _browser(tmp_path / "away")  # another browser: it does not know the key
    assert away.learner_of(key) is None
    who, kept = import_record(text, progress.show_key(key).lower(), away)
    assert who == "Åsa Lind" and away.learner_of(key) == "Åsa Lind" and len(kept) == 4
    assert _fields(away, who) == _fields(home, "Åsa Lind")
    assert {r: (m.status, m.due_at) for r, m in away.mastery(who).items()} == \
        {r: (m.status, m.due_at) for r, m in mastery(home.events("Åsa Lind")).items()}
    # loaded twice (or back home): nothing is kept twice
    import_record(text, key, away)
    import_record(export_record(key, away), key, home)
    assert _fields(away, who) == _fields(home, "Åsa Lind") and home.count() == 4
    # and into the server's SQLite (the teacher's page imports a learner's file)
    server = Record(tmp_path / "server" / "progress.sqlite3")
    import_record(text, key, server)
    assert _fields(server, "Åsa Lind") == _fields(home, "Åsa Lind")


def test_answers_a_server_judged_travel_as_self_checks_and_are_not_kept_twice(tmp_path) -> None:
    """The learner holds the key that signs the file, so a file can't vouch that a
    server judged an answer: loaded elsewhere, every event is a self-check; loaded
    back where the server's copy is, nothing is kept twice."""
    home = Record(tmp_path / "home" / "progress.sqlite3")
    _, key = home.enrol("Ana")
    home.add("Ana", "TT-1", "round 7?", "9", True, source="drill", when=5.0, by="server")
    text = export_record(key, home)
    away = _browser(tmp_path / "away")
    who, _ = import_record(text, key, away)
    assert [e.by for e in away.events(who)] == ["self"]
    import_record(text, key, home)
    assert [(e.answered, e.by) for e in home.events("Ana")] == [("9", "server")]
    site = _browser(tmp_path / "site")  # the same in the browser's own log
    _, site_key = site.enrol("Ana")
    site.add("Ana", "TT-1", "round 7?", "9", True, source="drill", when=5.0, by="server")
    import_record(export_record(site_key, site), site_key, site)
    assert [e.by for e in site.events("Ana")] == ["server"]


@pytest.mark.parametrize("edit", [
    lambda t: t.replace('"right": false', '"right": true'),
    lambda t: t.replace("K♣", "Q♣"),
    lambda t: "\n".join(t.splitlines()[:2] + t.splitlines()[3:]) + "\n",  # an event left out
    lambda t: t.replace('"mac": "', '"mac": "0'),
    lambda t: t.replace("Åsa Lind", "Ben"),
    lambda t: t.splitlines()[0] + "\n",
    lambda t: "not a record",
])
def test_a_tampered_file_is_refused_and_keeps_nothing(saved, tmp_path, edit) -> None:
    _home, key, text = saved
    changed = edit(text)
    assert changed != text
    away = _browser(tmp_path / "away")
    with pytest.raises(ProgressError, match="changed after it was saved|not a saved record"):
        import_record(changed, key, away)
    assert away.count() == 0 and away.learner_of(key) is None


def test_another_learners_key_or_a_bad_key_opens_nothing(saved, tmp_path) -> None:
    home, _key, text = saved
    _, other = home.enrol("Ben")
    with pytest.raises(ProgressError, match="changed after it was saved"):
        read_record(text, other)
    with pytest.raises(ProgressError, match="32 letters"):
        read_record(text, "abc")
    with pytest.raises(ProgressError, match="opens no record"):
        export_record(progress.new_key(), home)


def test_a_name_taken_by_somebody_else_there_is_not_overwritten(saved, tmp_path) -> None:
    _home, key, text = saved
    away = _browser(tmp_path / "away")
    away.enrol("åsa lind")  # somebody else of that name learns there
    with pytest.raises(ProgressError, match="somebody else learns as"):
        import_record(text, key, away)
    assert away.count() == 0


def test_the_names_are_exported_from_the_package() -> None:
    import rummy

    for name in ("export_record", "import_record", "read_record"):
        assert name in progress.__all__ and getattr(rummy.progress, name)
