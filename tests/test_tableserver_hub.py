"""The table service as a JupyterHub service (tableserver.hub): its identity layer.

A real ``python -m tableserver.hub`` process on 127.0.0.1, started with the
environment a hub gives its services, asks who a request is at a small
stand-in for the hub's REST API (``GET /hub/api/user`` answers the user
model of a token, as JupyterHub does).  Each learner is known by their hub
token only: no seat token, no teacher key.  Tried: no token, a wrong user,
a learner acting for another seat or making a table, a user the hub does not
let in, a cross-site request, and a restart (SIGKILL) on the same data.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import HUB_ACCESS, HUB_API, HUB_PREFIX, ROOT, HubService, fake_hub_api, free_port


def brief(rows):
    """The grid's rows cut to who, which rule, attempts and right at the first try."""
    return [{k: r[k] for k in ("learner", "rule", "attempts", "right_first")} for r in rows]


#: token -> the user model the hub answers for it
USERS: dict[str, dict[str, Any]] = {
    "tok-teacher-0123456789": {"name": "teacher", "scopes": [HUB_ACCESS, "custom:rummy-teacher"]},
    "tok-ana-0123456789": {"name": "ana", "scopes": [HUB_ACCESS]},
    "tok-ben-0123456789": {"name": "ben", "scopes": [HUB_ACCESS]},
    "tok-cleo-0123456789": {"name": "cleo", "scopes": [HUB_ACCESS]},
    "tok-dora-0123456789": {"name": "dora", "scopes": [HUB_ACCESS]},
    "tok-gus-0123456789": {"name": "gus", "scopes": [HUB_ACCESS]},  # his kernels send events
    "tok-hana-0123456789": {"name": "hana", "scopes": [HUB_ACCESS]},
    # two users whose names begin alike for more than a seat's 24 characters
    "tok-alex1-0123456789": {"name": "alexandra.konstantinopoulou@school.example.org",
                             "scopes": [HUB_ACCESS]},
    "tok-alex2-0123456789": {"name": "alexandra.konstantinopoulos@school.example.org",
                             "scopes": [HUB_ACCESS]},
    # signed in to the hub, but the hub does not let her use this service
    "tok-eve-0123456789": {"name": "eve", "scopes": ["access:servers!user=eve"]},
}


@pytest.fixture(scope="module")
def fake_hub() -> Iterator[int]:
    with fake_hub_api(USERS) as port:
        yield port


@pytest.fixture(scope="module")
def svc(tmp_path_factory: pytest.TempPathFactory, fake_hub: int) -> Iterator[HubService]:
    """One service for the tests that make their own tables (a start costs seconds)."""
    s = HubService(tmp_path_factory.mktemp("hub-service"), fake_hub, USERS)
    try:
        yield s
    finally:
        s.stop()


def table_of_three(s: HubService, variant: str = "three_thirteen", **kw: Any) -> str:
    status, made = s.call("POST", "/tables", {"variant": variant,
                                              "seats": ["human", "human", "human"], **kw},
                          user="teacher")
    assert status == 201, made
    return str(made["code"])


def test_a_request_without_a_hub_token_is_refused(svc: HubService) -> None:
    code = table_of_three(svc)
    for method, path, body in (("POST", "/tables", {"variant": "big_table", "seats": ["human"]}),
                               ("GET", "/tables", None),
                               ("POST", f"/tables/{code}/join", {}),
                               ("GET", f"/tables/{code}/state", None),
                               ("POST", f"/tables/{code}/act", {"action": "draw stock"})):
        status, out = svc.call(method, path, body)
        assert status == 401, (path, out)
        assert "sign in to the hub" in out["error"]
        status, out = svc.call(method, path, body,
                               headers={"Authorization": "token not-a-token-of-the-hub"})
        assert status == 401, (path, out)


def test_a_user_the_hub_keeps_out_of_the_service_is_refused(svc: HubService) -> None:
    code = table_of_three(svc)
    status, out = svc.call("POST", f"/tables/{code}/join", {}, user="eve")
    assert status == 403 and "may not use the table service" in out["error"]


def test_only_a_teacher_makes_and_runs_tables(svc: HubService) -> None:
    status, out = svc.call("POST", "/tables", {"variant": "big_table", "seats": ["human"]},
                           user="ana")
    assert status == 403
    assert "only a teacher" in out["error"] and "ana" in out["error"]
    # a key in the request is no way in: the hub says who is a teacher
    status, out = svc.call("POST", "/tables", {"variant": "big_table", "seats": ["human"],
                                               "teacher_key": "any-key-0123456789abcdef"},
                           user="ana", headers={"X-Rummy-Teacher-Key": "x" * 20})
    assert status == 403
    code = table_of_three(svc)
    for method, path, body in (("GET", "/tables", None), ("GET", f"/tables/{code}", None),
                               ("POST", f"/tables/{code}/lock", {"locked": True}),
                               ("POST", f"/tables/{code}/close", {})):
        status, out = svc.call(method, path, body, user="ben")
        assert status == 403 and "only a teacher" in out["error"], (path, out)
    status, out = svc.call("GET", "/tables", user="teacher")
    assert status == 200 and code in [t["code"] for t in out["tables"]]


def test_learners_sit_by_their_hub_name_and_return_to_their_seat(svc: HubService) -> None:
    code = table_of_three(svc)
    seats = {}
    for name in ("ana", "ben", "cleo"):
        status, out = svc.call("POST", f"/tables/{code}/join", {}, user=name)
        assert status == 200, out
        assert out["token"] == "" and out["name"] == name and out["returned"] is False
        seats[name] = out["seat"]
    assert sorted(seats.values()) == [0, 1, 2]
    # joining again, from any page or kernel, returns to the same seat
    status, again = svc.call("POST", f"/tables/{code}/join", {"name": "Someone else"}, user="ben")
    assert status == 200 and again["seat"] == seats["ben"] and again["returned"] is True
    # a fourth learner finds the table full; she has no seat to look at
    status, out = svc.call("POST", f"/tables/{code}/join", {}, user="dora")
    assert status == 409
    status, out = svc.call("GET", f"/tables/{code}/state", user="dora")
    assert status == 403 and "you (dora) have no seat" in out["error"]
    for name, seat in seats.items():
        status, view = svc.call("GET", f"/tables/{code}/state", user=name)
        assert status == 200 and view["player"] == seat
    # the teacher, without a seat, sees what every seat sees alike
    status, view = svc.call("GET", f"/tables/{code}/state", user="teacher")
    assert status == 200 and view["player"] is None and "hand" not in view


def test_a_learner_cannot_act_for_another_users_seat(svc: HubService) -> None:
    code = table_of_three(svc)
    for name in ("ana", "ben", "cleo"):
        assert svc.call("POST", f"/tables/{code}/join", {}, user=name)[0] == 200
    views = {n: svc.call("GET", f"/tables/{code}/state", user=n)[1] for n in ("ana", "ben", "cleo")}
    mover = next(n for n, v in views.items() if v["legal_actions"])
    other = next(n for n in views if n != mover)
    action = views[mover]["legal_actions"][0]
    # the other learner sends the mover's move, naming the mover's seat every way there is
    seat = views[mover]["player"]
    status, out = svc.call("POST", f"/tables/{code}/act",
                           {"action": action, "token": "x", "seat": seat},
                           user=other, headers={"X-Rummy-Token": "anything"})
    assert status in (400, 409), out
    status, still = svc.call("GET", f"/tables/{code}/state", user=mover)
    assert still["version"] == views[mover]["version"]
    # dora, with no seat, cannot act at all
    status, out = svc.call("POST", f"/tables/{code}/act", {"action": action}, user="dora")
    assert status == 403 and "no seat" in out["error"]
    status, out = svc.call("POST", f"/tables/{code}/act", {"action": action}, user=mover)
    assert status == 200, out
    assert out["version"] > views[mover]["version"]


def test_a_cross_site_request_is_refused(svc: HubService) -> None:
    code = table_of_three(svc)
    for headers in ({"Origin": "http://elsewhere.example"}, {"Sec-Fetch-Site": "cross-site"}):
        status, out = svc.call("POST", f"/tables/{code}/join", {}, user="ana", headers=headers)
        assert status == 403 and "refused" in out["error"], out
    status, view = svc.call("GET", f"/tables/{code}", user="teacher")
    assert all(not s["joined"] for s in view["table"]["seats"])


def test_bad_input_is_refused_with_the_reason(svc: HubService) -> None:
    code = table_of_three(svc)
    status, out = svc.call("POST", f"/tables/{code}/join", ["not", "an", "object"], user="ana")
    assert status == 400 and "JSON object" in out["error"]
    status, out = svc.call("POST", "/tables/NOPE-NOPE-NOPE/join", {}, user="ana")
    assert status in (400, 404), out
    status, out = svc.call("POST", "/tables", {"variant": "big_table", "seats": ["human"],
                                               "colour": "red"}, user="teacher")
    assert status == 400 and "unknown keys" in out["error"]


def test_seats_and_tables_survive_a_restart(tmp_path: Path, fake_hub: int) -> None:
    svc = HubService(tmp_path, fake_hub, USERS)
    try:
        code = table_of_three(svc)
        seats = {n: svc.call("POST", f"/tables/{code}/join", {}, user=n)[1]["seat"]
                 for n in ("ana", "ben", "cleo")}
        status, out = svc.call("POST", "/progress/events",
                               {"events": [one_event("G-9", False, T0 + 500.0)]}, user="ben")
        assert status == 200 and out["kept"] == 1
    finally:
        svc.kill()
    again = HubService(svc.data, fake_hub, USERS)
    try:
        for name, seat in seats.items():
            status, view = again.call("GET", f"/tables/{code}/state", user=name)
            assert status == 200 and view["player"] == seat
            status, out = again.call("POST", f"/tables/{code}/join", {}, user=name)
            assert out["seat"] == seat and out["returned"] is True
        mover = next(n for n in seats
                     if again.call("GET", f"/tables/{code}/state", user=n)[1]["legal_actions"])
        view = again.call("GET", f"/tables/{code}/state", user=mover)[1]
        status, out = again.call("POST", f"/tables/{code}/act",
                                 {"action": view["legal_actions"][0]}, user=mover)
        assert status == 200, out
        assert (svc.data / "hub-secret").stat().st_mode & 0o077 == 0
        # the events acknowledged before the kill are in the teacher's grid
        status, grid = again.call("GET", f"/tables/{code}/progress", user="teacher")
        assert status == 200 and brief(grid["rows"]) == [
            {"learner": "ben", "rule": "G-9", "attempts": 1, "right_first": 0}]
    finally:
        again.stop()


def test_the_service_refuses_to_start_outside_a_hub(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTERHUB_")}
    out = subprocess.run([sys.executable, "-m", "tableserver.hub"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**env, "RUMMY_DATA": str(tmp_path)})
    assert out.returncode != 0 and "started by JupyterHub" in out.stderr


def test_a_kernel_plays_as_its_servers_hub_user(svc: HubService, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    """The apps' kernels (tableserver.client) on a hub: the server's own hub token
    (JUPYTERHUB_API_TOKEN) is who they are; no seat token is handed out."""
    from tableserver.client import RemoteGame

    status, made = svc.call("POST", "/tables", {"variant": "three_thirteen",
                                                "seats": ["human", "greedy"]}, user="teacher")
    assert status == 201
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-cleo-0123456789")
    base = svc.api
    game = RemoteGame.join(made["code"], "typed name", api=base)
    assert game.token == "" and game.players[game.seat] == "cleo"
    deadline = time.monotonic() + 30
    while not game.legal_actions(game.seat):
        assert time.monotonic() < deadline, "the bot never gave cleo her turn"
        game.wait(timeout=2)
    version = game.version
    game.apply(game.legal_actions(game.seat)[0], player=game.seat)
    assert game.version > version
    # the same user in another kernel is back at the same seat
    again = RemoteGame.join(made["code"], "", api=base)
    assert again.seat == game.seat


def test_kernels_find_the_hubs_service_in_the_hubs_environment(monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    from tableserver.client import api_base, hub_headers

    monkeypatch.delenv("RUMMY_API", raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    monkeypatch.delenv("JUPYTERHUB_PUBLIC_URL", raising=False)
    assert api_base() == "http://127.0.0.1:8866/rummy/api"  # make app's, outside a hub
    assert hub_headers("http://127.0.0.1:8866/rummy/api/tables") == {}
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "server-token-0123456789")
    monkeypatch.setenv("JUPYTERHUB_PUBLIC_URL", "https://hub.school.example/")
    assert api_base() == "https://hub.school.example/services/rummy-tables/rummy/api"
    assert hub_headers(api_base() + "/tables") == {
        "Authorization": "token server-token-0123456789"}
    # the standalone service never gets the hub token
    assert hub_headers("http://127.0.0.1:8866/rummy/api/tables") == {}
    monkeypatch.setenv("RUMMY_API", "http://127.0.0.1:8000/services/rummy-tables/rummy/api/")
    assert api_base() == "http://127.0.0.1:8000/services/rummy-tables/rummy/api"


def test_the_teachers_page_signs_in_by_the_hub_login(svc: HubService,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The teacher's page (widgets.classroom) on a hub asks for no key: a
    teacher's server is let in, a learner's page says why not."""
    from widgets.classroom import Classroom
    from widgets.remote_table import SeatFinder

    base = svc.api
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-ana-0123456789")
    learner = Classroom(api=base)
    learner.handoff({})  # no key box: the page says it is the teacher's, and where to join
    assert learner.signin.layout.display == "none" and learner.key is None
    assert "teacher's" in learner.message.value and "Join a table" in learner.message.value
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-teacher-0123456789")
    page = Classroom(api=base)
    page.handoff({})
    assert page.key is not None and page.form.layout.display == ""
    page.variant.value = "three_thirteen"
    page.learners.value, page.bots.value = 1, 1
    page.make_table()
    assert page.code
    # a learner's page joins with the code alone: no name, no token
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-ben-0123456789")
    seat = SeatFinder(page.code, "", api=base).handoff({})
    assert seat.game.players[seat.game.seat] == "ben"


def test_a_seat_secret_given_by_the_identity_layer_is_the_seat(tmp_path: Path) -> None:
    """TableService.join(token=...): the seat is the given secret (nothing else
    opens it), a short one is refused, and a restart keeps it."""
    from tableserver import Forbidden, Store, TableService
    from tableserver.hub_identity import seat_token

    key = "a-teacher-key-for-the-tests-0123456789"
    svc = TableService(Store(str(tmp_path / "t.sqlite3")), teacher_key=key, bot_pace=0)
    code = svc.create("three_thirteen", ["human", "greedy"], teacher_key=key)["code"]
    with pytest.raises(ValueError, match="at least 32 characters"):
        svc.join(code, "ana", token="short")
    assert all(s["joined"] is False for s in svc.admin(code, key)["table"]["seats"])
    secret = seat_token(b"s" * 32, code, "ana")
    assert len(secret) >= 32
    out = svc.join(code, "ana", token=secret)
    assert svc.state(code, secret)["player"] == out["seat"] == 0
    with pytest.raises(Forbidden):
        svc.state(code, seat_token(b"s" * 32, code, "ben"))
    svc.store.close()
    again = TableService(Store(str(tmp_path / "t.sqlite3")), teacher_key=key, bot_pace=0)
    assert again.state(code, secret)["player"] == 0
    again.store.close()


# -- the record of learning on the hub: the learners' servers send their events -----------
#: An hour ago: the service keeps events of the last day only.
T0 = time.time() - 3600.0


def one_event(rule: str = "M-1", right: bool = True, when: float = T0 + 1000.0,
              **kw: Any) -> dict[str, Any]:
    return {"rule": rule, "asked": "q", "answered": "a", "right": right, "first": True,
            "source": "drill", "when": when, **kw}


def service_events(s: HubService, who: str) -> list[Any]:
    """What the service's own record keeps about ``who`` (read from its data folder)."""
    from rummy.progress import Record

    r = Record(s.data / "progress.sqlite3")
    try:
        return r.events(who)
    finally:
        r.close()


def test_a_learners_events_reach_the_teachers_grid_under_their_hub_name(svc: HubService
                                                                        ) -> None:
    code = table_of_three(svc)
    for name in ("ana", "ben"):
        assert svc.call("POST", f"/tables/{code}/join", {}, user=name)[0] == 200
    # ana's server sends what her kernels kept (under whatever name she typed there)
    status, out = svc.call("POST", "/progress/events",
                           {"events": [one_event("M-1", True, T0 + 1000.0),
                                       one_event("BT-3", False, T0 + 1001.0),
                                       one_event("BT-3", True, T0 + 1002.0, first=False)]},
                           user="ana")
    assert status == 200 and out == {"learner": "ana", "kept": 3}, out
    # sent again (the answer was lost on the way): kept once
    status, out = svc.call("POST", "/progress/events", {"events": [one_event("M-1", True, T0 + 1000.0)]},
                           user="ana")
    assert status == 200 and out["kept"] == 1
    # worked by hand: M-1 right at the first try (box 1); BT-3 wrong (box 1), then right
    # after a wrong try (stays in box 1); ben has sent nothing
    want = [{"learner": "ana", "rule": "M-1", "attempts": 1, "right_first": 1},
            {"learner": "ana", "rule": "BT-3", "attempts": 2, "right_first": 0}]
    status, grid = svc.call("GET", f"/tables/{code}/progress", user="teacher")
    assert status == 200, grid
    assert grid["learners"] == ["ana", "ben"] and brief(grid["rows"]) == want
    status, grid = svc.call("GET", "/progress", user="teacher")
    assert status == 200 and [r for r in brief(grid["rows"]) if r["learner"] == "ana"] == want
    # ana reads her own rows, by her hub login; a learner never reads the class grid
    status, mine = svc.call("GET", f"/tables/{code}/progress/me", user="ana")
    assert status == 200 and mine["learner"] == "ana" and brief(mine["rows"]) == want
    status, out = svc.call("GET", f"/tables/{code}/progress", user="ben")
    assert status == 403 and "only a teacher" in out["error"]
    assert [e.rule for e in service_events(svc, "ana")] == ["M-1", "BT-3", "BT-3"]


def test_hub_users_whose_names_begin_alike_are_two_learners(svc: HubService) -> None:
    a = "alexandra.konstantinopoulou@school.example.org"
    b = "alexandra.konstantinopoulos@school.example.org"
    assert svc.call("POST", "/progress/events", {"events": [one_event("M-1", True)]},
                    user=a)[0] == 200
    assert svc.call("POST", "/progress/events", {"events": [one_event("G-9", False)]},
                    user=b)[0] == 200
    assert [e.rule for e in service_events(svc, a)] == ["M-1"]
    assert [e.rule for e in service_events(svc, b)] == ["G-9"]
    assert svc.call("POST", "/progress/events",
                    {"events": [one_event("TT-5", False, T0 + 1001.0, judged="play")]}, user=b)[0] == 200
    assert [e.judged for e in service_events(svc, b)] == ["rule", "play"]
    status, got = svc.call("GET", "/progress/me", user=b)
    assert status == 200 and sorted(r["rule"] for r in got["rows"]) == ["G-9", "TT-5"]
    assert len(got["learner"]) <= 24 and "M-1" not in str(got)


def test_events_are_never_kept_for_a_name_in_the_body(svc: HubService) -> None:
    status, out = svc.call("POST", "/progress/events",
                           {"events": [one_event(learner="cleo")]}, user="dora")
    assert status == 400 and "the learner is who the hub says" in out["error"], out
    assert service_events(svc, "cleo") == [] and service_events(svc, "dora") == []


@pytest.mark.parametrize(("body", "says"), [
    (["not", "an", "object"], "must be a JSON object"),
    ({"events": [], "learner": "x"}, 'the body must be {"events": [...]}'),
    ({"events": []}, "a list of 1 to 50 events"),
    ({"events": [one_event(when=T0 + i) for i in range(51)]}, "a list of 1 to 50 events"),
    ({"events": [one_event(rule="Z-9")]}, "unknown rule id 'Z-9': use an id of RULES.md"),
    ({"events": [one_event(rule="TT-7"), one_event(source="homework")]},
     "event 2: unknown source 'homework': one of quiz, exercise, drill, guided, table"),
    ({"events": [one_event(right="yes")]}, "right must be true or false"),
    ({"events": [one_event(when=4e12)]}, "when must be the time it happened"),
    ({"events": [one_event(when="today")]}, "when must be the time it happened"),
    # changing "when" got past the check for an event sent again: a day back at most
    ({"events": [one_event(when=time.time() - 2 * 86_400)]}, "within the last 24 hours"),
    ({"events": [one_event(when=time.time() + 3600)]}, "not in the future"),
    ({"events": [{"rule": "M-1"}]}, "an event has exactly rule, asked, answered, right"),
    ({"events": [one_event(colour="red")]}, "unknown keys 'colour'"),
    ({"events": ["M-1"]}, "event 1 must be a JSON object"),
    ({"events": [one_event(judged="style")]}, "an event judges rule or play, not 'style'"),
])
def test_bad_events_are_refused_with_what_is_allowed(svc: HubService, body: Any,
                                                     says: str) -> None:
    status, out = svc.call("POST", "/progress/events", body, user="cleo")
    assert status == 400 and says in out["error"], out
    assert service_events(svc, "cleo") == []  # one bad event keeps none of the request


def test_events_without_the_hubs_word_or_from_another_site_are_refused(svc: HubService
                                                                       ) -> None:
    body = {"events": [one_event()]}
    status, out = svc.call("POST", "/progress/events", body)
    assert status == 401 and "sign in to the hub" in out["error"]
    status, out = svc.call("POST", "/progress/events", body,
                           headers={"Authorization": "token not-a-token-of-the-hub"})
    assert status == 401
    status, out = svc.call("POST", "/progress/events", body, user="eve")
    assert status == 403 and "may not use the table service" in out["error"]
    for headers in ({"Origin": "http://elsewhere.example"}, {"Sec-Fetch-Site": "cross-site"}):
        status, out = svc.call("POST", "/progress/events", body, user="cleo", headers=headers)
        assert status == 403 and "refused" in out["error"], out
    status, out = svc.call("POST", "/progress/events?learner=cleo", body, user="dora")
    assert status == 400 and "unknown query parameter" in out["error"]
    for who in ("eve", "cleo", "dora"):
        assert service_events(svc, who) == []



def post_events_raw(s: HubService, body: Any, user: str) -> tuple[int, Any, str | None]:
    """(status, JSON answer, Retry-After) of a POST .../progress/events as ``user``."""
    import json
    import urllib.error
    import urllib.request

    token = next(t for t, u in s.users.items() if u["name"] == user)
    req = urllib.request.Request(s.api + "/progress/events", data=json.dumps(body).encode(),
                                 method="POST", headers={"Content-Type": "application/json",
                                                         "Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read()), r.headers.get("Retry-After")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read()), e.headers.get("Retry-After")


def test_a_flood_of_events_is_refused_past_the_quota_even_after_a_restart(
        tmp_path: Path, fake_hub: int) -> None:
    """One learner's server kept 374,150 events in 30 s (changing "when" got past the
    check for an event sent again): at most EVENTS_PER_MINUTE a minute are kept per hub
    user, counted from the record (a restart forgets nothing); a refused request keeps
    nothing and says the limit and when to try again; other learners are not held up."""
    from tableserver.progress_api import EVENTS_PER_DAY, EVENTS_PER_MINUTE

    assert (EVENTS_PER_MINUTE, EVENTS_PER_DAY) == (600, 20_000)
    now = time.time()
    batches = [{"events": [one_event("M-1", True, now - 60 - 50 * b - i) for i in range(50)]}
               for b in range(EVENTS_PER_MINUTE // 50 + 2)]
    svc = HubService(tmp_path, fake_hub, USERS)
    try:
        for body in batches[:EVENTS_PER_MINUTE // 50]:
            status, out, _ = post_events_raw(svc, body, "dora")
            assert status == 200 and out["kept"] == 50, out
        status, out, wait = post_events_raw(svc, batches[-2], "dora")
        assert status == 429 and wait is not None and 1 <= int(wait) <= 60, (status, out)
        assert (f"at most {EVENTS_PER_MINUTE} a minute from each learner" in out["error"]
                and "none of these 50 was kept" in out["error"]
                and "try again in" in out["error"]), out
        # sent again (the answer was lost): kept once, so it is not refused
        status, out, _ = post_events_raw(svc, batches[0], "dora")
        assert status == 200 and out["kept"] == 50
        # another learner, a cross-site request and a wrong token change nothing for dora
        assert post_events_raw(svc, batches[-1], "ben")[0] == 200
        status, out = svc.call("POST", "/progress/events", batches[-1], user="dora",
                               headers={"Sec-Fetch-Site": "cross-site"})
        assert status == 403
        assert len(service_events(svc, "dora")) == EVENTS_PER_MINUTE
    finally:
        svc.kill()
    again = HubService(svc.data, fake_hub, USERS)
    try:
        if time.time() - now < 50:  # (a restart on a very busy machine may take longer)
            status, out, wait = post_events_raw(again, batches[-1], "dora")
            assert status == 429 and "a minute" in out["error"], out
        assert len(service_events(again, "dora")) == EVENTS_PER_MINUTE
        assert len(service_events(again, "ben")) == 50
    finally:
        again.stop()


def test_a_hub_kernels_events_reach_the_grid_and_stay_in_its_own_record(
        svc: HubService, own_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A learner's kernel on a hub (tableserver.progress_client): each event is kept in
    the server's own data folder first, then sent by a worker thread with the
    server's hub token; the service keeps it under the hub name (not the name typed
    in the kernel)."""
    from rummy import progress
    from tableserver import progress_client

    code = table_of_three(svc)
    assert svc.call("POST", f"/tables/{code}/join", {}, user="gus")[0] == 200
    monkeypatch.setenv("RUMMY_API", svc.api)  # own_data: the server's own data folder
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-gus-0123456789")
    monkeypatch.setattr(progress_client, "_sender", None)
    progress_client.forward_to_hub()
    progress.use_learner("Gus the Great")
    kept = progress.record("TT-7", "may you go out?", "yes", True, source="drill")
    assert kept is not None and kept.learner == "Gus the Great"  # kept here, before any send
    local = progress.Record(own_data / "progress.sqlite3")
    assert [e.rule for e in local.events("Gus the Great")] == ["TT-7"]
    local.close()
    assert progress_client.sender().flush(timeout=20)
    assert progress_client.sender().sent == 1
    status, grid = svc.call("GET", f"/tables/{code}/progress", user="teacher")
    assert status == 200
    assert [r for r in brief(grid["rows"]) if r["learner"] == "gus"] == [
        {"learner": "gus", "rule": "TT-7", "attempts": 1, "right_first": 1}]


def test_erase_my_record_on_a_hub_erases_the_services_copy_too(
        svc: HubService, own_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress page's *Erase my record* on a hub: the learner's own record, and the
    copy the hub's table service keeps for the teacher's grid (their whole hub name: a
    user whose name begins alike keeps theirs)."""
    pytest.importorskip("ipywidgets")
    from rummy import progress
    from tableserver import progress_client
    from widgets.progress import Progress

    alex1, alex2 = (USERS[f"tok-alex{n}-0123456789"]["name"] for n in (1, 2))
    one = {"rule": "M-1", "asked": "q", "answered": "a", "right": True, "first": True,
           "source": "quiz", "when": T0 + 10.0}
    status, _ = svc.call("POST", "/progress/events", {"events": [one]}, user=alex2)
    assert status == 200
    theirs = [e.rule for e in service_events(svc, alex2)]  # (the service is the module's)
    before = [e.rule for e in service_events(svc, alex1)]
    monkeypatch.setenv("RUMMY_API", svc.api)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-alex1-0123456789")
    monkeypatch.setenv("JUPYTERHUB_USER", alex1)
    monkeypatch.setattr(progress_client, "_sender", None)
    progress_client.forward_to_hub()
    assert progress.learner() == alex1
    progress.record("TT-7", "may you go out?", "yes", True, source="drill")
    progress.record("TT-5", "which pile?", "stock", True, source="drill")
    assert progress_client.sender().flush(timeout=20)
    assert [e.rule for e in service_events(svc, alex1)] == [*before, "TT-7", "TT-5"]
    page = Progress()
    assert page.erase(confirmed=True) == 2
    assert (f"and the copy the hub kept for your teacher&#x27;s grid ({len(before) + 2} events)"
            in page.message.value)
    assert service_events(svc, alex1) == [] and progress.default_record().events(alex1) == []
    assert [e.rule for e in service_events(svc, alex2)] == theirs and "M-1" in theirs
    # the service away: erased here, and the page says the hub's copy is left
    monkeypatch.setenv("RUMMY_API", f"http://127.0.0.1:{free_port()}{HUB_API}")
    progress.record("TT-7", "may you go out?", "no", False, source="drill")
    assert page.erase(confirmed=True) == 1
    assert "could not be erased" in page.message.value and "rummy-error" in page.message.value


def test_on_a_hub_the_service_judges_a_quiz_and_the_learners_map_has_a_copy(
        svc: HubService, own_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lesson's quiz on a hub: the hub's table service judges the answer and keeps it
    under the hub user (the teacher's grid); the learner's own record, which their map
    reads, keeps a copy as the server judged it, which is not sent to the service again."""
    pytest.importorskip("ipywidgets")
    from rummy import progress
    from tableserver import progress_client
    from widgets.quiz import quiz_book

    monkeypatch.setenv("RUMMY_API", svc.api)
    who = USERS["tok-alex2-0123456789"]["name"]  # (hana's events are another test's)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-alex2-0123456789")
    monkeypatch.setenv("JUPYTERHUB_USER", who)
    monkeypatch.setattr(progress_client, "_sender", None)
    progress_client.forward_to_hub()
    before = len(service_events(svc, who))
    book = Path(__file__).resolve().parent.parent / "notebooks" / "quizzes" / "01_three_thirteen.json"
    quiz = quiz_book(str(book))(1)  # round 7 deals 7 + 2 = 9 cards (TT-1)
    assert quiz.question is None and quiz.answer("7") is False and quiz.answer("9") is True
    there = [(e.rule, e.answered, e.right, e.by) for e in service_events(svc, who)[before:]]
    assert there == [("TT-1", "7", False, "server"), ("TT-1", "9", True, "server")]
    mine = [(e.rule, e.answered, e.right, e.first, e.by)
            for e in progress.default_record().events(who)]
    assert mine == [("TT-1", "7", False, True, "server"), ("TT-1", "9", True, False, "server")]
    assert progress_client.sender().flush(timeout=20)
    assert len(service_events(svc, who)) == before + 2  # nothing sent twice


def test_the_sender_keeps_events_while_the_service_is_away_and_drops_a_refusal(
        svc: HubService, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    from rummy.progress import Event
    from tableserver import progress_client

    live = svc.api
    monkeypatch.setattr(progress_client, "_BACKOFF", (0.2,))
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-hana-0123456789")
    sender = progress_client.Sender(api=f"http://127.0.0.1:{free_port()}{HUB_API}")  # nobody there
    e = Event("hana", "G-7", "q", "a", True, True, "table", T0 + 900.0)
    sender.send(e)  # returns at once, raises nothing
    deadline = time.monotonic() + 20
    while sender.failures < 2:
        assert time.monotonic() < deadline, "the sender never tried again"
        time.sleep(0.05)
    assert sender.queued() == 1 and sender.sent == 0
    assert "trying again" in caplog.text
    sender.api = live  # the service is back
    assert sender.flush(timeout=20)
    assert sender.sent == 1 and sender.dropped == 0
    assert [(x.rule, x.when) for x in service_events(svc, "hana")] == [("G-7", T0 + 900.0)]
    # a refusal (eve may not use the service) is logged and not sent again
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-eve-0123456789")
    sender.send(e)
    assert sender.flush(timeout=20)
    assert sender.dropped == 1 and "refused 1 event" in caplog.text
    assert service_events(svc, "eve") == []


def test_while_it_loads_the_service_tells_the_hub_it_is_up_and_the_api_to_wait() -> None:
    """The hub waits about ten seconds for a service it starts to answer its home page
    with anything but a 5xx, else the hub stops; loading JupyterHub's client takes
    longer on a busy machine.  Meanwhile the home page reloads itself, the API says 503."""
    import asyncio

    from tornado import httpclient, web
    from tornado.httpserver import HTTPServer

    from tableserver.hub import StartingPage

    async def ask() -> list[tuple[str, int, str]]:
        app = web.Application([(r".*", StartingPage, {"prefix": HUB_PREFIX})])
        server = HTTPServer(app)
        port = free_port()
        server.listen(port, "127.0.0.1")
        client = httpclient.AsyncHTTPClient()
        out = []
        try:
            for path in (HUB_PREFIX, HUB_PREFIX.rstrip("/"), HUB_API + "/tables", "/elsewhere"):
                r = await client.fetch(f"http://127.0.0.1:{port}{path}", raise_error=False)
                out.append((path, r.code, r.headers.get("Refresh", "")))
        finally:
            server.stop()
        return out

    assert asyncio.run(ask()) == [(HUB_PREFIX, 200, "2"), (HUB_PREFIX.rstrip("/"), 200, "2"),
                                  (HUB_API + "/tables", 503, ""), ("/elsewhere", 503, "")]


def test_on_a_hub_only_a_teacher_imports_a_saved_record(svc: HubService, tmp_path: Path
                                                        ) -> None:
    """A learner's record saved elsewhere (the static site) comes into the hub's class
    grid by the teacher's import: a learner may not import one, a changed file keeps
    nothing."""
    from rummy import progress

    laptop = progress.Record(tmp_path / "laptop.sqlite3", clock=lambda: 5000.0)
    _, key = laptop.enrol("Ivo")
    laptop.add("Ivo", "G-9", "q", "a", True, source="drill", when=4000.0)
    text = progress.export_record(key, laptop)
    laptop.close()
    body = {"record": text, "code": progress.show_key(key)}
    status, out = svc.call("POST", "/progress/import", body, user="ana")
    assert status == 403 and "only a teacher" in out["error"], out
    status, out = svc.call("POST", "/progress/import",
                           {**body, "record": text.replace('"right": true', '"right": false')},
                           user="teacher")
    assert status == 400 and "changed after it was saved" in out["error"]
    assert service_events(svc, "Ivo") == []
    status, out = svc.call("POST", "/progress/import", body, user="teacher",
                           headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403 and service_events(svc, "Ivo") == []
    status, out = svc.call("POST", "/progress/import", body, user="teacher")
    assert status == 200 and out == {"learner": "Ivo", "events": 1, "new": 1}, out
    status, grid = svc.call("GET", "/progress", user="teacher")
    assert status == 200 and "Ivo" in grid["learners"]
    assert [r["rule"] for r in grid["rows"] if r["learner"] == "Ivo"] == ["G-9"]


def test_the_sender_waits_what_the_services_retry_after_says(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A service past a learner's quota answers 429 with Retry-After: the sender keeps
    the events and sends them again no sooner than that (not after its own shorter
    backoff); Retry-After beyond the cap waits the cap."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from rummy.progress import Event
    from tableserver import progress_client

    arrivals: list[tuple[float, list[Any]]] = []

    class Busy(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            arrivals.append((time.monotonic(), body["events"]))
            first = len(arrivals) == 1
            self.send_response(429 if first else 200)
            if first:
                self.send_header("Retry-After", "2")
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps({"error": "too many events"} if first
                                        else {"kept": len(body["events"])}).encode())

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Busy)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        monkeypatch.setattr(progress_client, "_BACKOFF", (0.2,))  # its own wait: shorter
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "tok-hana-0123456789")
        sender = progress_client.Sender(
            api=f"http://127.0.0.1:{httpd.server_address[1]}{HUB_API}")
        sender.send(Event("hana", "G-7", "q", "a", True, True, "table", T0 + 900.0))
        while not arrivals:
            time.sleep(0.02)
        time.sleep(0.3)  # refused, and waiting: one more event does not cut the wait short
        sender.send(Event("hana", "G-8", "q", "a", True, True, "table", T0 + 901.0))
        assert sender.flush(timeout=30)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert len(arrivals) == 2 and sender.sent == 2 and sender.dropped == 0
    assert arrivals[1][1][:1] == arrivals[0][1]  # the same event, kept and sent again
    assert [x["rule"] for x in arrivals[1][1]] == ["G-7", "G-8"]
    assert arrivals[1][0] - arrivals[0][0] >= 2.0  # no sooner than the service said
    assert "trying again in 2 s" in caplog.text
    # seconds or an HTTP date; nonsense is no wait of the service's
    from tableserver.client import retry_after

    assert retry_after("120") == 120.0 and retry_after(None) is None and retry_after("soon") is None
    assert retry_after("Thu, 01 Jan 1970 00:00:00 GMT") == 0.0


def test_a_learners_page_beats_for_her_own_seat_by_her_hub_login(svc: HubService) -> None:
    """The page's heartbeat on a hub (relayed by her own server with its hub token, see
    tableserver.hub_relay): her seat is found by her hub login, a token in the body is
    ignored, a user without a seat is told to join; a page that says it is gone leaves
    her seat within seconds."""
    code = table_of_three(svc)
    for name in ("ana", "ben"):
        assert svc.call("POST", f"/tables/{code}/join", {}, user=name)[0] == 200
    seat = svc.call("GET", f"/tables/{code}/state", user="ana")[1]["player"]
    bens = svc.call("GET", f"/tables/{code}/state", user="ben")[1]["player"]
    kernel = "0b5c9b6e-2f7a-4d5e-9b0a-1c2d3e4f5a6b"
    status, out = svc.call("POST", f"/tables/{code}/beat",
                           {"kernel": kernel, "token": "someone-else's"}, user="ana")
    assert status == 200 and out["seat"] == seat, out
    status, out = svc.call("POST", f"/tables/{code}/beat", {}, user="dora")
    assert status == 403 and "no seat" in out["error"]
    status, out = svc.call("POST", f"/tables/{code}/beat", {"kernel": "../x"}, user="ana")
    assert status == 400 and "kernel" in out["error"]
    status, out = svc.call("POST", f"/tables/{code}/beat", {"gone": True}, user="ana")
    assert status == 200
    deadline = time.monotonic() + 30
    while True:
        seats = svc.call("GET", f"/tables/{code}", user="teacher")[1]["table"]["seats"]
        if seats[seat]["left"]:
            break
        assert time.monotonic() < deadline, seats
        time.sleep(0.5)
    assert not seats[bens]["left"]
