"""The table service (tableserver.service), without the web layer.

Expected views are never taken from the service: each one is recomputed by
an independent local engine that replays the same seed and the moves the
database holds, and observed for the seat that asked.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummy
from tableserver import (
    CODE_ALPHABET,
    BadRequest,
    Conflict,
    Forbidden,
    Gone,
    NotFound,
    NotSaved,
    TableService,
    encode,
    normal_code,
)
from tests.servers import KEY, Clock, local_service

#: What the service adds to a seat's observation: the table, and the points of
#: each round or hand (checked against the replay's own score rows).
TABLE_KEYS = {"code", "version", "status", "table", "score_rows"}


def replay(svc: TableService, code: str) -> Any:
    """The table's game rebuilt from what the database holds (seed, names,
    options and the saved moves), independently of the service's own game."""
    db = sqlite3.connect(svc.store.path)
    moves = db.execute("SELECT seat, action FROM moves WHERE code = ? ORDER BY n",
                       (code,)).fetchall()
    db.close()
    t = svc.tables[code]
    g = rummy.new_game(t.variant.name, players=t.names, seed=t.seed, **t.options)
    for seat, action in moves:
        g.apply(action, player=seat)
    return g


def observation_part(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in TABLE_KEYS}


def full_table(svc: TableService, variant: str, seats: list[str], **kw: Any
               ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    made = svc.create(variant, seats, teacher_key=KEY, **kw)
    joined = [svc.join(made["code"], f"P{i}") for i, k in enumerate(seats) if k == "human"]
    return made, joined


# -- codes and tokens ------------------------------------------------------------

def test_codes_are_readable_and_long_enough(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    codes = {svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"] for _ in range(30)}
    assert len(codes) == 30
    for c in codes:
        groups = c.split("-")
        assert [len(g) for g in groups] == [4, 4, 4]
        assert set("".join(groups)) <= set(CODE_ALPHABET)
    # 30 symbols, none of them easy to mishear or misread
    assert not set("01ILOU") & set(CODE_ALPHABET) and len(CODE_ALPHABET) == 30
    assert len(CODE_ALPHABET) ** 12 > 2**58
    c = codes.pop()
    assert normal_code(c.lower().replace("-", " ")) == c


def test_tokens_are_secret_and_distinct(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "big_table", ["human"] * 4)
    tokens = [j["token"] for j in joined] + [KEY, made["spectator_token"]]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 32 for t in tokens)
    # the database keeps only hashes of them
    raw = Path(svc.store.path).read_bytes()
    for t in tokens:
        assert t.encode() not in raw


# -- creating and joining -----------------------------------------------------------

@pytest.mark.parametrize("args,kw,says", [
    (("poker", ["human"]), {}, "poker"),
    (("gin_three", ["human", "human"]), {}, "3"),
    (("gin_three", ["human", "human", "clever"]), {}, "clever"),
    (("gin_three", "human"), {}, "seats must be a list"),
    (("three_thirteen", ["human"] * 2), {"options": {"jokers": 2}}, "jokers"),
    (("three_thirteen", ["human"] * 2), {"timeout": -1}, "timeout"),
    (("three_thirteen", ["human"] * 2), {"speed": "fast"}, "speed"),
    (("three_thirteen", ["human"] * 2), {"stand_in": "cheater"}, "stand_in"),
    (("three_thirteen", ["human"] * 2), {"pause_between_hands": "yes"}, "true or false"),
])
def test_bad_table_requests_say_what_is_allowed(tmp_path: Path, args: tuple[Any, ...],
                                                kw: dict[str, Any], says: str) -> None:
    svc = local_service(tmp_path)
    with pytest.raises(BadRequest, match=says):
        svc.create(*args, teacher_key=KEY, **kw)
    assert svc.tables == {} and svc.store.load() == []


def test_join_fills_human_seats_in_order_and_a_full_table_says_so(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made = svc.create("big_table", ["greedy", "human", "random", "human"], teacher_key=KEY)
    code = made["code"]
    assert svc.state(code, made["spectator_token"])["status"] == "waiting"
    a = svc.join(code, "Ana")
    with pytest.raises(Conflict, match="name 'ana' is taken"):  # a name is one learner's
        svc.join(code, "ana")
    b = svc.join(code, "Ben")
    assert (a["seat"], b["seat"]) == (1, 3)
    with pytest.raises(Conflict, match="full: all 2 learners' seats are taken"):
        svc.join(code, "Cleo")
    # every human seat is taken: the game started by itself
    assert svc.state(code, a["token"])["status"] == "playing"
    assert svc.tables[code].names == ["Greedy bot 1", "Ana", "Random bot 3", "Ben"]


@pytest.mark.parametrize("name", ["", "   ", None, 7, "x" * 25, "tab\there\x00"])
def test_join_refuses_bad_names(tmp_path: Path, name: Any) -> None:
    svc = local_service(tmp_path)
    code = svc.create("gin_three", ["human"] * 3, teacher_key=KEY)["code"]
    before = svc.tables[code].version
    with pytest.raises(BadRequest, match="name must be"):
        svc.join(code, name)
    assert svc.tables[code].version == before


def test_only_existing_tables_can_be_joined(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    svc.create("gin_three", ["human"] * 3, teacher_key=KEY)
    with pytest.raises(NotFound, match="there is no table"):
        svc.join("ABCD-EFGH-JKMN", "Ana")
    with pytest.raises(NotFound, match="not a table code"):
        svc.join("../../etc", "Ana")


# -- what a seat sees ------------------------------------------------------------------

def play_randomly(svc: TableService, code: str, tokens: dict[int, str], rng: random.Random,
                  steps: int) -> None:
    """Humans pick random legal moves through the service; after each step
    every seat's view is checked against an independent replay."""
    for _ in range(steps):
        t = svc.tables[code]
        if t.status == "paused":
            continue
        if t.status != "playing":
            return
        movers = [s for s in t.game.to_act() if s in tokens]
        if not movers:  # the bots' turns first (a server's worker thread plays them)
            svc.tick()
            movers = [s for s in t.game.to_act() if s in tokens]
        if t.status != "playing" or not movers:
            return
        seat = rng.choice(movers)
        view = svc.state(code, tokens[seat])
        assert view["legal_actions"], view["phase"]
        svc.act(code, tokens[seat], rng.choice(view["legal_actions"]), view["version"])
        svc.tick()  # the bots' turns (a server's worker thread plays them)
        check_views(svc, code, tokens)


def check_views(svc: TableService, code: str, tokens: dict[int, str]) -> None:
    local = replay(svc, code)
    for seat, token in tokens.items():
        view = svc.state(code, token)
        assert observation_part(view) == encode(local.observe(seat))
        assert view["score_rows"] == [[label, row] for label, row in local._score_rows()]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["three_thirteen", "tre_tretton", "three_thirteen_jokers", "big_table",
                        "gin_three"]), st.integers(0, 10**6))
def test_a_seat_sees_exactly_its_own_observation(tmp_path_factory: Any, variant: str,
                                                 seed: int) -> None:
    svc = local_service(tmp_path_factory.mktemp("db"))
    n = {"gin_three": 3, "three_thirteen_jokers": 4}.get(variant, 3)
    seats = ["human"] * (n - 1) + ["random"]
    made, joined = full_table(svc, variant, seats, speed=0, pause_between_hands=False)
    tokens = {j["seat"]: j["token"] for j in joined}
    play_randomly(svc, made["code"], tokens, random.Random(seed), 60)


def test_a_spectator_sees_only_what_every_seat_sees(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "big_table", ["human"] * 3 + ["greedy"], speed=0)
    code = made["code"]
    tokens = {j["seat"]: j["token"] for j in joined}
    play_randomly(svc, code, tokens, random.Random(3), 7)
    view = svc.state(code, made["spectator_token"])
    local = replay(svc, code)
    seats = [encode(local.observe(s)) for s in range(4)]
    public = observation_part(view)
    assert public["player"] is None and "hand" not in public and "legal_actions" not in public
    for key, value in public.items():
        if key != "player":
            assert all(s[key] == value for s in seats), key
    # and nothing that every seat shows alike is missing
    assert {k for k in seats[0] if all(s[k] == seats[0][k] for s in seats)} <= set(public)


# -- moving ------------------------------------------------------------------------------

def test_a_wrong_or_missing_token_changes_nothing(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "gin_three", ["human"] * 3)
    code = made["code"]
    t = svc.tables[code]
    seat = t.game.current_player
    mover = next(j for j in joined if j["seat"] == seat)
    action = svc.state(code, mover["token"])["legal_actions"][0]
    other = next(j for j in joined if j["seat"] != seat)
    before = (t.version, t.game.to_json(), svc.store.count_moves())
    for token in (None, "", "x" * 32, other["token"] + "x", made["spectator_token"],
                  KEY):
        with pytest.raises(Forbidden):
            svc.act(code, token, action)
    with pytest.raises(Forbidden):
        svc.state(code, None)
    # another seat's token moves that seat only: here it is not its turn
    with pytest.raises(BadRequest):
        svc.act(code, other["token"], action)
    assert (t.version, t.game.to_json(), svc.store.count_moves()) == before
    svc.act(code, mover["token"], action)
    assert svc.store.count_moves() == 1


def test_an_illegal_move_gets_the_engines_reason_and_changes_nothing(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "three_thirteen", ["human", "human"])
    code = made["code"]
    t = svc.tables[code]
    seat = t.game.current_player
    token = next(j["token"] for j in joined if j["seat"] == seat)
    before = (t.version, t.game.to_json())
    with pytest.raises(BadRequest) as bad:
        svc.act(code, token, "discard 9c", svc.state(code, token)["version"])
    local = rummy.new_game("three_thirteen", players=t.names, seed=t.seed)
    with pytest.raises(rummy.GameError) as engine:
        local.apply("discard 9c", player=seat)
    assert bad.value.message == str(engine.value)
    for junk in ("", "fly away", None, 7, "x" * 300):
        with pytest.raises(BadRequest):
            svc.act(code, token, junk)
    with pytest.raises(BadRequest, match="version"):
        svc.act(code, token, "draw stock", "3")
    assert (t.version, t.game.to_json()) == before


def test_a_stale_page_gets_409_with_the_fresh_state(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "three_thirteen", ["human", "human"])
    code = made["code"]
    seat = svc.tables[code].game.current_player
    token = next(j["token"] for j in joined if j["seat"] == seat)
    old = svc.state(code, token)["version"]
    svc.act(code, token, "draw stock", old)  # the page is now stale
    with pytest.raises(Conflict) as stale:
        svc.act(code, token, "draw stock", old)  # a double click: no longer legal
    assert stale.value.state == svc.state(code, token)
    assert stale.value.state["phase"] == "discard"


def test_BT_3_simultaneous_choices_on_old_versions_are_the_normal_case(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    # a seed whose deal opens no match window (BT-4): every seat draws first
    made, joined = full_table(svc, "big_table", ["human"] * 3, seed=1)
    code = made["code"]
    views = {j["seat"]: svc.state(made["code"], j["token"]) for j in joined}
    assert {v["phase"] for v in views.values()} == {"draw"}
    assert {v["version"] for v in views.values()} == {svc.tables[code].version}
    for j in joined:  # all three pages send their draw against the same version
        svc.act(code, j["token"], "draw pool", views[j["seat"]]["version"])
    assert svc.state(code, joined[0]["token"])["phase"] == "choose discard"
    assert svc.store.count_moves() == 3


def test_G_2_the_advice_channel_is_private_to_the_gin_team(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "gin_three", ["human"] * 3)
    code = made["code"]
    game = svc.tables[code].game
    token = {j["seat"]: j["token"] for j in joined}
    captain, advisor, box = game.captain, game.advisor, game.box
    svc.act(code, token[advisor], "advise pass")
    assert svc.state(code, token[captain])["advice"]["action"] == "pass"
    assert svc.state(code, token[advisor])["advice"]["action"] == "pass"
    assert svc.state(code, token[box])["advice"] is None
    with pytest.raises(BadRequest, match="only the advisor"):
        svc.act(code, token[box], "advise pass")


# -- nothing lost ----------------------------------------------------------------------------

def test_every_acknowledged_move_is_saved_and_a_restart_brings_tables_back(tmp_path: Path
                                                                         ) -> None:
    clock = Clock()
    svc = local_service(tmp_path, clock)
    made, joined = full_table(svc, "big_table", ["human"] * 3 + ["expert", "greedy"], speed=0,
                              pause_between_hands=False)
    code = made["code"]
    tokens = {j["seat"]: j["token"] for j in joined}
    rng = random.Random(5)
    for _ in range(12):
        play_randomly(svc, code, tokens, rng, 1)
        # acknowledged means saved: the database holds every move made so far
        assert svc.store.count_moves() == svc.tables[code].moves == len(
            svc.tables[code].game.history)
    before = {s: svc.state(code, t) for s, t in tokens.items()}
    spectator = svc.state(code, made["spectator_token"])
    svc.store.close()
    again = local_service(tmp_path, clock)  # a new process would do just this
    after = {s: again.state(code, t) for s, t in tokens.items()}
    assert after == before
    assert again.state(code, made["spectator_token"]) == spectator
    assert again.admin(code, KEY)["status"] == "playing"
    play_randomly(again, code, tokens, rng, 10)  # and the hand goes on
    assert again.tables[code].moves > svc.tables[code].moves


def test_a_closed_table_stays_closed_after_a_restart(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "gin_three", ["human"] * 3)
    with pytest.raises(Forbidden):
        svc.close(made["code"], joined[0]["token"])
    svc.close(made["code"], KEY)
    with pytest.raises(Gone):
        svc.state(made["code"], joined[0]["token"])
    again = local_service(tmp_path)
    with pytest.raises(Gone, match="closed"):
        again.act(made["code"], joined[0]["token"], "pass")


# -- absent learners and the teacher ---------------------------------------------------------

def two_learners(tmp_path: Path, clock: Clock, timeout: float
                 ) -> tuple[TableService, str, int, str, str]:
    """A Three Thirteen table of two learners (seed 2: nobody can go out in the
    turns these tests play; a fixed deal, not a random one): the service, the
    code, the seat to act, its token and the other learner's token."""
    svc = local_service(tmp_path, clock)
    made, joined = full_table(svc, "three_thirteen", ["human", "human"], timeout=timeout,
                              speed=0, seed=2)
    code = made["code"]
    seat = svc.tables[code].game.current_player
    token = next(j["token"] for j in joined if j["seat"] == seat)
    other = next(j["token"] for j in joined if j["seat"] != seat)
    return svc, code, seat, token, other


def test_an_absent_learner_is_played_by_a_stand_in_and_gets_the_seat_back(tmp_path: Path
                                                                          ) -> None:
    clock = Clock()
    svc, code, seat, token, other = two_learners(tmp_path, clock, timeout=30)
    t = svc.tables[code]
    started = t.version
    svc.watch(code, other, +1)  # the other learner's page waits for news: present
    clock.t += 20
    svc.state(code, token)  # reconnecting does not move the deadline
    clock.t += 9
    assert svc.tick() == 0
    clock.t += 2  # 31 s after the turn began
    assert svc.tick() == 2  # the stand-in draws and discards for the seat
    assert t.version > started and t.seats[seat].away
    assert t.game.current_player != seat
    info = svc.admin(code, KEY)["table"]["seats"][seat]
    assert info["away"] and info["joined"]
    svc.watch(code, token, +1)  # the learner is back
    svc.state(code, token)
    assert not t.seats[seat].away
    # the other learner's page goes away; 31 s later they are absent, and the
    # stand-in plays for them at once (speed 0), without waiting for a deadline
    svc.watch(code, other, -1)
    clock.t += 31
    assert svc.tick() == 2 and t.seats[1 - seat].away
    assert t.game.current_player == seat and not t.seats[seat].away
    svc.act(code, token, "draw stock")  # the seat is the learner's own


def test_a_closed_page_leaves_within_seconds_and_does_not_stall_the_table(tmp_path: Path
                                                                          ) -> None:
    """A learner whose page closes (its long poll is cut off and
    no other begins) is listed as left a few seconds later, everybody is told (the
    version grows), and at a table with the default 120 s timeout a stand-in plays
    the seat's turns at the bots' pace instead of stalling the table for 120 s.
    A learner who never long-polled (a script on the API) keeps the timeout."""
    clock = Clock()
    svc, code, seat, token, other = two_learners(tmp_path, clock, timeout=120)
    t = svc.tables[code]
    svc.watch(code, token, +1)
    svc.watch(code, other, +1)
    clock.t += 60
    assert svc.presence() == [] and svc.tick() == 0  # both pages are open: the table waits
    svc.watch(code, token, -1, dropped=True)  # the page of the learner to act closes
    clock.t += svc.left_after / 2
    assert svc.presence() == [] and svc.tick() == 0  # a page opens its next poll at once
    before = t.version
    clock.t += svc.left_after
    assert svc.presence() == [code] and t.version > before
    info = svc.admin(code, KEY)["table"]["seats"]
    assert info[seat]["left"] and not info[1 - seat]["left"]
    assert svc.presence() == []  # told once
    assert svc.tick() == 2 and t.seats[seat].away  # the stand-in drew and discarded
    assert t.game.current_player != seat  # 66 s after the turn began, not 120
    # the learner opens the page again: back, and everybody is told
    before = t.version
    svc.watch(code, token, +1)
    assert not t.seats[seat].left and t.version > before
    # a poll the service answered: the page redraws before it asks again, which on a
    # busy machine may take a while, so it is not taken for gone as soon as a cut one
    svc.watch(code, other, -1)
    clock.t += svc.left_after + 1
    assert svc.presence() == []
    clock.t += svc.quiet_after
    assert svc.presence() == [code] and t.seats[1 - seat].left
    # a learner who never long-polled is judged by the timeout alone
    svc2 = local_service(tmp_path / "api", clock)
    made2, joined2 = full_table(svc2, "three_thirteen", ["human", "human"], timeout=120,
                                speed=0, seed=2)
    clock.t += 60
    assert svc2.presence() == [] and svc2.tick() == 0
    assert not any(s["left"] for s in svc2.admin(made2["code"], KEY)["table"]["seats"])


def test_the_teacher_starts_each_hand_and_only_the_admin_token_may(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made = svc.create("three_thirteen", ["human", "greedy"], teacher_key=KEY, speed=0)
    code, admin = made["code"], KEY
    with pytest.raises(Forbidden):
        svc.next_hand(code, made["spectator_token"])
    with pytest.raises(Forbidden):
        svc.admin(code, None)
    svc.next_hand(code, admin)  # starts with the free seat played by a stand-in (speed 0)
    svc.tick()  # the bots' worker plays the stand-in's and the bot's moves
    t = svc.tables[code]
    assert t.moves > 0 and t.seats[0].away
    assert t.status == "paused" and t.hand == 2  # round 1 was played to its end
    with pytest.raises(BadRequest):
        me = svc.join(code, "Ana")
        svc.act(code, me["token"], "draw stock")
    svc.next_hand(code, admin)
    assert t.status == "playing"
    with pytest.raises(BadRequest, match="still being played"):
        svc.next_hand(code, admin)


def test_removing_a_seat_revokes_its_token_and_frees_it(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "gin_three", ["human"] * 3)
    code, admin = made["code"], KEY
    with pytest.raises(Forbidden):
        svc.remove_seat(code, joined[0]["token"], 1)
    with pytest.raises(BadRequest, match="seat must be"):
        svc.remove_seat(code, admin, 3)
    svc.remove_seat(code, admin, 1)
    with pytest.raises(Forbidden):
        svc.state(code, joined[1]["token"])
    back = svc.join(code, "Ben")
    assert back["seat"] == 1 and back["token"] != joined[1]["token"]
    again = local_service(tmp_path)  # and so after a restart
    with pytest.raises(Forbidden):
        again.state(code, joined[1]["token"])
    assert again.state(code, back["token"])["player"] == 1


def test_a_move_the_database_refuses_never_happened(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made, joined = full_table(svc, "three_thirteen", ["human", "human"])
    code = made["code"]
    seat = svc.tables[code].game.current_player
    token = next(j["token"] for j in joined if j["seat"] == seat)
    before = svc.state(code, token)
    db = sqlite3.connect(svc.store.path)
    db.execute("CREATE TRIGGER refuse BEFORE INSERT ON moves "
               "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
    db.commit()
    with pytest.raises(NotSaved, match="the disk is full"):
        svc.act(code, token, "draw stock", before["version"])
    assert svc.state(code, token) == before  # reloaded from the database: as it was
    db.execute("DROP TRIGGER refuse")
    db.commit()
    db.close()
    after = svc.act(code, token, "draw stock", before["version"])
    assert after["phase"] == "discard" and svc.store.count_moves() == 1
