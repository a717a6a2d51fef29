"""On a hub, a learner's page beats through her own server: the relay.

A table page sends the table service a heartbeat every few seconds from
the browser (``POST .../rummy/api/tables/CODE/beat``, at the page's own
server): its kernel lives on when the browser dies, so only the browser can
say the page is still open (:mod:`tableserver.presence`).  On a hub the page
runs in the learner's own single-user server (``/user/NAME/...``) and the
service is elsewhere (``/services/rummy-tables/``), behind the hub's OAuth
that the page's browser has not been through.  This Jupyter server
extension, loaded into each user's server by the demo's configuration
(``jupyterhub_config.py``), answers the page's address
``/user/NAME/rummy/api/tables/CODE/beat``:

- only for the server's own user: the hub's cookie of that server (and its
  XSRF token, which the page sends) or a token of theirs, checked by the
  server itself (``@web.authenticated``);
- it forwards ``kernel`` and ``gone`` of the body, nothing else, to the
  service (``$RUMMY_API``, else the hub's public address) with the server's
  own hub token: the service finds the user's seat by their hub login
  (:class:`tableserver.hub_web.HubBeat`), so no page can beat for another
  user's seat;
- and answers what the service answered.

    >>> service_api({"RUMMY_API": "http://127.0.0.1:8000/services/rummy-tables/rummy/api/"})
    'http://127.0.0.1:8000/services/rummy-tables/rummy/api'
    >>> service_api({"JUPYTERHUB_PUBLIC_URL": "https://hub.example/"})
    'https://hub.example/services/rummy-tables/rummy/api'
    >>> service_api({}) is None
    True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import httpclient, web

from tableserver.hub_identity import SERVICE_NAME

__all__ = ["BeatRelay", "service_api", "MAX_BODY"]

#: The largest body a page's beat may have (bytes): a kernel id and a flag.
MAX_BODY = 1024


def service_api(env: Mapping[str, str] | None = None) -> str | None:
    """Where this server reaches the hub's table service API (the kernels'
    ``$RUMMY_API``, else under the hub's public address); None when unknown."""
    env = os.environ if env is None else env
    given = env.get("RUMMY_API")
    if given:
        return given.rstrip("/")
    public = env.get("JUPYTERHUB_PUBLIC_URL")
    if public:
        return f"{public.rstrip('/')}/services/{SERVICE_NAME}/rummy/api"
    return None


class BeatRelay(JupyterHandler):
    """``POST /user/NAME/rummy/api/tables/CODE/beat``: the page's heartbeat,
    forwarded to the hub's table service as this server's user."""

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(body))

    @web.authenticated
    async def post(self, code: str) -> None:
        raw = self.request.body or b"{}"
        if len(raw) > MAX_BODY:
            self._answer(413, {"error": f"a heartbeat's body is at most {MAX_BODY} bytes"})
            return
        try:
            given = json.loads(raw)
        except ValueError:
            given = None
        if not isinstance(given, dict):
            self._answer(400, {"error": 'a heartbeat\'s body is a JSON object such as '
                                        '{"kernel": "KERNEL-ID", "gone": false}'})
            return
        api, token = service_api(), os.environ.get("JUPYTERHUB_API_TOKEN")
        if not api or not token:
            self._answer(503, {"error": "this server does not know the hub's table service "
                                        "(RUMMY_API and JUPYTERHUB_API_TOKEN)"})
            return
        body = {k: given[k] for k in ("kernel", "gone") if k in given}
        try:
            answer = await httpclient.AsyncHTTPClient().fetch(
                f"{api}/tables/{quote(code, safe='')}/beat", method="POST",
                body=json.dumps(body), raise_error=False, request_timeout=15,
                headers={"Authorization": f"token {token}",
                         "Content-Type": "application/json"})
        except OSError:
            answer = None
        if answer is None or answer.code >= 599:
            self._answer(502, {"error": "the hub's table service can't be reached"})
            return
        try:
            said = json.loads(answer.body or b"{}")
        except ValueError:
            said = None
        self._answer(answer.code, said if isinstance(said, dict)
                     else {"error": f"the table service answered {answer.code}"})


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    return [{"module": "tableserver.hub_relay"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    base = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(".*$", [
        (url_path_join(base, r"/rummy/api/tables/([^/]+)/beat"), BeatRelay)])
