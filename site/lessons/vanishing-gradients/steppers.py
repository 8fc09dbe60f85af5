"""Worked calculations of the vanishing-gradients lesson, shown by its ``stepper`` blocks.

Found by convention: the plugin loads every ``steppers.py`` in the docs folder (at build time,
and inside the reader's Pyodide, where it ships in the runtime wheel). Standard library only.
"""

from __future__ import annotations

import math

from py_lessons.runtime.steppers import (MINUS, InputError, InputSpec, Step, bn_digits, fmt, fmt_vec,
                                         milestones, paren, prose_number, sigmoid, stepper)


# ---------------------------------------------------------------------------
# 4. Product of sigmoid slopes through a scalar chain
# ---------------------------------------------------------------------------

@stepper(
    "sigmoid_chain",
    title="Sigmoid-এর শিকলে gradient কীভাবে মিলিয়ে যায়",
    inputs=[
        InputSpec("h0", "শুরুর মান h₀", 1.0, minimum=-10, maximum=10, step=0.1),
        InputSpec("w", "প্রতিটি স্তরের weight w", 1.0, minimum=-10, maximum=10, step=0.1),
        InputSpec("layers", "স্তরের সংখ্যা", 10, minimum=1, maximum=60, step=1, kind="int"),
    ],
)
def sigmoid_chain(h0, w, layers):
    h = h0
    prod = 1.0
    rows = []
    for k in range(1, layers + 1):
        z = w * h
        h = sigmoid(z)
        slope = h * (1 - h)
        factor = w * slope
        prod *= factor
        rows.append((k, z, h, slope, factor, prod))
    steps = []
    shown_prev = None
    for k in milestones(layers):
        _, z, h, slope, factor, prod = rows[k - 1]
        calc = (f"z = {fmt(w)} × {paren(rows[k - 2][2] if k > 1 else h0)} = {fmt(z)}, "
                f"h = σ(z) = {fmt(h)}, w·σ′ = {fmt(w)} × {fmt(h)} × {fmt(1 - h)} = {fmt(factor)}")
        if k == 1:
            note = f"প্রথম স্তরেই gradient {prose_number(factor)} গুণ হলো।"
        elif shown_prev is not None and shown_prev != k - 1:
            note = (f"মাঝের স্তরগুলোর গুণনীয়কও গুণফলে ঢুকেছে; এখন প্রতিটি প্রায় {prose_number(factor, 3)}, "
                    f"গুণফল {prose_number(prod)}।")
        else:
            note = f"আগের গুণফলকে {prose_number(factor)} দিয়ে গুণ করে {prose_number(prod)}।"
        steps.append(Step(f"স্তর {bn_digits(k)}", calc, fmt(prod), note))
        shown_prev = k
    best = (abs(w) * 0.25) ** layers
    steps.append(Step("সেরা অবস্থা", f"(|{fmt(w)}| × 0.25)^{layers}", fmt(best),
                      "σ′ সবচেয়ে বড়, ০.২৫, শুধু z = ০-তে; প্রতিটি স্তর সেখানে থাকলেও গুণফল এর বেশি হতে পারে না।"))
    final = rows[-1][5]
    ratio = 1 / abs(final) if final != 0 else math.inf
    steps.append(Step("প্রথম বনাম শেষ স্তর", f"1 / {fmt(abs(final))}", fmt(ratio, 3),
                      "শেষ স্তরের তুলনায় প্রথম স্তরের weight এত গুণ কম সংকেত পায়, তাই প্রায় শেখে না।"))
    values = {"z": [r[1] for r in rows], "h": [r[2] for r in rows], "slope": [r[3] for r in rows],
              "factor": [r[4] for r in rows], "product": [r[5] for r in rows],
              "best_case": best, "ratio": ratio if math.isfinite(ratio) else None}
    return steps, values


# ---------------------------------------------------------------------------
# 5. Residual chain: prod(1 + F') against prod(F')
# ---------------------------------------------------------------------------

@stepper(
    "residual_chain",
    title="Residual block: ∏(১ + F′) বনাম ∏F′",
    inputs=[
        InputSpec("x0", "শুরুর মান x₀", 0.5, minimum=-10, maximum=10, step=0.1),
        InputSpec("gain", "F-এর ভেতরের গুণনীয়ক a, F(x) = σ(a·x)", 0.5, minimum=-5, maximum=5, step=0.1),
        InputSpec("blocks", "Block-এর সংখ্যা", 10, minimum=1, maximum=60, step=1, kind="int"),
    ],
)
def residual_chain(x0, gain, blocks):
    a = gain
    x = x0
    plain = 1.0
    resid = 1.0
    rows = []
    for k in range(1, blocks + 1):
        u = a * x
        fprime = a * sigmoid(u) * (1 - sigmoid(u))
        plain *= fprime
        resid *= 1 + fprime
        rows.append((k, x, u, fprime, plain, resid))
        x = x + sigmoid(u)
    steps = []
    for k in milestones(blocks):
        _, xk, u, fprime, pl, rs = rows[k - 1]
        calc = (f"x = {fmt(xk)}, F′ = {fmt(a)} × σ′({fmt(u)}) = {fmt(fprime)};  "
                f"∏F′ = {fmt(pl)},  ∏(1 + F′) = {fmt(rs)}")
        lowest = min(1 + r[3] for r in rows[:k])   # the smallest shortcut factor 1 + F′ so far
        if k == 1:
            note = f"শুধু F-এর পথে gradient {prose_number(fprime)} গুণ, কিন্তু shortcut থাকায় {prose_number(1 + fprime)} গুণ।"
        elif lowest < 0:
            note = (f"এখানে কোনো block-এ F′ < −১, তাই ১ + F′ ঋণাত্মক (সবচেয়ে ছোটটি {prose_number(lowest)}): "
                    "gradient-এর চিহ্ন উল্টায়, shortcut-ও তখন রক্ষা করে না; residual গুণফল "
                    f"{prose_number(rs)}, আর শুধু F-এর পথে {prose_number(pl)}।")
        elif abs(pl) < 1e-6 and a >= 0:
            note = "F-এর পথে gradient কার্যত শূন্য, অথচ residual-এর গুণনীয়কগুলো ১-এর নিচে নামে না।"
        elif abs(pl) < 1e-6 and fmt(lowest) == fmt(1.0):
            note = (f"F-এর পথে gradient কার্যত শূন্য; এখানে F′ প্রায় শূন্য, তাই shortcut-এর গুণনীয়ক ১ + F′ "
                    f"কার্যত ১, আর residual গুণফল {prose_number(rs)}।")
        elif abs(pl) < 1e-6 and lowest >= 0.8:
            note = ("F-এর পথে gradient কার্যত শূন্য; shortcut-এর গুণনীয়ক ১ + F′ একের সামান্য নিচে "
                    f"(এ পর্যন্ত সবচেয়ে ছোটটি {prose_number(lowest)}), তাই residual গুণফল ({prose_number(rs)}) "
                    "কমে, তবে শুধু F-এর পথের গুণফলের মতো সূচকীয় হারে শূন্যে ডোবে না।")
        elif abs(pl) < 1e-6:
            note = ("F-এর পথে gradient কার্যত শূন্য; এখানে F′ এত ঋণাত্মক যে ১ + F′ কোনো block-এ "
                    f"{prose_number(lowest)}-এ নেমেছে, তাই residual গুণফলও ({prose_number(rs)}) ছোট হয়ে আসে: "
                    "shortcut সবচেয়ে বেশি কাজে লাগে যখন F′ শূন্যের কাছে।")
        elif a > 0:
            note = f"প্রতিটি block-এ ১ যোগ থাকায় residual গুণফল {prose_number(rs)}, আর শুধু F-এর পথে {prose_number(pl)}।"
        else:
            note = f"residual গুণফল {prose_number(rs)}, আর শুধু F-এর পথে {prose_number(pl)}।"
        steps.append(Step(f"Block {bn_digits(k)}", calc, f"{fmt(pl)} বনাম {fmt(rs)}", note))
    final_plain, final_res = rows[-1][4], rows[-1][5]
    flipped = min(1 + r[3] for r in rows) < 0   # some block had F′ < −1
    steps.append(Step("শেষ হিসাব", f"∏(1 + F′) / ∏F′ = {fmt(final_res)} / {fmt(final_plain)}",
                      fmt(final_res / final_plain, 3) if final_plain != 0 else "inf",
                      "F′ ধনাত্মক হলে ১ + F′ > ১, তাই residual-এর গুণফল কমে না; বরং মাপ ধীরে বাড়তে পারে, তাই normalization-ও লাগে।"
                      if a > 0 else
                      "এখানে F′ ঋণাত্মক, আর কোনো block-এ F′ < −১, তাই ১ + F′ ঋণাত্মক: gradient-এর চিহ্ন উল্টায়, "
                      "shortcut-ও তখন রক্ষা করে না।"
                      if flipped else
                      "এখানে F′ ঋণাত্মক, তাই ১ + F′ একের নিচে; shortcut তখনও পুরো পথ বন্ধ হতে দেয় না যতক্ষণ F′ > −১।"
                      if a < 0 else
                      "a = ০ হলে F ধ্রুবক, F′ = ০: শুধু F-এর পথ বন্ধ, আর shortcut-এর গুণনীয়ক ঠিক ১।"))
    values = {"x": [r[1] for r in rows], "f_input": [r[2] for r in rows],
              "f_prime": [r[3] for r in rows], "plain_product": [r[4] for r in rows],
              "residual_product": [r[5] for r in rows]}
    return steps, values


# ---------------------------------------------------------------------------
# 6. Gradient clipping by norm (and by value, for comparison)
# ---------------------------------------------------------------------------

def _norm(v: list[float]) -> float:
    return math.sqrt(sum(x * x for x in v))


@stepper(
    "norm_clip",
    title="Gradient clipping: norm ধরে আর value ধরে",
    inputs=[
        InputSpec("grad", "Gradient-এর উপাদানগুলো (সব parameter এক সারিতে)", (3.0, 4.0, 12.0),
                  minimum=-1e6, maximum=1e6, kind="floats"),
        InputSpec("max_norm", "max_norm", 5.0, minimum=1e-6, maximum=1e6, step=0.5),
        InputSpec("clip_value", "clip_value (value ধরে কাটার সীমা)", 2.0, minimum=1e-6, maximum=1e6, step=0.5),
        InputSpec("eps", "হরে যোগ করা ছোট সংখ্যা", 1e-6, minimum=0, maximum=1e-2),
    ],
)
def norm_clip(grad, max_norm, clip_value, eps):
    g = list(grad)
    if len(g) > 16:
        raise InputError("grad", "পাতায় দেখানোর জন্য ১৬টির বেশি উপাদান দেবেন না")
    sq = sum(x * x for x in g)
    norm = math.sqrt(sq)
    denom = norm + eps
    coef = min(1.0, max_norm / denom) if denom > 0 else 1.0
    clipped = [x * coef for x in g]
    new_norm = _norm(clipped)
    by_value = [min(max(x, -clip_value), clip_value) for x in g]
    v_norm = _norm(by_value)
    if norm > 0 and v_norm > 0:
        dot = sum(a * b for a, b in zip(g, by_value))
        cos = dot / (norm * v_norm)
        cos_calc = f"{fmt(dot)} / ({fmt(norm)} × {fmt(v_norm)})"
    else:
        dot, cos, cos_calc = 0.0, None, "শূন্য vector-এর দিক নেই"
    coef_note = ("Norm সীমার ভেতরে, তাই গুণনীয়ক ১: ছোট gradient বদলায় না, বড়ও করা হয় না।" if coef >= 1.0
                 else "গুণনীয়ক ১-এর কম, তাই সব উপাদান একই অনুপাতে ছোট হবে; হরের ছোট সংখ্যাটি শূন্য দিয়ে ভাগ ঠেকায়।")
    steps = [
        Step("বর্গের যোগ", " + ".join(f"{paren(x)}²" for x in g), fmt(sq, 6),
             "সব parameter-এর সব উপাদান একটি লম্বা vector ধরে একসঙ্গে বর্গ করে যোগ হয়।"),
        Step("মোট norm", f"√{fmt(sq, 6)}", fmt(norm, 6),
             "Gradient-এর দৈর্ঘ্য; clip_grad_norm_ এটিই ফেরত দেয়, ছাঁটার আগের মান।"),
        Step("গুণনীয়ক", f"min(1, {fmt(max_norm)} / ({fmt(norm, 6)} + {fmt(eps)}))", fmt(coef), coef_note),
        Step("Norm ধরে ছাঁটা", f"{fmt(coef)} × {fmt_vec(g)}", fmt_vec(clipped),
             "উপাদানগুলোর অনুপাত আগের মতোই, অর্থাৎ gradient-এর দিক অক্ষত।"),
        Step("নতুন norm", f"‖{fmt_vec(clipped)}‖", fmt(new_norm),
             "দৈর্ঘ্য এখন সীমার সমান (বা আগেই ছোট ছিল), আর দিকের cosine ঠিক ১।"),
        Step("Value ধরে ছাঁটা", f"clip({fmt_vec(g)}, {MINUS}{fmt(clip_value)}, {fmt(clip_value)})",
             fmt_vec(by_value),
             "প্রতিটি উপাদান আলাদাভাবে সীমায় আটকানো হয়; বড় আর ছোট উপাদানের পার্থক্য মুছে যেতে পারে।"),
        Step("দিকের cosine", cos_calc, fmt(cos) if cos is not None else "—",
             "১-এর যত নিচে, value clipping gradient-এর দিক তত বেশি ঘুরিয়ে দিয়েছে।"),
    ]
    values = {"sum_squares": sq, "norm": norm, "coef": coef, "clipped": clipped,
              "clipped_norm": new_norm, "by_value": by_value, "by_value_norm": v_norm,
              "cosine_value_clip": cos, "returned_norm": norm}
    return steps, values
