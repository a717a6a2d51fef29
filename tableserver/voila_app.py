"""Voilà with the table service: what ``make app`` runs.

Voilà 0.5 on its own loads no Jupyter server extension, and only on its own
keeps kernels ready for the apps (``preheat_kernel`` in ``voila.json``).  So
this is Voilà itself, with the table API's handlers added to its own
tornado application: one process, one port, one origin for the apps and
``/rummy/api/``.  It takes every argument ``voila`` takes::

    python -m tableserver.voila_app --no-browser --port=8866 --template=rummy .
"""

from __future__ import annotations

import inspect
import os
from typing import Any

from voila.app import Voila

from tableserver.core import TableService
from tableserver.web import Hub, api_url, handlers

__all__ = ["RummyVoila", "main"]


class RummyVoila(Voila):  # type: ignore[misc]
    """Voilà serving the table API beside the apps."""

    name = "voila"  # read voila.json and the voila config like `voila` does
    description = "Voilà with the Rummy kit's table service under /rummy/api/"

    service: TableService | None = None
    _hub: Hub | None = None

    def initialize(self, argv: Any = None) -> None:
        # Kernels talk to the server over Unix sockets where the system has them.
        # With TCP, each kernel's ports are chosen free and then bound by the
        # kernel a moment later; any connection opened in between (a browser, a
        # second kernel) can take one, and that kernel dies at birth with
        # "Address already in use".  voila.json or the command line may still
        # say ``--KernelManager.transport=tcp``.
        if os.name == "posix" and "transport" not in self.config.KernelManager:
            self.config.KernelManager.transport = "ipc"
        super().initialize(argv)

    def start(self) -> None:
        # kernels (the preheated ones too) are started from this environment
        os.environ["RUMMY_API"] = api_url(self.port, self.server_url or self.base_url, self.ip)
        self.service = TableService(wait_for_disk=False)  # requests await their writes
        super().start()

    def init_handlers(self) -> list[Any]:
        out = [_with_xsrf_cookie(h) for h in super().init_handlers()]
        if self.service is not None:
            hub = Hub()
            self.service.listeners.append(hub.changed)
            # first, so that Voilà's catch-all routes never shadow them
            out = handlers(self.server_url or self.base_url, self.service, hub) + out
            self._hub = hub
        return out

    def listen(self) -> None:
        if self.service is not None and self._hub is not None:
            from tornado.ioloop import IOLoop, PeriodicCallback

            from tableserver import web

            service, hub = self.service, self._hub

            def tick() -> None:
                import asyncio

                hub._loop = asyncio.get_running_loop()
                try:
                    service.tick()
                except Exception:
                    web.log.exception("the table service's tick failed")

            ticker = PeriodicCallback(tick, web.TICK_MS)
            IOLoop.current().add_callback(ticker.start)
        super().listen()


def _with_xsrf_cookie(route: Any) -> Any:
    """``route`` with its page handler setting the ``_xsrf`` cookie.

    A Voilà page asks for its kernel to be shut down when it is closed or left
    (a beacon to ``voila/api/shutdown/<id>`` carrying the ``_xsrf`` cookie's
    value), but Voilà's own server never sets that cookie: the request was
    refused ("'_xsrf' argument missing") and the kernel lived on until culled.
    The page handlers (:class:`voila.handler.VoilaHandler` and its kin) now set
    it; the shutdown request keeps its check."""
    from voila.handler import VoilaHandler

    if not isinstance(route, tuple) or len(route) < 2:
        return route
    cls = route[1]
    if not (isinstance(cls, type) and issubclass(cls, VoilaHandler)):
        return route
    return (route[0], _cookie_setting(cls), *route[2:])


_COOKIE_CLASSES: dict[type, type] = {}


def _cookie_setting(cls: type) -> type:
    if cls not in _COOKIE_CLASSES:
        async def prepare(self: Any) -> None:
            done = super(new, self).prepare()  # type: ignore[misc,arg-type]
            if inspect.isawaitable(done):
                await done
            self.xsrf_token  # noqa: B018 - reading it sets the cookie (tornado)

        new = type(cls.__name__, (cls,), {"prepare": prepare, "__module__": __name__})
        _COOKIE_CLASSES[cls] = new
    return _COOKIE_CLASSES[cls]


def main(argv: list[str] | None = None) -> None:
    """Run Voilà with the table service (same arguments as ``voila``)."""
    RummyVoila.launch_instance(argv)


if __name__ == "__main__":
    main()
