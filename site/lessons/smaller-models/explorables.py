"""The smaller-models lesson's explorable figure: a symmetric integer grid laid over sample weights.

Two sliders: the number of bits and the clipping range (as a share of the largest |w|). The top
panel shows a heavy-tailed sample of weights with the grid's levels under it; the bottom panel
shows each weight's round-trip error. Clipping makes the step finer for the many small weights
but cuts the few large ones: at 3-4 bits a clip well below 1 lowers the total error, at 8 bits it
only hurts. NumPy and matplotlib are imported inside the function: the reader's Python imports
this module before any package is loaded.
"""

from __future__ import annotations

from py_lessons.runtime.explorables import Param, explorable
from py_lessons.runtime.numbers import format_number

SAMPLE_SIZE = 2000
SEED = 3


def _sample_weights():
    import numpy as np

    # Student-t with 3 degrees of freedom: most weights small, a few far out, as in a trained layer
    return 0.05 * np.random.default_rng(SEED).standard_t(df=3, size=SAMPLE_SIZE)


@explorable("quant_grid", title="Bit আর clipping বদলালে পূর্ণসংখ্যা-মানের জাল আর rounding-এর ত্রুটি", params=[
    Param("bits", "bit সংখ্যা b", minimum=2, maximum=8, step=1, default=4),
    Param("clip", "clipping: সবচেয়ে বড় |w|-এর কত ভাগ", minimum=0.1, maximum=1.0, step=0.05, default=1.0),
])
def quant_grid(bits, clip):
    import matplotlib.pyplot as plt
    import numpy as np

    w = np.sort(_sample_weights())
    top = 2 ** (int(bits) - 1) - 1                 # symmetric: −top … top, zero point 0
    limit = clip * np.abs(w).max()
    scale = limit / top
    w_hat = np.clip(np.round(w / scale), -top, top) * scale
    error = w - w_hat
    relative_rmse = np.sqrt(np.mean(error ** 2)) / w.std()
    clipped_share = np.mean(np.abs(w) > limit)

    fig, (ax_hist, ax_err) = plt.subplots(2, 1, figsize=(5.6, 3.8), sharex=True,
                                          gridspec_kw={"height_ratios": [3, 2]})
    counts, edges = np.histogram(w, bins=80)
    ax_hist.stairs(counts, edges, fill=True, color="#90caf9")
    levels = np.arange(-top, top + 1) * scale
    ax_hist.vlines(levels, 0, counts.max() * 0.25, color="#c62828", linewidth=0.8)  # the grid
    ax_hist.set_yticks([])
    ax_err.plot(w, error, color="#1565c0", linewidth=0.8)
    ax_err.set_ylabel("ত্রুটি")
    ax_err.set_xlabel("weight w")
    ax_err.set_yticks([])
    ax_err.set_xticks([])
    rmse_text = format_number(relative_rmse, sig=2, bangla=True, prose=True)
    clipped_text = format_number(100 * clipped_share, sig=2, bangla=True)
    count_text = format_number(2 * top + 1, bangla=True)
    ax_hist.set_title(f"{count_text}টি মান · আপেক্ষিক RMSE {rmse_text} · কাটা পড়েছে {clipped_text}%", fontsize=10)
    return fig
