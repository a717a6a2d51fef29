"""A learner's own record on the table service opens with their key, never a
name: ``GET``/``DELETE .../progress/me`` and ``.../tables/CODE/progress/me``
(``X-Rummy-Learner-Key``), and the teacher's ``POST .../progress/key``.  Each
with no key, a wrong key, another learner's key, a case variant of a name, a
name typed at a table, a cross-site request and a restart."""

from __future__ import annotations

from pathlib import Path

from rummy.progress import KEY_HEADER, Record, new_key
from tests.servers import KEY, TableServer, new_table

TEACHER = {"X-Rummy-Teacher-Key": KEY}
JSON = {"Content-Type": "application/json"}


def fill(data: Path) -> dict[str, str]:
    r = Record(data / "progress.sqlite3", clock=lambda: 1000.0)
    keys = {name: r.enrol(name)[1] for name in ("Ana", "Ben")}
    r.add("Ana", "TT-5", "your move, holding 9c 4s 6s", "draw discard", False, source="table")
    r.add("Ben", "G-9", "q", "a", True, source="drill")
    r.close()
    return keys


def events(data: Path, who: str) -> list[str]:
    r = Record(data / "progress.sqlite3")
    try:
        return [e.rule for e in r.events(who)]
    finally:
        r.close()


def test_my_record_opens_with_my_key_and_nothing_else(server: TableServer) -> None:
    keys = fill(server.data)
    status, got = server.call("GET", "/progress/me", headers={KEY_HEADER: keys["Ana"]})
    assert status == 200 and got["learner"] == "Ana"
    assert [e["rule"] for e in got["events"]] == ["TT-5"] and "G-9" not in str(got)
    for headers in ({}, {KEY_HEADER: ""}, {KEY_HEADER: new_key()}, {KEY_HEADER: "Ana"},
                    {KEY_HEADER: "ana"}, {KEY_HEADER: "ANA"}, TEACHER,
                    {"X-Rummy-Token": keys["Ana"]}):
        status, got = server.call("GET", "/progress/me", headers=headers)
        assert status == 403 and "9c" not in str(got) and "TT-5" not in str(got), headers
    # another learner's key opens that learner's record only
    status, got = server.call("GET", "/progress/me", headers={KEY_HEADER: keys["Ben"]})
    assert status == 200 and got["learner"] == "Ben" and "TT-5" not in str(got)
    # a name or a key in the address chooses nothing
    for query in ("learner=Ana", f"learner_key={keys['Ana']}", f"key={keys['Ana']}"):
        status, got = server.call("GET", f"/progress/me?{query}",
                                  headers={KEY_HEADER: keys["Ben"]})
        assert status == 400 and "TT-5" not in str(got) and keys["Ana"] not in str(got)


def test_joining_a_table_as_somebody_opens_nothing_of_theirs(server: TableServer) -> None:
    keys = fill(server.data)
    made, joined = new_table(server, seats=["human", "human", "greedy"], names=("Ben", "ana"),
                             speed=10)
    code, seat = made["code"], joined[1]["token"]  # Eve sat down as "ana"
    status, got = server.call("GET", f"/tables/{code}/progress/me",
                              headers={"X-Rummy-Token": seat})
    assert status == 403 and "TT-5" not in str(got)
    status, got = server.call("GET", f"/tables/{code}/progress/me",
                              headers={"X-Rummy-Token": seat, KEY_HEADER: keys["Ben"]})
    assert status == 200 and got["learner"] == "Ben" and "TT-5" not in str(got)


def test_erasing_needs_my_key_and_erases_mine_only(server: TableServer) -> None:
    keys = fill(server.data)
    for headers in ({}, {KEY_HEADER: new_key()}, {KEY_HEADER: "Ana"}, TEACHER):
        status, _ = server.call("DELETE", "/progress/me", headers=headers)
        assert status == 403
    status, _ = server.call("DELETE", "/progress/me",
                            headers={KEY_HEADER: keys["Ana"], "Origin": "http://evil.example"})
    assert status == 403
    assert events(server.data, "Ana") == ["TT-5"]
    status, got = server.call("DELETE", "/progress/me", headers={KEY_HEADER: keys["Ben"]})
    assert status == 200 and got == {"erased": 1}
    assert events(server.data, "Ana") == ["TT-5"] and events(server.data, "Ben") == []
    status, _ = server.call("GET", "/progress/me", headers={KEY_HEADER: keys["Ben"]})
    assert status == 403  # the key went with the record


def test_the_teacher_resets_a_key_and_it_holds_after_a_restart(server: TableServer) -> None:
    keys = fill(server.data)
    for headers in ({}, {"X-Rummy-Teacher-Key": "wrong" * 8}, {KEY_HEADER: keys["Ana"]}):
        status, got = server.call("POST", "/progress/key", {"learner": "Ana"},
                                  headers={**JSON, **headers})
        assert status == 403 and "code" not in got
    status, got = server.call("POST", "/progress/key", {"learner": "Zed"},
                              headers={**JSON, **TEACHER})
    assert status == 400 and "nobody learns as 'Zed'" in got["error"]
    status, got = server.call("POST", "/progress/key", {"name": "Ana"},
                              headers={**JSON, **TEACHER})
    assert status == 400 and '{"learner": NAME}' in got["error"]
    status, got = server.call("POST", "/progress/key", {"learner": "ana"},
                              headers={**JSON, **TEACHER})
    assert status == 200 and got["learner"] == "Ana"
    code = got["code"]
    assert server.call("GET", "/progress/me", headers={KEY_HEADER: keys["Ana"]})[0] == 403
    again = server.restart()
    try:
        status, got = again.call("GET", "/progress/me", headers={KEY_HEADER: code})
        assert status == 200 and got["learner"] == "Ana"
        assert again.call("GET", "/progress/me", headers={KEY_HEADER: keys["Ana"]})[0] == 403
        assert again.call("GET", "/progress/me", headers={KEY_HEADER: keys["Ben"]})[0] == 200
    finally:
        again.stop()
