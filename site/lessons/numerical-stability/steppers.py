"""Worked calculations of the numerical-stability lesson, shown by its ``stepper`` blocks.

Found by convention: the plugin loads every ``steppers.py`` in the docs folder (at build time,
and inside the reader's Pyodide, where it ships in the runtime wheel). Standard library only.
"""

from __future__ import annotations

import math

from py_lessons.runtime.steppers import (InputError, InputSpec, Step, fmt, fmt_vec, paren, prose_number,
                                         stepper)


# ---------------------------------------------------------------------------
# Stable softmax and log-sum-exp by subtracting the maximum
# ---------------------------------------------------------------------------

_EXP_LIMIT_F64 = math.log(1.7976931348623157e308)  # ≈ 709.78
_EXP_LIMIT_F16 = math.log(65504.0)                  # ≈ 11.09


def _naive_sum(xs):
    """Σ e^x as float64 computes it without the shift: inf once a term or the running sum overflows,
    0 when every term underflows."""
    total = 0.0
    for x in xs:
        total += math.exp(x) if x <= _EXP_LIMIT_F64 else math.inf
    return total


@stepper(
    "stable_softmax",
    title="Stable softmax: সবচেয়ে বড় logit বিয়োগ করে overflow এড়ানো",
    inputs=[
        InputSpec("logits", "Logit-গুলো", (1000.0, 1001.0, 1002.0), minimum=-1e6, maximum=1e6, kind="floats"),
    ],
)
def stable_softmax(logits):
    xs = list(logits)
    if len(xs) < 2 or len(xs) > 10:
        raise InputError("logits", "২ থেকে ১০টি logit দিন")
    big = max(xs)
    naive_value = math.exp(big) if big <= _EXP_LIMIT_F64 else None
    naive_sum = _naive_sum(xs)
    if naive_value is None:
        naive = "inf (overflow)"
        naive_note = (f"float64-এ e^x সীমা ছাড়ায় x > {prose_number(_EXP_LIMIT_F64, 5)} হলেই; লব আর হর দুটোই inf, "
                      "আর inf / inf = NaN: সরাসরি সূত্র অচল।")
    elif naive_sum == math.inf:
        naive = "inf (overflow)"
        naive_note = ("প্রতিটি e^x আলাদাভাবে রাখা গেলেও তাদের যোগফল float64-এর সীমা ছাড়িয়েছে; তখন প্রতিটি "
                      "সম্ভাবনা সসীম / inf = ০, যোগফল আর ১ থাকে না: সরাসরি সূত্র অচল।")
    elif naive_sum == 0.0:
        naive = "0 (underflow)"
        naive_note = "সব e^x float64-এ শূন্যে নেমেছে; তখন ০ / ০ = NaN, সরাসরি সূত্র অচল।"
    else:
        naive = fmt(naive_sum)
        naive_note = (f"float64-এ এই logit-গুলোয় সরাসরি সূত্র চলে, কিন্তু float16-এ x > {prose_number(_EXP_LIMIT_F16)} "
                      "হলেই e^x সীমা ছাড়ায়, তাই সরাসরি সূত্র ঝুঁকিপূর্ণ।")
    shifted = [x - big for x in xs]
    exps = [math.exp(d) for d in shifted]
    total = sum(exps)
    probs = [e / total for e in exps]
    lse = big + math.log(total)
    log_probs = [x - lse for x in xs]
    s7 = 7  # logits can be large, so keep more digits where they appear
    steps = [
        Step("সরাসরি হর", " + ".join(f"e^{fmt(x, s7)}" for x in xs), naive, naive_note),
        Step("সবচেয়ে বড় m", f"max({fmt_vec(xs, s7)})", fmt(big, s7),
             "প্রতিটি logit থেকে একই সংখ্যা বিয়োগ করলে softmax বদলায় না, কারণ e^(−m) লব আর হরে কেটে যায়।"),
        Step("বিয়োগ", f"{fmt_vec(xs, s7)} − {paren(big, s7)}", fmt_vec(shifted, s7),
             "এখন সব ঘাত ০ বা ঋণাত্মক, তাই কোনো e^(x − m) ১-এর বেশি হতে পারে না।"),
        Step("exp", f"exp({fmt_vec(shifted, s7)})", fmt_vec(exps),
             "খুব ঋণাত্মক ঘাতের e^(x − m) শূন্যে নামতে পারে, কিন্তু সবচেয়ে বড়টির ঘাত ঠিক ০, তাই তার e⁰ = ১।"),
        Step("যোগফল", " + ".join(fmt(e) for e in exps), fmt(total),
             "হরে অন্তত একটি ১ আছে, তাই এটি ১-এর কম হয় না আর শূন্য দিয়ে ভাগের ভয় নেই।"),
        Step("সম্ভাবনা", f"{fmt_vec(exps)} / {fmt(total)}", fmt_vec(probs),
             "এটিই আসল softmax, কোনো overflow ছাড়াই; যোগফল ১।"),
        Step("log-sum-exp", f"{fmt(big, s7)} + ln({fmt(total)})", fmt(lse, s7),
             "একই কৌশলে log Σ e^x পাওয়া যায়: বের করে রাখা m আবার যোগ করলেই হয়।"),
        Step("log-softmax", f"{fmt_vec(xs, s7)} − {paren(lse, s7)}", fmt_vec(log_probs),
             "Cross-entropy-র জন্য দরকারি log-সম্ভাবনা সরাসরি পাওয়া গেল, ছোট সংখ্যার log নেওয়ার ঝুঁকি ছাড়া।"),
    ]
    values = {"max": big, "naive_exp_max": naive_value, "naive_sum": naive_sum if math.isfinite(naive_sum) else None, "shifted": shifted, "exps": exps,
              "sum": total, "probs": probs, "logsumexp": lse, "log_probs": log_probs,
              "exp_limit_float64": _EXP_LIMIT_F64, "exp_limit_float16": _EXP_LIMIT_F16}
    return steps, values
