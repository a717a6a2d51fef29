"""axe-core, the accessibility checker, run on a page of the browser tests.

A helper module of the browser tests (not a test module).  axe-core comes
from the npm registry, pinned in ``package.json`` / ``package-lock.json`` and
installed by ``make npm`` (``npm ci``) into ``node_modules/``; it is injected
into each page from that file (:data:`AXE`), so nothing is fetched while the
tests run.  :func:`violations` lists what axe-core finds; :func:`assert_accessible`
fails on a serious or critical violation and on the moderate ones that matter
to a learner with a screen reader (:data:`FAILING_RULES`: headings, landmarks,
empty table headers).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import harness

#: axe-core's script, as ``make npm`` installs it.
AXE = harness.ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: Impacts that always fail.
FAILING_IMPACTS = ("serious", "critical")
#: Moderate rules that fail the check too.
FAILING_RULES = ("heading-order", "region", "empty-table-header", "landmark-one-main",
                 "page-has-heading-one", "landmark-no-duplicate-main")

#: JavaScript: run axe-core on the page (or on the elements of the selectors given).
AXE_RUN_JS = """async (selectors) => {
  const r = await axe.run(selectors ? {include: selectors.map(s => [s])} : document,
                          {resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' +
                                          (n.failureSummary || '').slice(0, 160))}));
}"""


def violations(page: Any, include: list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (only in the elements that
    the CSS selectors ``include`` match, when given)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make npm` (npm ci installs the pinned axe-core)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return list(page.evaluate(AXE_RUN_JS, include))


def assert_accessible(page: Any, where: str) -> None:
    """No failing violation on the page as it is now (``where`` names it in the report)."""
    bad = [v for v in violations(page)
           if v["impact"] in FAILING_IMPACTS or v["id"] in FAILING_RULES]
    assert not bad, f"axe-core on {where}:\n" + "\n".join(
        f"  {v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in bad)
