"""The capstone's exercise (site/lessons/capstone/index.md) catches each of its three planted bugs on
its own: the solution passes its hidden checks, and the solution with any one bug put back fails
them. The build already asserts that the solution passes and the starter (all three bugs) fails;
this says that no single fix is enough, so the checks really test all three."""

from __future__ import annotations

import importlib.util
import re
import sys
import types

import pytest
import yaml

from py_lessons.runtime.checking import check_exercise
from support.site import ROOT

PAGE = ROOT / "site" / "lessons" / "capstone" / "index.md"

# Each bug as the starter writes it: the lines that differ from the solution (found in both texts).
BUGS = {
    "learning rate far too large (lesson 1)": r"^LR = .*$",
    "naive softmax in float16 (lesson 2)": r"^def test_loss\(.*?\n    return .*?$",
    "deep sigmoid stack without residual or clipping (lesson 3)": r"^ACTIVATION = .*?\nCLIP = .*?$",
}


def exercise() -> dict:
    text = PAGE.read_text(encoding="utf-8")
    (body,) = re.findall(r"^```exercise\n(.*?)^```$", text, re.M | re.S)
    return yaml.safe_load(body)


@pytest.fixture(autouse=True)
def course_module(monkeypatch):
    """``py_lessons_content.course`` as the reader's Python imports it: site/course.py."""
    spec = importlib.util.spec_from_file_location("py_lessons_content.course", ROOT / "site" / "course.py")
    course = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(course)
    package = types.ModuleType("py_lessons_content")
    package.course = course
    monkeypatch.setitem(sys.modules, "py_lessons_content", package)
    monkeypatch.setitem(sys.modules, "py_lessons_content.course", course)


def outcome(code: str, checks: str) -> dict:
    import numpy as np

    with np.errstate(all="ignore"):  # the broken runs overflow on purpose
        return check_exercise(code, checks, lambda item: None)


def test_the_solution_passes_the_checks():
    block = exercise()
    result = outcome(block["solution"], block["checks"])
    assert result["stage"] == "checks" and result["result"]["ok"], result


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_the_solution_with_one_bug_put_back_fails_the_checks(bug):
    block = exercise()
    pattern = re.compile(BUGS[bug], re.M | re.S)
    broken_part = pattern.search(block["starter"])[0]
    fixed_part = pattern.search(block["solution"])[0]
    assert broken_part != fixed_part
    code = pattern.sub(lambda _: broken_part, block["solution"], count=1)
    result = outcome(code, block["checks"])
    assert result["stage"] == "checks" and not result["result"]["ok"], f"{bug}: the checks let it pass"
    assert result["result"]["error"] == "AssertionError", result


ANOTHER_STABLE_LOSS = '''def test_loss(logits, y):
    z = logits.astype(np.float16)
    m = z.max(axis=1, keepdims=True)
    lse = m + np.log(np.exp(z - m).sum(axis=1, keepdims=True))
    return float((lse[:, 0] - z[np.arange(len(y)), y]).mean())'''


def test_another_correct_stable_loss_passes_too():
    """The checks test the idea, not the model answer's form: log-sum-exp written as
    m + log Σ exp(z − m), minus the right logit, is as right as the solution's log-softmax."""
    block = exercise()
    pattern = re.compile(BUGS["naive softmax in float16 (lesson 2)"], re.M | re.S)
    code = pattern.sub(lambda _: ANOTHER_STABLE_LOSS, block["solution"], count=1)
    assert code != block["solution"]
    result = outcome(code, block["checks"])
    assert result["stage"] == "checks" and result["result"]["ok"], result
