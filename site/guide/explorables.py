"""The guide's explorable figure: gradient descent on f(x) = x², one learning rate at a time.

f'(x) = 2x, so one step is x ← x − η·2x = (1 − 2η)·x: below η = 0.5 the steps shrink toward the
minimum, at 0.5 one step lands on it, between 0.5 and 1 they overshoot and zig-zag in, at 1 they
bounce between 3 and −3 for ever, and above 1 they run away. NumPy and matplotlib are imported
inside the function: the reader's Python imports this module before any package is loaded.
"""

from __future__ import annotations

from py_lessons.runtime.explorables import Param, explorable
from py_lessons.runtime.numbers import bn_digits, format_number

START = 3.0


@explorable("learning_rate_path", title="শেখার হার বদলালে gradient descent-এর পথ (f(x) = x²)", params=[
    Param("lr", "শেখার হার η", minimum=0.05, maximum=1.05, step=0.05, default=0.1),
    Param("steps", "ধাপের সংখ্যা", minimum=1, maximum=20, step=1, default=10),
])
def learning_rate_path(lr, steps):
    import matplotlib.pyplot as plt
    import numpy as np

    path = [START]
    for _ in range(steps):
        path.append(path[-1] - lr * 2 * path[-1])
    path = np.array(path)
    reach = max(START * 1.15, float(np.abs(path).max()) * 1.1)
    curve = np.linspace(-reach, reach, 101)

    fig, ax = plt.subplots(figsize=(5.6, 3.2))
    ax.plot(curve, curve ** 2, color="#9e9e9e", linewidth=1.5)
    ax.plot(path, path ** 2, "o-", color="#1565c0", markersize=4, linewidth=1)
    ax.plot(path[-1:], path[-1:] ** 2, "o", color="#c62828", markersize=7)
    ax.locator_params(nbins=4)  # few tick labels: text is most of a figure's drawing time
    ax.set_xlabel("x")
    ax.set_ylabel("ক্ষতি f(x)")
    final = format_number(float(path[-1] ** 2), sig=3, bangla=True, prose=True)
    ax.set_title(f"{bn_digits(steps)} ধাপ পরে ক্ষতি {final}")
    return fig
