"""On a JupyterHub, a learner's events also reach the teacher's class grid: the
kernel's side of the service's ``progress/events`` endpoint.

Each learner's kernels keep their record of learning in their own server's
data folder (:mod:`rummy.progress`, ``$RUMMY_DATA``), which the hub's table
service does not read.  :func:`forward_to_hub` makes every event kept there
(after it is written) also go to the service, ``POST
.../rummy/api/progress/events`` with the server's hub token: the service
keeps it in its own record under the learner's hub name, where the
teacher's grid finds it (:mod:`tableserver.progress_api`).

Sending never blocks or breaks the learner's page: the event goes into a
queue, and one worker thread sends what is queued (a few at once).  When the
service can't be reached or answers 5xx (it restarts, the hub is busy), the
events stay queued and are sent again after 1, 2, 4 ... 60 seconds (the
service keeps an event sent twice once); when it answers 429 (the learner's
quota of events is reached) or 503 with ``Retry-After``, they stay queued
and go again no sooner than it says (at most :data:`RETRY_AFTER_CAP`
seconds: then it is asked again, and says again); a refusal (4xx) is logged with the
service's reason and the events it refused are dropped (sending them again
would be refused again).  Events still queued when the kernel stops are
logged as not sent (the learner's own record keeps them).  Outside a hub
nothing is sent.

Like :mod:`tableserver.client`, whose :func:`~tableserver.client.request` it
sends with, it imports the standard library and :mod:`rummy` only: no server
module, no widgets (:mod:`widgets.progress` installs it).

    >>> Sender(api="http://127.0.0.1:1/rummy/api").queued()
    0
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import threading
import time
from collections import deque
from typing import Any

from rummy import progress
from tableserver.client import RemoteError, api_base, on_hub, request

__all__ = ["Sender", "forward_to_hub", "sender", "MAX_QUEUED", "RETRY_AFTER_CAP", "server_judges",
           "judge_on_server", "erase_on_hub"]

log = logging.getLogger("tableserver.progress_client")

#: The most events kept waiting for the service (the oldest are dropped past it, logged).
MAX_QUEUED = 2000
#: How many events one request carries at most, and how large its body may grow.
_BATCH = 50
_BATCH_BYTES = 12_000
#: Seconds to wait before sending again after a failure: doubles up to the last.
_BACKOFF = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0)
#: The longest wait a service's ``Retry-After`` gets (a day's quota may ask for hours: one
#: small request every quarter of an hour until then costs the service nothing).
RETRY_AFTER_CAP = 900.0


def _wait(e: RemoteError, tries: int) -> float:
    """Seconds to wait before sending again after the failure ``e``, the
    ``tries``-th in a row: the backoff, or longer when the service says so.

    >>> _wait(RemoteError("busy", 429, retry_after=30.0), 0)
    30.0
    >>> _wait(RemoteError("busy", 429, retry_after=1e9), 0), _wait(RemoteError("away"), 99)
    (900.0, 60.0)
    """
    wait = _BACKOFF[min(tries, len(_BACKOFF) - 1)]
    if e.retry_after is not None:
        wait = max(wait, min(e.retry_after, RETRY_AFTER_CAP))
    return wait


def _wire(e: progress.Event) -> dict[str, Any]:
    """What the service takes of an event (never the learner's name: the hub says who)."""
    return {"rule": e.rule, "asked": e.asked, "answered": e.answered, "right": e.right,
            "first": e.first, "source": e.source, "when": e.when, "judged": e.judged}


class Sender:
    """A queue of events for the hub's table service at ``api`` (default:
    :func:`tableserver.client.api_base`) and the thread that sends it."""

    def __init__(self, api: str | None = None) -> None:
        self.api = api
        self._queue: deque[tuple[int, dict[str, Any]]] = deque()
        self._seq = 0
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self.sent = 0
        self.dropped = 0
        self.failures = 0
        self.last_error = ""

    def url(self) -> str:
        """Where the events go: the service's ``progress/events`` endpoint."""
        return (self.api or api_base()).rstrip("/") + "/progress/events"

    def queued(self) -> int:
        """How many events wait to be sent."""
        with self._cond:
            return len(self._queue)

    def send(self, event: progress.Event) -> None:
        """Queue ``event`` for the service (returns at once)."""
        with self._cond:
            if len(self._queue) >= MAX_QUEUED:
                self._queue.popleft()
                self.dropped += 1
                log.warning("the hub's table service has not answered for a long time: "
                            "the oldest waiting event of the record was not sent")
            self._seq += 1
            self._queue.append((self._seq, _wire(event)))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="rummy-progress-to-hub")
                self._thread.start()
            self._cond.notify()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until the queue is empty (or ``timeout`` seconds); whether it is."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._queue or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
        return True

    _busy = False

    def _batch(self) -> tuple[int, list[dict[str, Any]]]:
        """The oldest events that fit in one request, and the number of the last."""
        out: list[dict[str, Any]] = []
        size, last = 0, 0
        for seq, item in self._queue:
            n = len(json.dumps(item)) + 2
            if out and (len(out) >= _BATCH or size + n > _BATCH_BYTES):
                break
            out.append(item)
            size, last = size + n, seq
        return last, out

    def _run(self) -> None:
        tries = 0
        while True:
            with self._cond:
                while not self._queue:
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait()
                self._busy = True
                last, batch = self._batch()
            try:
                request(self.url(), {"events": batch}, timeout=30)
            except RemoteError as e:
                self.last_error = str(e)
                if e.status == 0 or e.status >= 500 or e.status == 429:
                    # not reached, or busy: keep them and try again later
                    self.failures += 1
                    wait = _wait(e, tries)
                    tries += 1
                    log.warning("could not send %d event(s) of the record to the hub's table "
                                "service (%s): trying again in %g s", len(batch), e, wait)
                    # the whole wait, even when more events are queued meanwhile
                    until = time.monotonic() + wait
                    with self._cond:
                        while (left := until - time.monotonic()) > 0:
                            self._cond.wait(left)
                    continue
                log.error("the hub's table service refused %d event(s) of the record (%s): "
                          "they stay in the learner's own record only", len(batch), e)
                self.dropped += len(batch)
            except Exception as e:  # noqa: BLE001 - the learner's page goes on
                self.last_error = str(e)
                log.exception("could not send events of the record to the hub's table service")
                self.dropped += len(batch)
            else:
                self.sent += len(batch)
            tries = 0
            with self._cond:  # (the oldest may have been dropped meanwhile)
                while self._queue and self._queue[0][0] <= last:
                    self._queue.popleft()
                self._cond.notify_all()

    def forget(self) -> int:
        """Drop the events waiting to be sent (the learner erased their
        record); how many were dropped."""
        with self._cond:
            n = len(self._queue)
            self._queue.clear()
            self._cond.notify_all()
            return n

    def unsent(self) -> None:
        """Log the events still waiting (when the kernel stops)."""
        n = self.queued()
        if n:
            log.warning("%d event(s) of the record were not sent to the hub's table service "
                        "(%s); they are in the learner's own record", n,
                        self.last_error or "the kernel stopped first")


_sender: Sender | None = None
_lock = threading.Lock()


def sender() -> Sender:
    """This process's one :class:`Sender`."""
    global _sender
    with _lock:
        if _sender is None:
            _sender = Sender()
            atexit.register(_sender.unsent)
        return _sender


def _forward(event: progress.Event) -> None:
    if on_hub():
        sender().send(event)


def forward_to_hub() -> None:
    """From now on, on a hub (:func:`tableserver.client.on_hub`), every event
    this process keeps in its own record also goes to the hub's table
    service (once; outside a hub this sends nothing)."""
    progress.on_event(_forward)


def server_judges(env: dict[str, str] | None = None) -> bool:
    """Whether the kit's server judges this kernel's answers: a server of the
    kit started the kernel (``$RUMMY_API``, ``make app`` and ``make
    classroom``) or it runs on a JupyterHub.  Elsewhere (a notebook opened
    without the kit's server, the static site) answers are self-checks.

    >>> server_judges({}), server_judges({"RUMMY_API": "http://127.0.0.1:8866/rummy/api"})
    (False, True)
    """
    env = dict(os.environ) if env is None else env
    return bool(env.get("RUMMY_API")) or on_hub(api_base(env)) and bool(
        env.get("JUPYTERHUB_API_TOKEN"))


def judge_on_server(body: dict[str, Any], api: str | None = None) -> dict[str, Any]:
    """Send an answer to the server's judge (``POST .../progress/answer``,
    ``body`` as it takes it) with this kernel's learner key (on a hub, the
    hub token says who) and answer its verdict (nobody named yet: judged,
    ``"kept": false``); :class:`~tableserver.client.RemoteError` when the
    server refuses or can't be reached."""
    base = (api or api_base()).rstrip("/")
    key = progress.current_key()
    headers = {progress.KEY_HEADER: key} if key else {}
    return request(base + "/progress/answer", body, headers=headers, timeout=30)


def erase_on_hub(api: str | None = None) -> int | None:
    """On a hub, erase the copy of this learner's record that the hub's table
    service keeps for the teacher's grid (``DELETE .../progress/me`` with the
    server's hub token: the learner is the hub user); the events still
    waiting to be sent are dropped first.  How many events were erased
    there; None outside a hub.  :class:`~tableserver.client.RemoteError`
    when the service refuses or can't be reached."""
    base = (api or api_base()).rstrip("/")
    if not on_hub(base):
        return None
    with _lock:
        waiting = _sender
    if waiting is not None:
        waiting.forget()
    out = request(base + "/progress/me", method="DELETE", timeout=30)
    return int(out.get("erased", 0))
