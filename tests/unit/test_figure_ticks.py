"""A figure's tick labels read as its Bangla titles do: numbers in Bangla digits, a log axis's
powers of ten too, and a category's name left as written (fp16 is a name, not a number)."""

from __future__ import annotations

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from py_lessons.runtime.figures import bangla_ticks  # noqa: E402

LATIN_DIGITS = set("0123456789")


def labels(axis) -> list[str]:
    return [tick.get_text() for tick in axis.get_ticklabels() if tick.get_text()]


@pytest.fixture
def figure():
    fig, ax = plt.subplots()
    yield fig, ax
    plt.close(fig)


def test_a_category_tick_keeps_its_name_and_a_number_tick_turns_bangla(figure):
    fig, ax = figure
    ax.barh(["fp16", "bf16", "float32"], [0.25, 0.5, 0.75])
    bangla_ticks(fig)
    fig.canvas.draw()
    assert labels(ax.yaxis) == ["fp16", "bf16", "float32"]
    numbers = labels(ax.xaxis)
    assert numbers and not LATIN_DIGITS & set("".join(numbers))
    assert "০.২" in numbers  # matplotlib's own ticks at 0.2 steps, written in Bangla


def test_a_log_axis_writes_its_powers_of_ten_in_bangla(figure):
    fig, ax = figure
    ax.semilogy([1, 2, 3], [1e-3, 1e-1, 10])
    bangla_ticks(fig)
    fig.canvas.draw()
    powers = labels(ax.yaxis)
    assert "১০⁻³" in powers and not LATIN_DIGITS & set("".join(powers))
