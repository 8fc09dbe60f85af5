"""The benchmark judges issue 23's targets (support/bench_targets.py); the expected verdicts are
worked out by hand from the limits the issue states."""

from __future__ import annotations

from support.bench_targets import census_targets, judged, lighthouse_targets


def test_a_target_is_met_at_its_limit_and_not_beyond_it():
    assert judged("next_lesson_s", 0.3) == {"value": 0.3, "target": "<= 0.3", "met": True}
    assert judged("next_lesson_s", 0.31)["met"] is False
    assert judged("lighthouse_performance", 0.9)["met"] is True
    assert judged("lighthouse_performance", 0.89)["met"] is False


def test_a_figure_not_measured_is_not_met():
    assert judged("explorable_warm_redraw_ms", None) == {"value": None, "target": "<= 150", "met": False}


def test_lighthouse_is_judged_on_its_worst_page_for_each_figure():
    table = {"/": {"performance_score": 0.95, "tbt_ms": 120, "cls": 0.0, "accessibility_score": 1.0},
             "/lessons/a/": {"performance_score": 0.71, "tbt_ms": 90, "cls": 0.04, "accessibility_score": 1.0},
             "/lessons/b/": {"performance_score": 0.92, "tbt_ms": 640, "cls": 0.2, "accessibility_score": 0.98}}
    assert lighthouse_targets(table) == {
        "lighthouse_performance": {"value": 0.71, "target": ">= 0.9", "met": False, "where": "/lessons/a/"},
        "lighthouse_tbt_ms": {"value": 640, "target": "<= 200", "met": False, "where": "/lessons/b/"},
        "lighthouse_cls": {"value": 0.2, "target": "<= 0.1", "met": False, "where": "/lessons/b/"},
        "lighthouse_accessibility": {"value": 0.98, "target": ">= 1.0", "met": False, "where": "/lessons/b/"},
    }


def test_a_page_whose_lighthouse_run_failed_decides_the_target():
    table = {"/": {"performance_score": 0.95}, "/lessons/a/": {"performance_score": None}}
    assert lighthouse_targets(table)["lighthouse_performance"] == {
        "value": None, "target": ">= 0.9", "met": False, "where": "/lessons/a/"}


def test_the_census_counts_lesson_pages_only():
    pages = {"/": {"dom_elements": 2400}, "/lessons/a/": {"dom_elements": 1482},
             "/lessons/b/": {"dom_elements": 1100}}
    assert census_targets(pages) == {
        "lesson_dom_elements": {"value": 1482, "target": "<= 1500", "met": True, "where": "/lessons/a/"}}
