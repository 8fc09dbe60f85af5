"""The course's shared code (site/course.py) and how the plugin ships it: found by convention,
imported by cells as ``py_lessons_content.course``, and part of the cache key of the cells that
import it."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from py_lessons.plugin.execute import course_modules as content
from support.site import ROOT


def load_course():
    spec = importlib.util.spec_from_file_location("course_under_test", ROOT / "site" / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


course = load_course()


def test_course_py_is_a_content_module_named_course_at_the_root_and_by_folder_elsewhere(tmp_path):
    for name in ("course.py", "unit/course.py", "unit/steppers.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert content.find_modules(tmp_path) == {
        "course": tmp_path / "course.py", "unit": tmp_path / "unit/steppers.py",
        "unit__course": tmp_path / "unit/course.py"}


def test_the_site_ships_its_course_module_and_it_imports_only_the_standard_library():
    modules = content.find_modules(ROOT / "site")
    assert modules["course"] == ROOT / "site" / "course.py"
    content.check_imports(modules["course"])


def test_a_cell_that_imports_a_course_module_is_keyed_by_that_module_s_source(tmp_path):
    path = tmp_path / "course.py"
    path.write_text("A = 1\n", encoding="utf-8")
    modules = {"course": path}
    cell = "from py_lessons_content.course import A\nprint(A)"
    before = content.imported_sources([cell], modules)
    assert before and content.imported_sources(["print(1)"], modules) == ""
    assert content.imported_sources(["x = 1", cell], modules) == before  # named earlier in the session
    assert content.imported_sources(["from py_lessons_content import course"], modules) == before
    path.write_text("A = 2\n", encoding="utf-8")
    assert content.imported_sources([cell], modules) not in ("", before)


@pytest.mark.parametrize("activation", course.ACTIVATIONS)
@pytest.mark.parametrize("residual", [False, True])
def test_backpropagation_matches_finite_differences(activation, residual):
    X, y = course.spiral_data(per_class=7, seed=4)
    params = course.init_mlp((2, 6, 6, 6, 3), seed=5)
    for pair in params:  # off ReLU's kink: with zero biases a unit whose inputs are all 0 sits on it
        pair[1] += 0.05
    _, grads = course.loss_and_grads(params, X, y, activation, residual)
    rng = np.random.default_rng(6)
    for layer in range(len(params)):
        for part in (0, 1):
            values = params[layer][part]
            for _ in range(3):
                where = tuple(int(rng.integers(0, n)) for n in values.shape)
                keep, h = values[where], 1e-6
                values[where] = keep + h
                up = course.softmax_cross_entropy(course.forward(params, X, activation, residual), y)[0]
                values[where] = keep - h
                down = course.softmax_cross_entropy(course.forward(params, X, activation, residual), y)[0]
                values[where] = keep
                assert grads[layer][part][where] == pytest.approx((up - down) / (2 * h), rel=1e-4, abs=1e-9)


def test_the_loss_is_cross_entropy_computed_directly_and_survives_huge_logits():
    rng = np.random.default_rng(0)
    logits, y = rng.normal(0, 3, (20, 4)), rng.integers(0, 4, 20)
    direct = np.mean([-np.log(np.exp(row[k]) / np.exp(row).sum()) for row, k in zip(logits, y)])
    assert course.softmax_cross_entropy(logits, y)[0] == pytest.approx(direct, rel=1e-12)
    loss, probs = course.softmax_cross_entropy(logits + 1e4, y)
    assert np.isfinite(loss) and loss == pytest.approx(direct, rel=1e-9)
    assert np.allclose(probs.sum(axis=1), 1.0)


def test_clipping_caps_the_step_at_lr_times_clip_and_keeps_its_direction():
    X, y = course.spiral_data(seed=1)
    start = course.init_mlp(seed=2, gain=4.0)
    _, grads = course.loss_and_grads(start, X, y)
    norm = course.global_norm(grads)
    clip = norm / 10
    params = [[W.copy(), b.copy()] for W, b in start]
    history = course.train(params, X, y, lr=0.5, steps=1, clip=clip)
    assert history["grad_norm"] == [pytest.approx(norm)]
    step = [[(old - new) / 0.5 for old, new in zip(a, b)] for a, b in zip(start, params)]
    assert course.global_norm(step) == pytest.approx(clip)
    for (gW, _), (sW, _) in zip(grads, step):
        assert np.allclose(sW, gW * clip / norm)


def test_the_data_has_balanced_classes_inside_the_unit_disc_and_is_reproducible():
    X, y = course.spiral_data(per_class=40, classes=4, seed=9)
    assert X.shape == (160, 2) and np.bincount(y).tolist() == [40] * 4
    assert np.all(np.hypot(X[:, 0], X[:, 1]) <= 1.0 + 1e-12)
    again, _ = course.spiral_data(per_class=40, classes=4, seed=9)
    assert np.array_equal(X, again) and not np.array_equal(X, course.spiral_data(per_class=40, classes=4, seed=8)[0])
