"""The server's side of a kernel connection, for the pages Voilà draws.

Voilà runs a page's cells through one kernel client per page, all of them in
the server's one asyncio loop.  pyzmq tells that loop of a socket's new
messages by an edge-triggered file descriptor, and now and then, on a loaded
machine, the edge is lost: the kernel has answered, its reply sits in the
client's socket (``zmq.EVENTS`` says ``POLLIN``), yet the wait for it never
ends.  A lesson page then stayed open for good, sending Voilà's heartbeat
every 10 s (seen as a plain GET of lesson 01 still open after 240 s, the
kernel idle, the server's task stuck in nbclient's ``_async_poll_for_reply``).

:class:`PatientKernelClient` waits in slices of :data:`SLICE` seconds: each
slice ends with a real ``zmq_poll`` of the socket (what pyzmq does when a
poll's time is up), so a lost edge costs a second instead of the page.
``RummyVoila`` makes every kernel manager hand out this client.
"""

from __future__ import annotations

import asyncio
import logging
import time
from queue import Empty
from typing import Any

from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from traitlets import Type

__all__ = ["SLICE", "PatientChannel", "PatientKernelClient"]

#: the longest one wait on a socket lasts before it looks again (seconds)
SLICE = 1.0

#: where lost wake-ups are told (``RummyVoila`` gives its own log)
log = logging.getLogger(__name__)


class PatientChannel(AsyncZMQSocketChannel):
    """A kernel channel whose wait for a message never outlasts :data:`SLICE`
    without looking at the socket itself; ``get_msg`` keeps its meaning (wait
    up to ``timeout`` seconds, or for ever when it is None, then ``Empty``)."""

    #: messages found only by looking, after a slice's wait (their wake-up was lost)
    found_late = 0

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:  # type: ignore[override]
        assert self.socket is not None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = SLICE if deadline is None else max(0.0, min(SLICE, deadline - time.monotonic()))
            looked = False
            try:
                ready = await asyncio.wait_for(self.socket.poll(None), left)
            except TimeoutError:
                ready = await self.socket.poll(0)  # zmq_poll itself, no wake-up needed
                looked = True
            if ready:
                msg = await self._recv()
                if looked:
                    PatientChannel.found_late += 1
                    log.warning("A kernel's %s was read only by looking: its wake-up was lost "
                                "(%d so far)", msg.get("msg_type"), PatientChannel.found_late)
                return msg
            if deadline is not None and time.monotonic() >= deadline:
                raise Empty


class PatientKernelClient(AsyncKernelClient):
    """jupyter_client's asyncio kernel client with :class:`PatientChannel` for
    every channel but the heartbeat (which runs in a thread of its own)."""

    shell_channel_class = Type(PatientChannel)  # type: ignore[arg-type]
    iopub_channel_class = Type(PatientChannel)  # type: ignore[arg-type]
    stdin_channel_class = Type(PatientChannel)  # type: ignore[arg-type]
    control_channel_class = Type(PatientChannel)  # type: ignore[arg-type]
