"""The light-pages targets (issue 23), each judged against what the benchmark measured: every mode of
``./pathshala bench`` that measures one of them prints a ``targets`` block, so a run says at once
which hold. A target's figure is a median (over runs) and, where it is per page, the worst page's."""

from __future__ import annotations

import operator

# name -> (comparison, limit, what it is)
TARGETS = {
    "lighthouse_performance": (">=", 0.90, "Lighthouse mobile performance score, worst page"),
    "lighthouse_tbt_ms": ("<=", 200, "Lighthouse total blocking time, worst page"),
    "lighthouse_cls": ("<=", 0.1, "Lighthouse cumulative layout shift, worst page"),
    "lighthouse_accessibility": (">=", 1.0, "Lighthouse accessibility score, worst page"),
    "lesson_dom_elements": ("<=", 1500, "elements at load (settled, 360 px), worst lesson page"),
    "next_lesson_s": ("<=", 0.3, "next lesson: click -> first output, worker kept"),
    "desktop_first_numpy_ratio_to_floor": ("<=", 0.70, "cold first NumPy output / bare Pyodide floor"),
    "phone_first_numpy_ratio_to_floor": ("<=", 0.90, "phone profile: first NumPy output / its floor"),
    "phone_bytes_before_first_output_mb": ("<=", 10.0, "phone profile: MB fetched before the first output"),
    "explorable_first_redraw_s": ("<=", 2.0, "slider moved after reading up to the explorable -> its figure, worst"),
    "explorable_warm_redraw_ms": ("<=", 150, "slider moved again -> its figure, worst explorable's median"),
}
_COMPARE = {">=": operator.ge, "<=": operator.le}


def judged(name: str, value: float | None, where: str | None = None) -> dict:
    """{"value", "target", "met"} (and "where": the page that decided a worst-of figure); a figure
    that was not measured (None) is not met."""
    comparison, limit, _ = TARGETS[name]
    report = {"value": value, "target": f"{comparison} {limit}",
              "met": value is not None and _COMPARE[comparison](value, limit)}
    if where is not None:
        report["where"] = where
    return report


def worst(name: str, per_page: dict[str, float | None]) -> dict:
    """The target judged on its worst page (a page without the figure counts as worst)."""
    comparison = TARGETS[name][0]
    if not per_page:
        return judged(name, None)
    missing = [page for page, value in per_page.items() if value is None]
    if missing:
        return judged(name, None, missing[0])
    pick = min if comparison == ">=" else max
    page = pick(per_page, key=per_page.get)
    return judged(name, per_page[page], page)


def lighthouse_targets(table: dict[str, dict]) -> dict[str, dict]:
    """From ``bench_lighthouse.lighthouse_table``: page -> median figures."""
    field = {"lighthouse_performance": "performance_score", "lighthouse_tbt_ms": "tbt_ms",
             "lighthouse_cls": "cls", "lighthouse_accessibility": "accessibility_score"}
    return {name: worst(name, {page: figures.get(key) for page, figures in table.items()})
            for name, key in field.items()}


def census_targets(pages: dict[str, dict]) -> dict[str, dict]:
    """From ``bench_pages.page_census``'s pages: the lesson pages' element counts."""
    lessons = {page: numbers["dom_elements"] for page, numbers in pages.items() if page.startswith("/lessons/")}
    return {"lesson_dom_elements": worst("lesson_dom_elements", lessons)}
