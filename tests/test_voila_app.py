"""``make app``'s server (``tableserver.voila_app``): how its kernels connect.

With TCP a kernel's ports are picked free by the server and bound by the
kernel a moment later; a connection opened in between can take one, and the
kernel dies at birth ("Address already in use"; it happened in CI with three
learners' pages opening at once).  Unix sockets have no such gap.
"""

from __future__ import annotations

import os

import pytest
from jupyter_client.manager import KernelManager

from tableserver.voila_app import RummyVoila


@pytest.mark.skipif(os.name != "posix", reason="Unix sockets only where the system has them")
def test_kernels_connect_over_unix_sockets_by_default() -> None:
    app = RummyVoila()
    app.initialize(["--no-browser", "--port=0", "."])
    km = KernelManager(parent=app)
    assert km.transport == "ipc"


def test_the_command_line_can_still_choose_tcp() -> None:
    app = RummyVoila()
    app.initialize(["--no-browser", "--port=0", "--KernelManager.transport=tcp", "."])
    assert KernelManager(parent=app).transport == "tcp"


def test_make_app_stays_on_loopback_and_make_classroom_serves_the_room() -> None:
    """`make app` listens on 127.0.0.1 only; `make classroom` on the
    machine's network address (or IP=...), with the teacher key and TLS."""
    import subprocess
    from pathlib import Path

    from tableserver.voila_app import network_address

    root = Path(__file__).resolve().parents[1]
    app = subprocess.run(["make", "-n", "app"], cwd=root, capture_output=True, text=True).stdout
    assert "--Voila.ip=127.0.0.1" in app
    room = subprocess.run(["make", "-n", "classroom"], cwd=root, capture_output=True,
                          text=True).stdout
    assert "--classroom" in room and "127.0.0.1" not in room
    chosen = subprocess.run(["make", "-n", "classroom", "IP=127.0.0.1"], cwd=root,
                            capture_output=True, text=True).stdout
    assert "--Voila.ip=127.0.0.1" in chosen
    RummyVoila.classroom = True
    try:
        served = RummyVoila()
        served.initialize(["--no-browser", "--port=0", "."])
        assert served.ip == network_address()
    finally:
        RummyVoila.classroom = False
