"""The demo hub's users (``make hub``) as system users of their own.

A user's server runs code its user writes: a kernel can open any file its
process may read.  The hub's cookie secret and database and the table
service's secrets (``private/`` under the demo's data folder, mode 0700)
must therefore be out of reach of every user's server.

:class:`DemoSpawner` starts each user's server:

- **when the hub runs as root**, as an unprivileged system user made for
  that user on their first start (:func:`system_name`: ``rummy-NAME-HASH``,
  a system account with no password, no login shell and a group of its
  own), in a home folder they own (``home/NAME``, mode 0700).  Root's
  ``private/`` is closed to them, as are the other users' homes and the
  processes (and environments) of the hub, its proxy and the service.
  The kit's folder and its Python must be readable by every user
  (:func:`unreachable` checks it before a server starts, and a start that
  could not work says why);
- **when it does not**, it cannot switch users: every server runs as the
  hub's own user and could read ``private/``.  The hub says so in its log
  at start and at every server's start (:data:`NOT_ISOLATED`).

:func:`remove_system_users` removes the accounts made for one data folder
(their homes stay): ``make hub-remove-users``, and the tests' hubs.

>>> system_name("ana", "/var/lib/rummy-kit-hub")
'rummy-ana-c0d61879'
>>> system_name("Ana.Lopez@school.example", "/var/lib/rummy-kit-hub")
'rummy-analopezscho-6e7b3ba5'
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import pwd
import re
import stat
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
from traitlets import List, Unicode

__all__ = ["DemoSpawner", "system_name", "unreachable", "ensure_system_user",
           "remove_system_users", "startup_warning", "kit_paths", "NOT_ISOLATED", "PREFIX", "COMMENT"]

#: How the names of the demo's system users begin.
PREFIX = "rummy-"
#: The comment (GECOS) of every system user the demo made: only these are ever removed.
COMMENT = "rummy kit demo hub user"
#: What the hub says when it cannot give each user a system user of their own.
NOT_ISOLATED = ("the hub does not run as root, so it cannot start users' servers as users "
                "of their own: every user's server runs as {user}, the hub's own user, and "
                "a learner's kernel can read the hub's cookie secret and the table "
                "service's secrets in {private}. Try the kit alone this way; for learners, "
                "start the hub as root (each user then gets a system user of their own) or "
                "give each user a container (docs/JUPYTERHUB.md)")

#: useradd and userdel change /etc/passwd one at a time (the hub may start several servers)
_accounts = threading.Lock()


def system_name(hub_name: str, data: str | os.PathLike[str]) -> str:
    """The system user of hub user ``hub_name`` on the demo hub whose data
    folder is ``data``: :data:`PREFIX`, up to 12 of the name's lowercase
    letters and digits, and 8 hex digits of a hash of the folder and the
    whole name (so that two names alike, or two hubs' users, differ; at most
    27 characters, a valid login name everywhere).  See the module's examples.
    """
    digest = hashlib.sha256(f"{Path(data)}\0{hub_name}".encode()).hexdigest()[:8]
    plain = re.sub(r"[^a-z0-9]", "", hub_name.lower())[:12]
    return f"{PREFIX}{plain}-{digest}" if plain else f"{PREFIX}{digest}"


def unreachable(path: str | os.PathLike[str], through: bool = False) -> str | None:
    """Why a user who is neither the owner nor in the group cannot read
    ``path`` (a folder: list it; ``through``: only pass through it), following
    the way there and, for a link, the file it names; None when they can.

    >>> unreachable("/") is None, unreachable("/tmp", through=True) is None
    (True, True)
    >>> unreachable("/nowhere/at/all")
    '/nowhere/at/all does not exist'
    """
    given = Path(os.path.abspath(path))
    if not given.exists():
        return f"{given} does not exist"
    for where in dict.fromkeys([given, Path(os.path.realpath(given))]):
        for folder in reversed(where.parents):
            mode = folder.stat().st_mode
            if not mode & stat.S_IXOTH:
                return (f"{folder} is closed to other users (mode {stat.S_IMODE(mode):o}), "
                        f"so they cannot reach {given}")
        mode = where.stat().st_mode
        is_dir = stat.S_ISDIR(mode)
        need = (0 if through and is_dir else stat.S_IROTH) | (stat.S_IXOTH if is_dir else 0)
        if mode & need != need:
            return (f"{where} cannot be {'passed through' if through else 'read'} by other "
                    f"users (mode {stat.S_IMODE(mode):o})")
    return None


def kit_paths(root: str | os.PathLike[str]) -> list[Path]:
    """What every user's server of a hub reads, and never writes, of the kit
    in ``root``: its code, notebooks and Voilà template, the single-user
    server, the Python and the packages of this interpreter (its ``.venv``).

    >>> Path(sys.executable) in kit_paths("/opt/rummy-kit")
    True
    """
    root = Path(root)
    return [root / "rummy" / "__init__.py", root / "tableserver" / "__init__.py",
            root / "notebooks" / "apps", root / "share" / "jupyter",
            Path(sys.executable).parent / "jupyterhub-singleuser", Path(sys.executable),
            Path(sysconfig.get_paths()["purelib"])]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run an account tool, trying again while another holds /etc/passwd's lock
    (useradd's exit status 10)."""
    for _ in range(20):
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 10:
            return done
        time.sleep(0.25)
    return done


def ensure_system_user(name: str, home: Path, hub_name: str) -> pwd.struct_passwd:
    """The system user ``name`` of hub user ``hub_name``, made if it is not
    there yet (``useradd --system``: no password, no login shell, a group of
    its own, home ``home``); ``home`` made and given to them (mode 0700).
    :class:`RuntimeError` when ``name`` is someone else's account or cannot
    be made."""
    with _accounts:
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            done = _run(["useradd", "--system", "--user-group", "--no-create-home",
                         "--home-dir", str(home), "--shell", "/usr/sbin/nologin",
                         "--comment", COMMENT, name])
            if done.returncode:
                raise RuntimeError(f"could not make the system user {name} for {hub_name}: "
                                   f"{done.stderr.strip() or done.returncode}") from None
            user = pwd.getpwnam(name)
    if user.pw_dir != str(home) or user.pw_gecos != COMMENT:
        raise RuntimeError(f"the system user {name} exists and is not the demo's user "
                           f"{hub_name} (home {user.pw_dir}): the hub leaves it alone")
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    if home.stat().st_uid != user.pw_uid:
        # a home made before (by a hub that ran every server as itself): it is theirs
        for folder, dirs, files in os.walk(home):
            for entry in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
                os.lchown(entry, user.pw_uid, user.pw_gid)
    home.chmod(0o700)
    return user


def remove_system_users(data: str | os.PathLike[str]) -> list[str]:
    """Remove the system users the demo hub whose data folder is ``data``
    made (:data:`COMMENT`, a home under ``data/home``), and their groups;
    their homes stay.  The names removed.  Their processes must have ended."""
    homes = Path(os.path.realpath(data)) / "home"
    gone = []
    with _accounts:
        for user in pwd.getpwall():
            if (user.pw_name.startswith(PREFIX) and user.pw_gecos == COMMENT
                    and Path(user.pw_dir).parent == homes):
                done = _run(["userdel", user.pw_name])
                if done.returncode:
                    raise RuntimeError(f"could not remove {user.pw_name}: {done.stderr.strip()}")
                gone.append(user.pw_name)
    return gone


class DemoSpawner(LocalProcessSpawner):
    """Each user's server of the demo hub as a system user of their own when
    the hub runs as root, else as the hub's own user (see the module)."""

    data = Unicode(help="The demo's data folder: home/NAME is each user's home.").tag(config=True)
    runtime = Unicode(help="A short folder for the users' runtime folders (RUNTIME/NAME: "
                           "their kernels' sockets).").tag(config=True)
    private = Unicode(help="The hub's and the service's secrets: nobody's server may read "
                           "them.").tag(config=True)
    needs = List(Unicode(), help="What every user's server must read: the kit's folder, its "
                                 "Python and packages.").tag(config=True)

    @property
    def home(self) -> Path:
        """This user's home folder."""
        return Path(self.data) / "home" / self.user.name

    @property
    def as_root(self) -> bool:
        """Whether the hub can start servers as other users."""
        return os.geteuid() == 0

    def system_user(self) -> str:
        """The system user this user's server runs as."""
        if self.as_root:
            return system_name(self.user.name, self.data)
        return pwd.getpwuid(os.geteuid()).pw_name

    def _prepare(self) -> None:
        """The user's account, home and runtime folder, before their server starts."""
        runtime = Path(self.runtime) / self.user.name
        if not self.as_root:
            self.home.mkdir(mode=0o700, parents=True, exist_ok=True)
            runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
            return
        problems = [why for why in [*map(unreachable, self.needs),
                                    unreachable(Path(self.data) / "home", through=True),
                                    unreachable(self.runtime, through=True)] if why]
        if problems:
            raise RuntimeError(
                "the users' servers run as system users of their own, who cannot use the "
                "kit: " + "; ".join(problems) + ". Keep the kit, its .venv and its Python in "
                "folders every user may read (e.g. `make venv PYTHON=/usr/bin/python3` in a "
                "clone outside /root), and HUB_DATA in one they may pass through")
        user = ensure_system_user(self.system_user(), self.home, self.user.name)
        runtime.mkdir(mode=0o700, exist_ok=True)
        os.chown(runtime, user.pw_uid, user.pw_gid)
        runtime.chmod(0o700)

    async def start(self) -> Any:
        """Make the user's account and folders (root) or say that nothing is
        isolated (not root), then start the server."""
        if not self.as_root:
            self.log.warning(NOT_ISOLATED.format(user=self.system_user(), private=self.private))
        await asyncio.to_thread(self._prepare)
        return await super().start()

    def make_preexec_fn(self, name: str) -> Callable[[], None]:
        """Become the user's system user (root), and start in their home."""
        if self.as_root:
            return set_user_setuid(self.system_user())  # type: ignore[no-any-return]
        home = str(self.home)
        return lambda: os.chdir(home)

    def user_env(self, env: dict[str, str]) -> dict[str, str]:
        """The user's own USER, HOME and SHELL."""
        env["USER"] = self.system_user()
        env["HOME"] = str(self.home)
        env["SHELL"] = "/bin/sh"
        return env

    async def move_certs(self, paths: dict[str, str]) -> dict[str, str]:
        """No internal TLS on the demo hub: nothing to move."""
        return paths


def startup_warning(private: str | os.PathLike[str], needs: Iterable[str | os.PathLike[str]],
                    data: str | os.PathLike[str]) -> str | None:
    """What the hub should say at start about its users' isolation: that
    there is none (not root), or that the users cannot use the kit (root,
    :func:`unreachable`); None when each user's server will run as a user of
    their own."""
    if os.geteuid() != 0:
        return NOT_ISOLATED.format(user=pwd.getpwuid(os.geteuid()).pw_name, private=private)
    problems = [why for why in [*map(unreachable, needs),
                                unreachable(Path(data) / "home", through=True)] if why]
    if problems:
        return ("each user's server will run as a system user of their own, who cannot "
                "use the kit: " + "; ".join(problems) + " (docs/JUPYTERHUB.md)")
    return None

