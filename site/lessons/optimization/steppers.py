"""Worked calculations of the optimization lesson, shown by its ``stepper`` blocks.

Found by convention: the plugin loads every ``steppers.py`` in the docs folder (at build time,
and inside the reader's Pyodide, where it ships in the runtime wheel). Standard library only.
"""

from __future__ import annotations

import math

from py_lessons.runtime.steppers import (InputError, InputSpec, Step, bn_digits, fmt, paren,
                                         prose_number, stepper)


# ---------------------------------------------------------------------------
# 7. Gradient descent on the one-weight loss (x*w - y)^2
# ---------------------------------------------------------------------------

@stepper(
    "gd_update",
    title="Gradient descent: w ← w − lr · dL/dw, ধাপে ধাপে",
    inputs=[
        InputSpec("x", "input x (loss = (x·w − y)²)", 2.0, minimum=-10, maximum=10, step=0.5),
        InputSpec("y", "লক্ষ্য y", 10.0, minimum=-100, maximum=100, step=1),
        InputSpec("w0", "শুরুর w", 0.0, minimum=-100, maximum=100, step=0.5),
        InputSpec("lr", "Learning rate", 0.1, minimum=0, maximum=1, step=0.01),
        InputSpec("steps", "update-এর সংখ্যা", 5, minimum=1, maximum=30, step=1, kind="int"),
    ],
)
def gd_update(x, y, w0, lr, steps):
    if x == 0:
        raise InputError("x", "x = ০ হলে loss w-এর ওপর নির্ভর করে না; শূন্য ছাড়া অন্য মান দিন")
    if lr <= 0:
        raise InputError("lr", "Learning rate ধনাত্মক হতে হবে")
    w_star = y / x
    factor = 1 - 2 * x * x * lr
    lr_limit = 1 / (x * x)

    def loss(w):
        return (x * w - y) ** 2

    if abs(factor) < 1:
        verdict = "|গুণনীয়ক| < ১, তাই প্রতিটি update-এ w লক্ষ্যের কাছে যাবে"
        if factor < 0:
            verdict += ", তবে দুই পাশে দোল খেতে খেতে"
    elif abs(factor) == 1:
        verdict = "|গুণনীয়ক| = ১, তাই দূরত্ব কমবেও না, বাড়বেও না"
    else:
        verdict = "|গুণনীয়ক| > ১, তাই প্রতিটি update-এ দূরত্ব বাড়বে: training ফাটবে"
    out = [
        Step("Loss আর ঢাল", f"L(w) = ({fmt(x)}·w − {paren(y)})²,  dL/dw = 2 × {paren(x)} × ({fmt(x)}·w − {paren(y)})",
             f"w* = {fmt(w_star)}", "ঢাল শূন্য যেখানে, সেখানেই loss সবচেয়ে কম; লক্ষ্য সেই w*।"),
        Step("প্রতি update-এর গুণনীয়ক", f"1 − 2 × {paren(x)}² × {fmt(lr)}", fmt(factor),
             f"প্রতিটি update-এ w* থেকে দূরত্ব এই সংখ্যা দিয়ে গুণ হয়; {verdict}। সীমা lr < {prose_number(lr_limit)}।"),
    ]
    w = w0
    trail = [w0]
    for k in range(1, steps + 1):
        g = 2 * x * (x * w - y)
        w_new = w - lr * g
        if not math.isfinite(w_new):
            break
        direction = "ডানে" if w_new > w else ("বাঁয়ে" if w_new < w else "কোথাও না")
        crossed = (w - w_star) * (w_new - w_star) < 0
        note = f"ঢাল {prose_number(g)}, তাই w {direction} সরল; loss এখন {prose_number(loss(w_new))}।"
        if crossed:
            note += " লক্ষ্য পেরিয়ে ওপাশে চলে গেছে।"
        # a row is named by its update, not "ধাপ": the stepper's own first column numbers every row
        # (the two rows above included), so "ধাপ ৩" there would sit beside a row called "ধাপ ১"
        out.append(Step(f"update {bn_digits(k)}", f"{fmt(w)} − {fmt(lr)} × {paren(g)}", fmt(w_new), note))
        w = w_new
        trail.append(w)
    values = {"w_star": w_star, "factor": factor, "lr_limit": lr_limit, "w": trail,
              "loss": [loss(v) for v in trail]}
    return out, values
