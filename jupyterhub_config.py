# The local demo hub of `make hub` (docs/JUPYTERHUB.md): JupyterHub on 127.0.0.1 with
# demo logins, each user's own notebook server opening the kit's apps (Voilà), and the
# table service as the hub service "rummy-tables" (python -m tableserver.hub).
#
# Everything it keeps is under $RUMMY_HUB_DATA (`make hub`: /var/lib/rummy-kit-hub for
# root, else ~/.local/state/rummy-kit-hub; outside the repository, which is every user's
# server's root folder): in private/ (0700) the hub's database and cookie secret and the
# tables' database with the service's secrets; in home/ a home folder per user whose
# rummy-data/ holds that user's own records (RUMMY_DATA).  When the hub runs as root,
# each user's server runs as a system user of their own (tableserver.hub_users: made on
# their first start, owning only their home), so no learner's kernel reads private/ or
# another user's home; when it does not, every server runs as the hub's own user and the
# hub says so in its log.  Ports: $RUMMY_HUB_PORT
# (8000, the address people open), $RUMMY_HUB_API_PORT (8081, the hub's own API),
# $RUMMY_HUB_PROXY_API_PORT (8001), $RUMMY_HUB_SERVICE_PORT (10101).
import hashlib
import os
import sys
import tempfile
from pathlib import Path

from tableserver.hub_users import kit_paths, startup_warning

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - JupyterHub's config loader

ROOT = Path(__file__).resolve().parent
ROOTS_HUB = os.geteuid() == 0
DATA = Path(os.environ.get("RUMMY_HUB_DATA")
            or (Path("/var/lib/rummy-kit-hub") if ROOTS_HUB
                else Path.home() / ".local" / "state" / "rummy-kit-hub")).resolve()
#: the hub's and the service's secrets and databases: nobody's home, its owner's only
PRIVATE = DATA / "private"
PORT = int(os.environ.get("RUMMY_HUB_PORT", "8000"))
BIN = Path(sys.executable).parent
#: The demo's logins: one teacher (the hub's "teachers" group) and three learners, all
#: with one shared password (SharedPasswordAuthenticator): never for real learners.
TEACHERS = ["teacher"]
LEARNERS = ["ana", "ben", "cleo"]
# more learners, learner1..learnerN, for the load benchmark (benchmarks/tables_load.py --hub)
LEARNERS += [f"learner{i}" for i in range(1, int(os.environ.get("RUMMY_HUB_MORE_LEARNERS", "0")) + 1)]
PASSWORD = os.environ.get("RUMMY_HUB_PASSWORD", "rummy-demo")
SERVICE = "rummy-tables"
TEACHER_SCOPE = "custom:rummy-teacher"

# the users (system users of their own when the hub is root) pass through DATA and home/
# to their own home, and list neither; private/ is the hub's only
SHUT = 0o711 if ROOTS_HUB else 0o700
(DATA / "home").mkdir(parents=True, exist_ok=True, mode=SHUT)
for folder in (DATA, DATA / "home"):
    folder.chmod(SHUT)
PRIVATE.mkdir(parents=True, exist_ok=True, mode=0o700)
PRIVATE.chmod(0o700)
# The kernels of the users' servers talk over Unix sockets (no TCP port to race for when
# several servers start kernels at once), which live in each server's runtime folder; a
# socket's path may be at most 107 bytes, and the home folders' (under DATA) is longer
# than that from many clones: a short private folder per hub instead.
RUNTIME = Path(tempfile.gettempdir()) / (
    "rummy-hub-" + hashlib.sha256(str(DATA).encode()).hexdigest()[:10])
RUNTIME.mkdir(exist_ok=True, mode=SHUT)
if RUNTIME.is_symlink() or RUNTIME.stat().st_uid != os.getuid():
    # (a name anyone could have taken first in the shared temporary folder)
    sys.exit(f"{RUNTIME} is not the hub's own folder: remove it, then start the hub again")
RUNTIME.chmod(SHUT)
#: What every user's server reads (never writes): the kit's code, notebooks and Voilà
#: template, and the Python and packages of its .venv.
NEEDS = [str(p) for p in kit_paths(ROOT)]
if (WARNING := startup_warning(PRIVATE, NEEDS, DATA)):
    # (the hub's log is not set up yet while it reads this file: straight to its stderr)
    print(f"[W rummy-kit jupyterhub_config] {WARNING}", file=sys.stderr, flush=True)

# -- the hub and its proxy, on the loopback only ------------------------------------------
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = PORT
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("RUMMY_HUB_API_PORT", "8081"))
c.JupyterHub.db_url = f"sqlite:///{PRIVATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(PRIVATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(PRIVATE / "jupyterhub.pid")
# configurable-http-proxy from the npm registry (package.json, locked), not a global one
c.ConfigurableHTTPProxy.command = [str(ROOT / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.api_url = (
    f"http://127.0.0.1:{int(os.environ.get('RUMMY_HUB_PROXY_API_PORT', '8001'))}")
c.ConfigurableHTTPProxy.pid_file = str(PRIVATE / "proxy.pid")

# -- who signs in -------------------------------------------------------------------------
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = PASSWORD
c.Authenticator.allowed_users = set(TEACHERS + LEARNERS)

# -- teachers: a group, a role with the kit's own scope -------------------------------------
c.JupyterHub.custom_scopes = {
    TEACHER_SCOPE: {"description": "Make and run the Rummy kit's shared tables."},
}
c.JupyterHub.load_groups = {"teachers": {"users": TEACHERS}}
c.JupyterHub.load_roles = [
    # every user may use the table service (a hub user has no service access by default)
    {"name": "user", "scopes": ["self", f"access:services!service={SERVICE}"]},
    {"name": "rummy-teacher", "scopes": [TEACHER_SCOPE], "groups": ["teachers"]},
]

# -- the table service ----------------------------------------------------------------------
c.JupyterHub.services = [{
    "name": SERVICE,
    "url": f"http://127.0.0.1:{int(os.environ.get('RUMMY_HUB_SERVICE_PORT', '10101'))}",
    "command": [sys.executable, "-m", "tableserver.hub"],
    "environment": {"RUMMY_DATA": str(PRIVATE / "tables"), "PYTHONPATH": str(ROOT),
                    **{k: os.environ[k] for k in ("RUMMY_BOT_PACE",) if k in os.environ}},
    # the service sees whether a browser's user is a teacher; no consent page for it
    "oauth_client_allowed_scopes": [TEACHER_SCOPE],
    "oauth_no_confirm": True,
}]

# -- each user's own server: the kit's apps (Voilà) -------------------------------------------
# local processes: as a system user of each user's own when the hub is root, else as the
# hub's own user (tableserver.hub_users); never as root
c.JupyterHub.spawner_class = "tableserver.hub_users.DemoSpawner"
c.DemoSpawner.data = str(DATA)
c.DemoSpawner.runtime = str(RUNTIME)
c.DemoSpawner.private = str(PRIVATE)
c.DemoSpawner.needs = NEEDS
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.args = [f"--ServerApp.root_dir={ROOT}",
                  "--KernelManager.transport=ipc",
                  # the pages' heartbeat, relayed to the table service as the server's user
                  "--ServerApp.jpserver_extensions=tableserver.hub_relay=True",
                  # the kit's Voilà template for every page (no CDN, the kit's front end)
                  "--VoilaConfiguration.template=rummy"]
c.Spawner.default_url = "/voila/render/notebooks/apps/index.ipynb"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
# the server's token may reach the table service, and carries the teacher scope for a
# teacher (a token gets only the scopes its user holds)
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server",
                                 f"access:services!service={SERVICE}", TEACHER_SCOPE]
c.Spawner.environment = {
    # where the apps' kernels reach the table service: through the hub's proxy
    "RUMMY_API": f"http://127.0.0.1:{PORT}/services/{SERVICE}/rummy/api",
    # the join address on the teacher's page: through user-redirect, each learner's own server
    "RUMMY_PUBLIC_URL": f"http://127.0.0.1:{PORT}/hub/user-redirect",
    # each user's own records (progress) in their own server's data folder
    "RUMMY_DATA": lambda spawner: str(DATA / "home" / spawner.user.name / "rummy-data"),
    # the kernels' sockets (--KernelManager.transport=ipc): a short path, see RUNTIME
    "JUPYTER_RUNTIME_DIR": lambda spawner: str(RUNTIME / spawner.user.name),
    "JUPYTER_PATH": str(ROOT / "share" / "jupyter"),
    "PYTHONPATH": str(ROOT),
}
