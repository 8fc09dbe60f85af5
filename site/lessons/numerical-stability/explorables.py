"""The numerical-stability lesson's explorable figure: the numbers fp16 and bf16 can hold near one size.

A slider picks a size 10^p; the figure marks every representable fp16 and bf16 value in a short
window starting there, so the reader sees the grid spacing: bf16 (7 mantissa bits) has 8 times
fewer values than fp16 (10 bits) among normal numbers, but below fp16's smallest normal number
fp16's spacing stops shrinking and bf16 becomes the finer one. bf16 is a float32 rounded to its top
16 bits (nearest, ties to even), as in the lesson's bit cell. Colours are the lesson's (Okabe-Ito,
colour-blind safe, in the hue order of the run chart): fp16 green, bf16 orange. NumPy and matplotlib are imported inside the function:
the reader's Python imports this module before any package is loaded.
"""

from __future__ import annotations

import math

from py_lessons.runtime.explorables import Param, explorable
from py_lessons.runtime.numbers import format_number

GAPS_SHOWN = 3    # the window spans this many of the coarser format's gaps
MAX_TICKS = 512   # at 10^-7 the 3 fp16 (subnormal) gaps hold 384 bf16 values: one line collection
FP16_COLOUR = "#009E73"
BF16_COLOUR = "#E69F00"


def _grid(bits, stop, value_of):
    """Representable values from bit pattern ``bits`` up to ``stop``: the next one is always bits + 1."""
    values = []
    while len(values) < MAX_TICKS:
        value = value_of(bits)
        if value > stop:
            break
        values.append(value)
        bits += 1
    return values


@explorable("fp16_bf16_grid", title="সংখ্যার মাপের কাছে fp16 আর bf16-এ কোন কোন সংখ্যা রাখা যায়", params=[
    Param("power", "সংখ্যার মাপ: ১০-এর ঘাত", minimum=-7, maximum=4.5, step=0.5, default=0),
])
def fp16_bf16_grid(power):
    import matplotlib.pyplot as plt
    import numpy as np

    start = 10.0 ** power
    fp16_gap = float(np.spacing(np.float16(start)))
    bf16_gap = 2.0 ** (math.floor(math.log2(start)) - 7)  # 7 mantissa bits
    stop = start + GAPS_SHOWN * max(fp16_gap, bf16_gap)

    def fp16_bits(x):
        return int(np.array(x, dtype=np.float16).view(np.uint16))

    def fp16_value(bits):
        return float(np.array(bits, dtype=np.uint16).view(np.float16))

    def bf16_bits(x):
        b = int(np.array(x, dtype=np.float32).view(np.uint32))
        return (b + 0x7FFF + ((b >> 16) & 1)) >> 16  # round to nearest, ties to even

    def bf16_value(bits):
        return float(np.array(bits << 16, dtype=np.uint32).view(np.float32))

    first16 = fp16_bits(start)
    if fp16_value(first16) > start:  # the conversion rounded up: start from the value below
        first16 -= 1
    first_bf16 = bf16_bits(start)
    if bf16_value(first_bf16) > start:
        first_bf16 -= 1
    fp16_values = _grid(first16, stop, fp16_value)
    bf16_values = _grid(first_bf16, stop, bf16_value)

    fig, ax = plt.subplots(figsize=(5.6, 2.4))
    ax.vlines(fp16_values, 0.6, 1.4, color=FP16_COLOUR, linewidth=1.2)
    ax.vlines(bf16_values, -0.4, 0.4, color=BF16_COLOUR, linewidth=1.2)
    ax.set_yticks([1, 0], ["fp16", "bf16"])
    ax.set_ylim(-0.8, 1.8)
    margin = 0.04 * (stop - start)  # keeps the window's first and last marks off the frame
    ax.set_xlim(start - margin, stop + margin)
    ax.locator_params(axis="x", nbins=3)  # few tick labels: text is most of a figure's drawing time
    ax.xaxis.set_major_formatter(lambda value, _: format_number(value, sig=6, bangla=True, prose=True))
    ax.set_xlabel("সংখ্যা")

    def gap_text(gap):
        return format_number(gap, sig=3, bangla=True, prose=True)

    ax.set_title(f"পাশের সংখ্যার দূরত্ব: fp16 {gap_text(fp16_gap)}, bf16 {gap_text(bf16_gap)}", fontsize=10)
    fig.tight_layout()
    return fig
