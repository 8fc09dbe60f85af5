"""The vanishing-gradients lesson's explorable figure: the gradient reaching layer 1 as depth grows.

Two scalar chains through the same sigmoid. Plain: h_k = σ(w·h_{k−1}), so each layer multiplies the
gradient by w·σ′; residual: x_k = x_{k−1} + σ(w·x_{k−1}) − ½ (centred so x grows slowly; the
constant leaves the slope alone), so each block multiplies it by 1 + w·σ′. The reader slides the depth and the weight w and watches the two
products part on a log axis; a small linear panel below shows the residual alone, whose rise is
invisible on a log axis that spans 120 decades. NumPy and matplotlib are imported inside the function: the reader's
Python imports this module before any package is loaded.
"""

from __future__ import annotations

from py_lessons.runtime.explorables import Param, explorable
from py_lessons.runtime.numbers import format_number

START = 0.5  # x₀; plain layers map it through σ, residual blocks add the centred branch to it


@explorable("depth_products", title="গভীরতা বাড়লে স্তর ১-এ কত gradient পৌঁছায়: plain বনাম residual", params=[
    Param("depth", "স্তরের সংখ্যা L", minimum=1, maximum=60, step=1, default=30),
    Param("w", "প্রতিটি স্তরের weight w", minimum=0.5, maximum=6, step=0.5, default=1),
])
def depth_products(depth, w):
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.ticker import FuncFormatter

    depth = int(depth)
    plain = np.empty(depth)
    residual = np.empty(depth)
    h = x = START
    plain_product = residual_product = 1.0
    for k in range(depth):
        s = 1 / (1 + np.exp(-w * h))
        plain_product *= w * s * (1 - s)  # w·σ′(z)
        h = s
        r = 1 / (1 + np.exp(-w * x))
        residual_product *= 1 + w * r * (1 - r)  # 1 + F′: the shortcut's 1 plus the branch
        x = x + r - 0.5
        plain[k], residual[k] = plain_product, residual_product

    layers = np.arange(1, depth + 1)
    # two panels on one depth axis: log (both chains) and, below, linear (residual alone), since on
    # a log axis 120 decades tall the residual's rise from 1 to a few is under a point high
    fig, (ax, lin) = plt.subplots(2, 1, figsize=(5.6, 4.2), sharex=True, gridspec_kw={"height_ratios": [2.4, 1]})
    # plain lines, no markers: a marker is one SVG element per layer, and the page has an element budget
    ax.semilogy(layers, plain, "-", color="#c62828", linewidth=1.2)
    ax.semilogy(layers, residual, "-", color="#2e7d32", linewidth=1.2)
    ax.axhline(1.0, color="#9e9e9e", linewidth=1, linestyle="--")
    ax.set_xlim(0, 61)  # fixed axes: moving a slider changes the lines, not the frame
    # the frame holds every slider position: plain reaches ~1e-108 (L = 60, w = 6), residual stays below 10
    ax.set_ylim(1e-115, 1e5)
    ax.set_yticks([1e-100, 1e-50, 1.0])  # few tick labels: text is most of a figure's drawing time
    ax.yaxis.set_major_formatter(FuncFormatter(
        lambda value, _position: format_number(value, "g", bangla=True) if value == 1
        else format_number(value, ".0e", bangla=True, prose=True)))
    ax.set_ylabel("গুণনীয়ক (log স্কেল)")
    # the two names in their lines' colours, where a legend would stand: a legend box costs this
    # figure about 7 % of every redraw
    ax.text(0.015, 0.16, "residual: ∏ (1 + w·σ′)", color="#2e7d32", fontsize=8, transform=ax.transAxes)
    ax.text(0.015, 0.04, "plain: ∏ w·σ′", color="#c62828", fontsize=8, transform=ax.transAxes)
    lin.plot(layers, residual, "-", color="#2e7d32", linewidth=1.2)
    lin.axhline(1.0, color="#9e9e9e", linewidth=1, linestyle="--")
    lin.set_ylim(0, 9.5)  # the residual's largest over the slider grid is about 8.5
    lin.set_yticks([0, 8])
    lin.yaxis.set_major_formatter(FuncFormatter(lambda value, _position: format_number(value, "g", bangla=True)))
    lin.set_ylabel("residual\n(রৈখিক স্কেল)", fontsize=8)
    lin.xaxis.set_major_formatter(FuncFormatter(lambda value, _position: format_number(value, "g", bangla=True)))
    lin.set_xlabel("গভীরতা (স্তর)")
    lin.set_xticks([0, 20, 40, 60])  # each tick is a dozen matplotlib objects, made anew at every redraw
    shown_plain = format_number(plain[-1], sig=2, bangla=True, prose=True)
    shown_residual = format_number(residual[-1], sig=2, bangla=True, prose=True)
    ax.set_title(f"L = {format_number(depth, 'd', bangla=True)}, স্তর ১-এ পৌঁছানো gradient-এর গুণনীয়ক: "
                 f"plain {shown_plain}, residual {shown_residual}", fontsize=9)
    return fig
