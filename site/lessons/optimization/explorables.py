"""The optimization lesson's explorable figure: gradient descent on the one-weight loss c·(w − a)².

One step multiplies the distance to the target by the factor 1 − 2cη, so the reader can watch
its sign decide the overshoot and its size decide convergence. The lesson's loss (2w − 10)² is
c = 4, a = 5. NumPy and matplotlib are imported inside the function: the reader's Python imports
this module before any package is loaded.
"""

from __future__ import annotations

from py_lessons.runtime.explorables import Param, explorable
from py_lessons.runtime.numbers import format_number

TARGET = 5.0
START = 0.0
STEPS = 20


@explorable("one_weight_path", title="Learning rate বদলালে w-এর পথ আর প্রতি ধাপের গুণনীয়ক", params=[
    Param("lr", "Learning rate η", minimum=0.01, maximum=0.3, step=0.01, default=0.1),
    Param("c", "বাটির খাড়াই c", minimum=1, maximum=8, step=1, default=4),
])
def one_weight_path(lr, c):
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.ticker import FuncFormatter

    factor = 1 - 2 * c * lr
    # w − a = factor^k · (w₀ − a): the closed form of k steps, no loop needed
    path = TARGET + factor ** np.arange(STEPS + 1) * (START - TARGET)

    fig, ax = plt.subplots(figsize=(5.6, 3.2))
    ax.axhline(TARGET, color="#9e9e9e", linewidth=1, linestyle="--")
    ax.plot(path, "o-", color="#1565c0", markersize=3, linewidth=1)
    ax.set_ylim(-5, 15)  # fixed axes: a diverging path leaves the frame instead of squashing the rest
    ax.locator_params(nbins=4)  # few tick labels: text is most of a figure's drawing time
    # tick labels in Bangla digits, through the course's one number formatter
    bangla_ticks = FuncFormatter(lambda value, _position: format_number(value, "g", bangla=True))
    ax.xaxis.set_major_formatter(bangla_ticks)
    ax.yaxis.set_major_formatter(bangla_ticks)
    ax.set_xlabel("ধাপ")
    ax.set_ylabel("w")
    shown_factor = format_number(factor, sig=2, bangla=True, prose=True)
    size = round(abs(factor), 9)  # the slider's float noise must not turn exactly 1 or 0 into a verdict
    if size > 1:
        verdict = "ফাটে"
    elif size == 1:
        verdict = "চিরকাল দোলে"
    elif size == 0:
        verdict = "এক ধাপেই লক্ষ্যে"
    else:
        verdict = "লক্ষ্য পেরিয়ে দুলতে দুলতে এগোয়" if factor < 0 else "এক পাশ থেকে লক্ষ্যের দিকে এগোয়"
    # only the factor's value: its formula 1 − 2cη is the prose's math ($1 - 2c\eta$), and a Bangla title
    # writes its numbers in Bangla digits, so a formula with Latin digits does not belong in it
    ax.set_title(f"প্রতি ধাপের গুণনীয়ক = {shown_factor}, {verdict}", fontsize=10)
    return fig
