"""``python -m tableserver``: the table API alone on a loopback port (for
tests, benchmarks and a quick ``curl``); ``make app`` serves it beside the
apps instead.

    python -m tableserver --port 8870 [--ip 127.0.0.1] [--data FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal

from tableserver.guard import GuardedServer, allowed_hosts, guard_hosts, raise_file_limit
from tableserver.service import TableService, service_options
from tableserver.store import Store, tables_path
from tableserver.web import make_app


def main(argv: list[str] | None = None) -> None:
    """Serve the API until stopped (SIGTERM or Ctrl-C)."""
    p = argparse.ArgumentParser(prog="python -m tableserver", description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=8870)
    p.add_argument("--ip", default="127.0.0.1")
    p.add_argument("--data", help="the data folder (default: $RUMMY_DATA or "
                   "~/.local/share/rummy-kit)")
    p.add_argument("--quiet", action="store_true", help="log warnings only")
    args = p.parse_args(argv)
    if args.data:
        os.environ["RUMMY_DATA"] = args.data
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="[%(asctime)s %(name)s] %(message)s")

    async def serve() -> None:
        try:
            service = TableService(Store(tables_path()), **service_options())
        except ValueError as e:  # a teacher key too easy to guess, a bad setting
            raise SystemExit(str(e)) from None
        app = make_app(service)
        raise_file_limit()
        guard_hosts(app, allowed_hosts(args.ip))  # no DNS-rebinding site is served
        server = GuardedServer(app)
        server.listen(args.port, args.ip)
        print(f"Rummy table service on http://{args.ip}:{args.port}/rummy/api "
              f"(database {service.store.path})", flush=True)
        print("Teacher key: " + (service.teacher_key if service.teacher_key_made
                                 else "the one in RUMMY_TEACHER_KEY"), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        server.stop()
        service.stop_bots()
        service.store.close()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
