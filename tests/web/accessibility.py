"""axe-core's serious and critical findings on a page, with the current axe-core (vendored under
tests/web/vendor/axe-core: see its README for why and how to update it). Nothing is fetched."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"

RULES = {"label-content-name-mismatch": {"enabled": True}}
"""Rules axe-core leaves off by default and the tests turn on: a control's accessible name
must contain its visible text (WCAG 2.5.3), what speech input users say to press it."""

_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {rules: arguments[0], resultTypes: ["violations"]}).then(
  (results) => done({version: axe.version, violations: results.violations.map((item) => ({
    id: item.id, impact: item.impact, help: item.help,
    nodes: item.nodes.map((node) => `${node.target.join(" ")} ${node.failureSummary || ""}`)}))}),
  (error) => done({error: String(error)}));
"""


def axe_source() -> str:
    """The vendored axe-core, after checking that it is the file its README names."""
    source = AXE.read_bytes()
    assert hashlib.sha256(source).hexdigest() == AXE_SHA256, f"{AXE} is not axe-core {AXE_VERSION}"
    return source.decode("utf-8")


def serious_violations(browser: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    browser.execute_script(axe_source())
    browser.set_script_timeout(120)
    answer = browser.execute_async_script(_RUN, RULES)
    assert "error" not in answer, answer
    assert answer["version"] == AXE_VERSION, answer["version"]
    return [
        f"{item['id']} ({item['impact']}): {item['help']}: " + "; ".join(item["nodes"][:3])
        for item in answer["violations"] if item["impact"] in ("serious", "critical")
    ]
