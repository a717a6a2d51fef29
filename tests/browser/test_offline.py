"""Nothing is fetched from the internet: every app is served whole by the kit's own server.

A learner on a train, a classroom behind a firewall, Binder with a slow link: the
apps must look the same.  Each app is loaded while Chromium logs every request it
makes; all of them go to the loopback server, and the Font Awesome icons on the
buttons are drawn with their font (Voilà's style bundle carries it; the kit's template
drops the lab template's CDN links, see share/jupyter/voila/templates/rummy).  The page's
scripts are the kit's own front end (frontend/), not Voilà's bundle.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser import harness
from tests.browser.harness import outside

pytestmark = pytest.mark.browser

#: JavaScript: wait for the page's fonts, then describe every Font Awesome icon.
ICONS_JS = """async () => {
  await document.fonts.ready;
  // the icons on show (a folded panel's are drawn when it opens)
  return Array.from(document.querySelectorAll('i.fa')).filter(i => i.offsetParent !== null)
    .map(i => {
    const before = getComputedStyle(i, '::before');
    return {cls: i.className, content: before.content, family: before.fontFamily,
            width: i.getBoundingClientRect().width,
            loaded: document.fonts.check('16px "Font Awesome 5 Free"')};
  });
}"""


def test_outside_tells_loopback_from_the_internet() -> None:
    assert outside("https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.css")
    assert outside("http://10.0.0.1:8866/")
    assert not outside("http://127.0.0.1:8866/voila/static/voila.js")
    assert not outside("data:font/woff2;base64,AAAA")


def _load(page: Any, url: str) -> list[str]:
    asked: list[str] = []
    failed: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.on("requestfailed", lambda r: failed.append(r.url))
    reply = page.goto(url)
    assert reply is not None and reply.status == 200, url
    harness.wait_rendered(page)
    page.wait_for_timeout(500)  # late requests (fonts, widget bundles)
    assert not failed, f"requests that failed: {failed}"
    return asked


@pytest.mark.parametrize("app", harness.APPS)
def test_app_asks_nothing_of_the_internet(page: Any, voila: harness.Server, app: str) -> None:
    asked = _load(page, harness.app_url(voila.base, app, seed=3))
    assert asked, "no request was logged"
    assert not [u for u in asked if outside(u)], [u for u in asked if outside(u)]
    # the kit's own front end (frontend/, one script), not Voilà's bundle and its
    # widget extensions (~100 scripts)
    scripts = [urlsplit(u).path for u in asked if urlsplit(u).path.endswith(".js")]
    assert "/voila/templates/rummy/static/kit.js" in scripts, scripts
    assert not [s for s in scripts if s.endswith("kit-math.js")], "MathJax on a page without math"
    assert not [s for s in scripts if s.startswith(("/voila/static/", "/voila/labextensions/"))], \
        scripts


@pytest.mark.parametrize("app", ["three_thirteen", "big_table", "gin_three"])
def test_icons_render_offline(page: Any, voila: harness.Server, app: str) -> None:
    _load(page, harness.app_url(voila.base, app, seed=3))
    page.wait_for_selector(harness.READY)
    icons = page.evaluate(ICONS_JS)
    assert icons, "the app shows no Font Awesome icon"
    for icon in icons:
        assert icon["content"] not in ("none", "normal", '""'), icon
        assert "Font Awesome" in icon["family"], icon
        assert icon["width"] > 0, icon
        assert icon["loaded"], icon
