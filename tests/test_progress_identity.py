"""Who a learner is in the record of learning (rummy.progress): a secret key,
not a typed name.  A key made by :func:`secrets` opens one record; a name is a
label, compared without case and unique in a data folder; a name in the page's
address names nobody; on a hub the learner is the hub user by their whole name;
the file is the owner's only; all of it the same after a restart."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from rummy import progress
from rummy.progress import ProgressError, Record


@pytest.fixture(autouse=True)
def _own(own_data):
    yield own_data


def test_a_key_opens_one_record_and_a_name_opens_none(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    ana, ana_key = r.enrol("Ana")
    ben, ben_key = r.enrol("Ben")
    assert (ana, ben) == ("Ana", "Ben")
    assert r.learner_of(ana_key) == "Ana" and r.learner_of(ben_key) == "Ben"
    assert r.learner_of(None) is None and r.learner_of("") is None
    assert r.learner_of("Ana") is None  # a name is not a key
    assert r.learner_of(progress.new_key()) is None  # a wrong key
    assert r.learner_of(progress.show_key(ana_key).lower()) == "Ana"  # the recovery code


def test_keys_are_160_random_bits_and_only_their_digest_is_kept(tmp_path):
    keys = {progress.new_key() for _ in range(200)}
    assert len(keys) == 200 and all(len(k) == 32 for k in keys)  # 32 base32 chars: 160 bits
    path = tmp_path / "p.sqlite3"
    r = Record(path)
    _, key = r.enrol("Ana")
    r.close()
    assert key.encode() not in path.read_bytes()


def test_a_name_in_another_case_is_the_same_learner_and_is_refused(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    r.enrol("Ana")
    for other in ("ana", "ANA", "  Ana  "):
        with pytest.raises(ProgressError, match="already learns as"):
            r.enrol(other)
    r.add("Ana", "M-1", "q", "a", True)
    assert [e.rule for e in r.events("aNa")] == ["M-1"]
    assert r.resolve("ana") == "Ana"


def test_a_name_with_events_from_before_keys_is_taken_until_the_teacher_gives_a_key(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    r.add("Ben", "M-1", "q", "a", True)  # kept by an older kit, under a typed name
    with pytest.raises(ProgressError, match="already learns as"):
        r.enrol("ben")
    who, key = r.reset_key("BEN")
    assert who == "Ben" and r.learner_of(key) == "Ben"


def test_the_teacher_resets_a_key_and_the_old_one_opens_nothing(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    _, old = r.enrol("Ana")
    _, new = r.reset_key("ana")
    assert r.learner_of(old) is None and r.learner_of(new) == "Ana"
    with pytest.raises(ProgressError, match="nobody learns as 'Zed'"):
        r.reset_key("Zed")


def test_erasing_removes_the_events_and_the_key(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    _, key = r.enrol("Ana")
    r.add("Ana", "M-1", "q", "a", True)
    r.add("Ben", "M-1", "q", "a", True)
    assert r.erase("ana") == 1
    assert r.learner_of(key) is None and r.events("Ana") == []
    assert len(r.events("Ben")) == 1
    r.enrol("Ana")  # the name is free again


def test_hub_users_are_kept_by_their_whole_name(tmp_path):
    r = Record(tmp_path / "p.sqlite3")
    a = "alexandra.konstantinopoulou@school.example.org"
    b = "alexandra.konstantinopoulos@school.example.org"
    assert (r.hub_user(a), r.hub_user(b)) == (a, b)
    r.add(a, "M-1", "q", "a", True)
    r.add(b, "G-9", "q", "a", False)
    assert [e.rule for e in r.events(a)] == ["M-1"]
    assert [e.rule for e in r.events(b)] == ["G-9"]
    assert r.label(a) != r.label(b) and len(r.label(b)) <= progress.MAX_NAME
    rows = r.grid([a, b])
    assert {(x["learner"], x["rule"]) for x in rows} == {(r.label(a), "M-1"),
                                                          (r.label(b), "G-9")}


def test_the_record_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"")
    os.chmod(path, 0o644)  # as an older kit left it
    r = Record(path)
    r.add("Ana", "M-1", "q", "a", True)
    for f in (path, Path(f"{path}-wal")):
        if f.exists():
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    fresh = tmp_path / "new" / "p.sqlite3"
    Record(fresh).close()
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600


def test_a_key_still_opens_the_record_after_a_restart(tmp_path):
    path = tmp_path / "p.sqlite3"
    r = Record(path)
    _, key = r.enrol("Ana")
    r.add("Ana", "M-1", "q", "a", True)
    r.close()
    again = Record(path)
    assert again.learner_of(key) == "Ana" and len(again.events("Ana")) == 1
    with pytest.raises(ProgressError):
        again.enrol("ANA")


def test_the_kernel_learns_as_whoever_holds_the_key():
    key = progress.enrol("Ana")
    assert progress.learner() == "Ana" and progress.current_key() == key
    progress.record("M-1", "q", "a", True, source="quiz")
    progress.use_learner(None)
    assert progress.use_key(progress.new_key()) is None and progress.learner() is None
    assert progress.use_key("Ana") is None  # a name is not a key
    assert progress.use_key(progress.show_key(key)) == "Ana"
    assert len(progress.default_record().events("Ana")) == 1
