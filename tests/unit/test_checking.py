"""Exercise checking, the one implementation (py_lessons.runtime.checking) that the build's
verification and the reader's Check both call."""

from __future__ import annotations

from py_lessons.runtime.checking import check_exercise

CHECKS = "assert area(3) == 9, 'area(3) should be 9'\nassert area(0) == 0\n"


def test_a_right_answer_passes_the_checks():
    items = []
    outcome = check_exercise("def area(s):\n    return s * s\nprint('ok')", CHECKS, items.append)
    assert outcome["stage"] == "checks" and outcome["result"]["ok"]
    assert items == [{"type": "stdout", "text": "ok\n"}]  # the reader's output, not the checks'


def test_a_wrong_answer_reports_the_assertion_message():
    outcome = check_exercise("def area(s):\n    return 4 * s", CHECKS, lambda item: None)
    assert outcome["stage"] == "checks"
    assert outcome["result"]["error"] == "AssertionError"
    assert outcome["result"]["message"] == "area(3) should be 9"


def test_code_that_fails_stops_before_the_checks():
    outcome = check_exercise("def area(s) return s", "raise SystemExit('checks ran')", lambda item: None)
    assert outcome["stage"] == "code" and outcome["result"]["error"] == "SyntaxError"


def test_each_attempt_starts_from_a_fresh_namespace():
    check_exercise("def area(s):\n    return s * s", CHECKS, lambda item: None)
    outcome = check_exercise("pass", CHECKS, lambda item: None)  # `area` must not survive
    assert outcome["stage"] == "checks" and outcome["result"]["error"] == "NameError"
