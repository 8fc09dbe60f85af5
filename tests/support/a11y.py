"""axe-core (npm, the tests' own package.json) run inside a page: its serious and critical findings."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page, scope: str = "document") -> list:
    """[rule id, up to three offending selectors] for each serious or critical violation."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(f"async () => (await axe.run({scope})).violations"
                         ".filter((v) => ['serious', 'critical'].includes(v.impact))"
                         ".map((v) => [v.id, v.nodes.slice(0, 3).map((n) => n.target.join(' '))])")
