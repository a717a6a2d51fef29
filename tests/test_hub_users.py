"""The demo hub (``make hub``) keeps its secrets from its users' servers.

``make hub`` runs on free loopback ports with its data in a temporary folder.
Over HTTP, as a script would: the teacher and ana sign in on the hub's login
page and take a hub token each (``POST /hub/api/users/NAME/tokens``); the
teacher makes a table at the service; ana's server starts and a kernel of
hers (the server's kernel API and its websocket, as a notebook's page runs
a cell) tries to read every file of the hub's ``private/`` folder (its
cookie secret and database, the service's database, secret and deal key),
the environment of the hub, its proxy and the service (their API tokens),
another user's home, and to write into the kit's code: each is refused.
Her app still works there: she joins the table by her hub login and her
event reaches the teacher's class grid.  Her server relays her page's
heartbeat for her seat only (tableserver.hub_relay).

When the hub runs as root (here and in CI) each user's server runs as a
system user of their own (tableserver.hub_users); those users are removed
when the hub stops.  Not as root, the hub cannot switch users: it says so
in its log (checked below), and the hub's test is skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.servers import HUB_API, ROOT, DemoHub


def signed_in(hub: DemoHub, user: str) -> tuple[requests.Session, str]:
    """A session signed in to the hub as ``user`` (its login form), and a hub
    token of theirs."""
    s = requests.Session()
    page = s.get(hub.base + "/hub/login", timeout=30)
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text)
    assert xsrf, page.text[:2000]
    done = s.post(hub.base + "/hub/login?next=", timeout=60,
                  data={"username": user, "password": hub.password, "_xsrf": xsrf.group(1)},
                  allow_redirects=False)
    assert done.status_code == 302, done.text[:2000]
    made = s.post(f"{hub.base}/hub/api/users/{user}/tokens", json={"note": "test"},
                  headers={"X-XSRFToken": s.cookies.get("_xsrf", path="/hub/")}, timeout=30)
    assert made.status_code == 201, made.text
    return s, str(made.json()["token"])


def started(hub: DemoHub, user: str, token: str) -> None:
    """Start ``user``'s server and wait until it is ready."""
    auth = {"Authorization": f"token {token}"}
    answer = requests.post(f"{hub.base}/hub/api/users/{user}/server", headers=auth, timeout=60)
    assert answer.status_code in (201, 202), answer.text
    deadline = time.monotonic() + 240
    while True:
        model = requests.get(f"{hub.base}/hub/api/users/{user}", headers=auth, timeout=30).json()
        server = model.get("servers", {}).get("")
        if server and server.get("ready"):
            return
        assert time.monotonic() < deadline, (
            f"{user}'s server did not start: {model}\n{hub.log()[-4000:]}")
        time.sleep(0.5)


def run_in_kernel(hub: DemoHub, user: str, token: str, code: str) -> str:
    """Run ``code`` in a new kernel of ``user``'s server (its REST API and
    websocket, with their token); what it printed."""
    import websocket

    auth = {"Authorization": f"token {token}"}
    api = f"{hub.base}/user/{user}/api/kernels"
    made = requests.post(api, json={"name": "python3"}, headers=auth, timeout=60)
    assert made.status_code == 201, made.text
    kernel = made.json()["id"]
    ws = websocket.create_connection(api.replace("http://", "ws://") + f"/{kernel}/channels",
                                     header=[f"Authorization: token {token}"], timeout=120)
    try:
        msg_id = uuid.uuid4().hex
        ws.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": user,
                       "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": False,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        out, deadline = [], time.monotonic() + 180
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                pytest.fail("the kernel failed: " + "\n".join(content["traceback"]))
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out)
        pytest.fail("the kernel did not answer in time")
    finally:
        ws.close()
        requests.delete(f"{api}/{kernel}", headers=auth, timeout=30)


#: What ana's kernel runs: PATHS to read, the table CODE to join, one event to record.
PROBE = """
import json, os
from pathlib import Path

tried = {}
for p in PATHS:
    try:
        if os.path.isdir(p):
            os.listdir(p)
        else:
            open(p, "rb").read(1)
        tried[p] = "read"
    except PermissionError:
        tried[p] = "refused"
    except OSError as e:
        tried[p] = type(e).__name__
for p in WRITES:
    try:
        open(p, "w").close()
        tried[p] = "written"
        os.unlink(p)
    except PermissionError:
        tried[p] = "refused"

from rummy import progress
from tableserver import progress_client
from tableserver.client import RemoteGame

game = RemoteGame.join(CODE, "")
progress_client.forward_to_hub()
progress.record("TT-7", "may you go out?", "yes", True, source="drill")
print(json.dumps({"tried": tried, "seat": game.players[game.seat], "uid": os.getuid(),
                  "home": os.environ["HOME"], "sent": progress_client.sender().flush(30)}))
"""


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoHub]:
    """The demo hub with the servers of ana and ben started; the system users it made
    are gone once it stops."""
    if os.geteuid() != 0:
        pytest.skip("only a hub run as root can start its users' servers as users of their own")
    h = DemoHub(tmp_path_factory.mktemp("hub-users"))
    try:
        yield h
    finally:
        h.stop()
    assert not [u for u in _accounts() if str(h.hub_data) in u]  # no user left behind


@pytest.fixture(scope="module")
def tokens(hub: DemoHub) -> dict[str, str]:
    """A hub token of the teacher's, ana's and ben's; ana's and ben's servers started."""
    out = {name: signed_in(hub, name)[1] for name in ("teacher", "ana", "ben")}
    for name in ("ben", "ana"):
        started(hub, name, out[name])
    return out


def new_table(hub: DemoHub, teacher: str) -> str:
    made = requests.post(hub.base + HUB_API + "/tables", timeout=60,
                         headers={"Authorization": f"token {teacher}"},
                         json={"variant": "three_thirteen", "seats": ["human", "greedy"]})
    assert made.status_code == 201, made.text
    return str(made.json()["code"])


@pytest.mark.timeout(600)  # a hub, three sign-ins, two servers, a kernel: 1-2 min on 2 busy cores
def test_a_learners_kernel_reads_no_secret_of_the_hub_yet_plays(hub: DemoHub,
                                                                tokens: dict[str, str]) -> None:
    code = new_table(hub, tokens["teacher"])
    private = hub.hub_data / "private"
    secrets = sorted(str(p) for p in private.rglob("*") if p.is_file())
    names = {Path(p).name for p in secrets}
    assert {"jupyterhub_cookie_secret", "jupyterhub.sqlite", "hub-secret",
            "deals.key"} <= names, names
    # the environments of the hub, its proxy and the service hold their API tokens
    others = [f"/proc/{pid}/environ" for pid in _pids(hub.hub_data) if _owner(pid) == 0]
    assert len(others) >= 3, others
    # ben's server started: his home is another user's for ana
    paths = [*secrets, str(private), *others, str(hub.hub_data / "home" / "ben"),
             str(hub.hub_data / "home")]
    writes = [str(ROOT / "rummy" / "rummy-hub-probe.txt"),
              str(ROOT / "notebooks" / "apps" / "rummy-hub-probe.txt")]
    said = run_in_kernel(hub, "ana", tokens["ana"], f"PATHS = {paths!r}\nWRITES = {writes!r}\n"
                                                    f"CODE = {code!r}\n" + PROBE)
    out = json.loads(said.strip().splitlines()[-1])
    assert {p: how for p, how in out["tried"].items() if how != "refused"} == {}
    assert out["uid"] != 0 and out["home"] == str(hub.hub_data / "home" / "ana")
    # her app still works: a seat by her hub login, her event in the teacher's grid
    assert out["seat"] == "ana" and out["sent"] is True
    grid = requests.get(f"{hub.base}{HUB_API}/tables/{code}/progress", timeout=60,
                        headers={"Authorization": f"token {tokens['teacher']}"})
    assert grid.status_code == 200, grid.text
    assert [(r["learner"], r["rule"]) for r in grid.json()["rows"]] == [("ana", "TT-7")]
    assert "Traceback" not in hub.log()


@pytest.mark.timeout(300)
def test_a_pages_heartbeat_goes_through_its_own_users_server_only(
        hub: DemoHub, tokens: dict[str, str]) -> None:
    """``/user/NAME/rummy/api/tables/CODE/beat`` (tableserver.hub_relay): the user's own
    server relays the beat as that user; another user, nobody, a cross-site request and
    bad input are refused."""
    code = new_table(hub, tokens["teacher"])
    joined = requests.post(f"{hub.base}{HUB_API}/tables/{code}/join", json={}, timeout=60,
                           headers={"Authorization": f"token {tokens['ana']}"})
    assert joined.status_code == 200, joined.text
    relay = f"{hub.base}/user/ana/rummy/api/tables/{code}/beat"
    kernel = "0b5c9b6e-2f7a-4d5e-9b0a-1c2d3e4f5a6b"

    def beat(body: Any = None, who: str | None = "ana", **kw: Any) -> requests.Response:
        headers = {"Authorization": f"token {tokens[who]}"} if who else {}
        return requests.post(relay, json=body, headers=headers, timeout=60,
                             allow_redirects=False, **kw)

    answer = beat({"kernel": kernel, "token": "ignored"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["seat"] == 0
    assert beat({}, who="ben").status_code in (403, 404)  # ben may not use ana's server
    assert beat({}, who=None).status_code in (302, 401, 403)  # nobody signed in
    assert requests.post(f"{hub.base}/user/ben/rummy/api/tables/{code}/beat", json={},
                         headers={"Authorization": f"token {tokens['ben']}"},
                         timeout=60).json()["error"].startswith("you (ben) have no seat")
    bad = requests.post(relay, data=b"not json", timeout=60,
                        headers={"Authorization": f"token {tokens['ana']}",
                                 "Content-Type": "application/json"})
    assert bad.status_code == 400 and "JSON object" in bad.json()["error"]
    assert beat({"kernel": "x" * 2000}).status_code == 413
    assert beat({"kernel": "../../api"}).status_code == 400  # the service's own check
    # ana's browser, signed in to her server by its cookie: another site's page (no XSRF
    # token of her server's cookie) is refused
    browser, _ = signed_in(hub, "ana")
    page = browser.get(f"{hub.base}/user/ana/lab", timeout=60)  # (the OAuth dance)
    assert page.status_code == 200, page.text[:500]
    forged = browser.post(relay, json={}, timeout=60, allow_redirects=False,
                          headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"})
    assert forged.status_code == 403, forged.text[:500]
    # (her own page sends the XSRF token of her server's cookie, and gets through)
    xsrf = browser.cookies.get("_xsrf", path="/user/ana/")
    assert xsrf, browser.cookies
    own = browser.post(relay, json={}, timeout=60, allow_redirects=False,
                       headers={"X-XSRFToken": xsrf, "Sec-Fetch-Site": "same-origin",
                                "Sec-Fetch-Mode": "cors"})
    assert own.status_code == 200 and own.json()["seat"] == 0, own.text[:500]


def _pids(folder: Path) -> list[int]:
    """The processes whose environment or command line names ``folder``."""
    mine = str(folder).encode()
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (mine in (proc / "environ").read_bytes()
                                        or mine in (proc / "cmdline").read_bytes()):
                out.append(int(proc.name))
        except OSError:
            pass
    return out


def _owner(pid: int) -> int:
    return os.stat(f"/proc/{pid}").st_uid


def _accounts() -> list[str]:
    return Path("/etc/passwd").read_text().splitlines()



# -- the parts -------------------------------------------------------------------------------

def test_not_as_root_the_hub_says_plainly_that_it_isolates_nobody(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """The demo's configuration read by a hub that is not root: a warning at start (the
    hub's log) that every server runs as the hub's user and can read private/."""
    import pwd

    from traitlets.config import Config

    nobody = pwd.getpwnam("nobody")
    monkeypatch.setattr(os, "geteuid", lambda: nobody.pw_uid)
    monkeypatch.setenv("RUMMY_HUB_DATA", str(tmp_path / "hub"))
    config = Config()
    source = (ROOT / "jupyterhub_config.py").read_text()
    read: dict[str, Any] = {"get_config": lambda: config,
                            "__file__": str(ROOT / "jupyterhub_config.py")}
    try:
        exec(compile(source, str(ROOT / "jupyterhub_config.py"), "exec"), read)  # noqa: S102
    finally:
        if "RUNTIME" in read:  # (the users' short runtime folder, in the temporary folder)
            shutil.rmtree(read["RUNTIME"], ignore_errors=True)
    said = capsys.readouterr().err
    assert "cannot start users' servers as users of their own" in said
    assert f"every user's server runs as {nobody.pw_name}" in said
    assert str(tmp_path / "hub" / "private") in said
    assert config.JupyterHub.spawner_class == "tableserver.hub_users.DemoSpawner"
    assert "--allow-root" not in config.Spawner.args  # a server never runs as root
    assert (tmp_path / "hub" / "private").stat().st_mode & 0o777 == 0o700


def test_as_root_the_hub_says_when_its_users_could_not_use_the_kit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    from tableserver.hub_users import startup_warning

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    # (pytest's own temporary folders are closed to other users: one in the open)
    top = Path(tempfile.mkdtemp(prefix="rummy-hub-reach-"))
    try:
        top.chmod(0o755)
        closed = top / "closed"
        (closed / "kit").mkdir(parents=True)
        closed.chmod(0o700)
        data = top / "data"
        (data / "home").mkdir(parents=True)
        (data / "home").chmod(0o711)
        said = startup_warning(data / "private", [closed / "kit"], data)
        assert said is not None and f"{closed} is closed to other users (mode 700)" in said
        closed.chmod(0o755)
        assert startup_warning(data / "private", [closed / "kit"], data) is None
        (data / "home").chmod(0o700)
        said = startup_warning(data / "private", [closed / "kit"], data)
        assert said is not None and "cannot be passed through by other users" in said
    finally:
        shutil.rmtree(top)


def test_a_system_users_name_is_a_login_name_of_its_own() -> None:
    from tableserver.hub_users import system_name

    names = ["ana", "Ana", "ana.lopez@school.example", "ana-lopez@school.example", "Ångström",
             "alexandra.konstantinopoulou@school.example.org",
             "alexandra.konstantinopoulos@school.example.org", "ΑΝΑ", "x" * 200]
    made = [system_name(n, "/var/lib/rummy-kit-hub") for n in names]
    assert len(set(made)) == len(names)  # two names alike are two users
    for name in made:
        assert re.fullmatch(r"rummy-[a-z0-9]*-?[0-9a-f]{8}", name) and len(name) <= 32, name
    # the same user of another hub (another data folder) is another system user
    assert system_name("ana", "/tmp/rummy-hub-data-1") != system_name("ana", "/var/lib/rummy-kit-hub")


def test_an_account_that_is_not_the_demos_is_left_alone(tmp_path: Path) -> None:
    from tableserver.hub_users import ensure_system_user

    with pytest.raises(RuntimeError, match="exists and is not the demo's user"):
        ensure_system_user("root", tmp_path / "home" / "root", "root")
    assert not (tmp_path / "home").exists()


def test_a_runtime_folder_someone_took_first_stops_the_hub(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The users' runtime folder has a name anyone may take first in the shared temporary
    folder: a link there (to a folder of the taker's) stops the hub before it uses it."""
    import hashlib
    import tempfile

    from traitlets.config import Config

    data = (tmp_path / "hub").resolve()
    monkeypatch.setenv("RUMMY_HUB_DATA", str(data))
    taken = Path(tempfile.gettempdir()) / (
        "rummy-hub-" + hashlib.sha256(str(data).encode()).hexdigest()[:10])
    (tmp_path / "theirs").mkdir()
    taken.symlink_to(tmp_path / "theirs")
    try:
        with pytest.raises(SystemExit, match="is not the hub's own folder"):
            exec(compile((ROOT / "jupyterhub_config.py").read_text(), "jupyterhub_config.py",
                         "exec"), {"get_config": Config,
                                   "__file__": str(ROOT / "jupyterhub_config.py")})
    finally:
        taken.unlink()
    assert (tmp_path / "theirs").stat().st_mode & 0o777 == 0o755  # left as it was
