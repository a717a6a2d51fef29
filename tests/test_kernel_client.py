"""The pages' kernel clients never wait for good on a lost wake-up
(:mod:`tableserver.kernel_client`)."""

from __future__ import annotations

import asyncio
import time
from queue import Empty
from typing import Any

import pytest
import zmq
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.session import Session

from tableserver.kernel_client import SLICE, PatientChannel, PatientKernelClient


class LostWakeUp:
    """A socket holding a reply whose wake-up was lost: a poll with no time limit
    never ends, a poll whose time runs out looks at the socket and finds it (what
    pyzmq's asyncio poller does: ``zmq_poll(0)`` when the time is up)."""

    def __init__(self, session: Session, msg: dict[str, Any]) -> None:
        self.frames = session.serialize(msg)
        self.polls: list[int | None] = []

    async def poll(self, timeout: int | None = None, flags: int = zmq.POLLIN) -> int:
        self.polls.append(timeout)
        if timeout is None:
            await asyncio.Event().wait()  # the edge never comes
        return zmq.POLLIN  # zmq_poll finds it

    async def recv_multipart(self, **kwargs: Any) -> list[bytes]:
        return self.frames


def _channel(kind: type[AsyncZMQSocketChannel]) -> tuple[AsyncZMQSocketChannel, LostWakeUp, dict[str, Any]]:
    session = Session(key=b"k" * 32)
    msg = session.msg("execute_reply", {"status": "ok"})
    socket = LostWakeUp(session, msg)
    channel = kind.__new__(kind)
    channel.socket = socket  # type: ignore[assignment]
    channel.session = session
    return channel, socket, msg


def test_a_reply_whose_wake_up_was_lost_is_read_within_a_slice() -> None:
    async def main() -> None:
        plain, _, _ = _channel(AsyncZMQSocketChannel)
        with pytest.raises(TimeoutError):  # jupyter_client's own channel: for ever
            await asyncio.wait_for(plain.get_msg(), 2 * SLICE)
        patient, socket, msg = _channel(PatientChannel)
        late = PatientChannel.found_late
        got = await asyncio.wait_for(patient.get_msg(), 2 * SLICE)
        assert got["header"]["msg_id"] == msg["header"]["msg_id"]
        assert socket.polls == [None, 0]
        assert PatientChannel.found_late == late + 1  # and the server's log says so

    asyncio.run(main())


def test_a_wait_with_a_time_limit_keeps_it() -> None:
    class Silent(LostWakeUp):
        async def poll(self, timeout: int | None = None, flags: int = zmq.POLLIN) -> int:
            self.polls.append(timeout)
            if timeout is None:
                await asyncio.Event().wait()
            return 0

    async def main() -> None:
        channel, _, _ = _channel(PatientChannel)
        channel.socket = Silent(channel.session, channel.session.msg("status", {}))  # type: ignore[assignment]
        start = time.monotonic()
        with pytest.raises(Empty):
            await channel.get_msg(timeout=0.3)
        assert 0.25 < time.monotonic() - start < 0.3 + SLICE
        assert channel.socket.polls == [None, 0]  # one slice of 0.3 s, then a look

    asyncio.run(main())


def test_the_voila_server_hands_out_patient_clients(tmp_path: Any, monkeypatch: Any) -> None:
    from jupyter_client.ioloop import AsyncIOLoopKernelManager

    from tableserver.voila_app import RummyVoila

    monkeypatch.setenv("RUMMY_DATA", str(tmp_path))
    app = RummyVoila()
    app.initialize(["--no-browser", "--Voila.port_retries=0", str(tmp_path)])
    km = AsyncIOLoopKernelManager(config=app.config)
    assert km.client_factory is PatientKernelClient
    client = km.client()
    for name in ("shell", "iopub", "stdin", "control"):
        assert getattr(client, f"{name}_channel_class") is PatientChannel
