"""Worked calculations of the smaller-models lesson, shown by its ``stepper`` blocks.

Found by convention: the plugin loads every ``steppers.py`` in the docs folder (at build time,
and inside the reader's Pyodide, where it ships in the runtime wheel). Standard library only.
"""

from __future__ import annotations

import math

from py_lessons.runtime.steppers import (InputError, InputSpec, Step, bn_digits, fmt, fmt_int, fmt_vec,
                                         log_softmax, paren, prose_number, softmax, stepper)


# ---------------------------------------------------------------------------
# 1. Memory per precision
# ---------------------------------------------------------------------------

_MIB = 2 ** 20
_GB = 1e9


def _mem(num_bytes: float) -> str:
    return f"{num_bytes / _MIB:,.1f} MiB · {fmt(num_bytes / _GB)} GB"


@stepper(
    "memory_ledger",
    title="Weight রাখতে কত memory: precision ধরে হিসাব",
    inputs=[
        # Defaults: Qwen2.5-0.5B (24 layers, hidden 896, MLP 4864, vocab 151,936, tied embedding)
        InputSpec("linear_params", "Linear স্তরের weight (সংখ্যা)", 357_826_560, minimum=0, step=1, kind="int"),
        InputSpec("embedding_params", "Embedding-এর weight (সংখ্যা)", 136_134_656, minimum=0, step=1, kind="int"),
        InputSpec("other_params", "Norm, bias ও বাকি (সংখ্যা)", 71_552, minimum=0, step=1, kind="int"),
        InputSpec("block_size", "৪-bit-এ কতটি weight-এ একটি scale", 64, minimum=1, maximum=4096, step=1, kind="int"),
        InputSpec("scale_bits", "প্রতিটি scale-এর bit", 16, minimum=0, maximum=32, step=1),
    ],
)
def memory_ledger(linear_params, embedding_params, other_params, block_size, scale_bits):
    lin, emb, oth = linear_params, embedding_params, other_params
    total = lin + emb + oth
    if total == 0:
        raise InputError("linear_params", "মোট parameter শূন্য; অন্তত একটি input-এ ধনাত্মক সংখ্যা দিন")
    keep16 = emb + oth  # parts that 8-bit/4-bit loaders usually leave in 16-bit
    b = {
        "fp32": total * 4,
        "fp16": total * 2,
        "int8": total * 1,
        "int8_emb16": lin * 1 + keep16 * 2,
        "int4": total * 0.5,
        "int4_emb16": lin * 0.5 + keep16 * 2,
    }
    scale_bytes = lin / block_size * scale_bits / 8
    b["int4_emb16_scales"] = b["int4_emb16"] + scale_bytes
    T = fmt_int(total)
    steps = [
        Step("গোনা", f"{fmt_int(lin)} + {fmt_int(emb)} + {fmt_int(oth)}", f"{T} parameter",
             "Linear, embedding আর বাকি ছোট অংশ আলাদা গুনে রাখলে পরে কোন অংশ কোন precision-এ যাবে তা বেছে নেওয়া যায়।"),
        Step("fp32", f"{T} × 4 byte", _mem(b["fp32"]),
             "প্রতিটি সংখ্যা ৩২ bit, অর্থাৎ ৪ byte; এক MiB মানে ২²⁰ byte, আর এক GB মানে ১০⁹ byte।"),
        Step("fp16 / bf16", f"{T} × 2 byte", _mem(b["fp16"]),
             "১৬ bit-এ প্রতিটি সংখ্যা ২ byte, তাই fp32-এর ঠিক অর্ধেক জায়গা।"),
        Step("int8, সব weight", f"{T} × 1 byte", _mem(b["int8"]),
             "সব weight এক byte-এ রাখা গেলে এটিই কাগজের হিসাব; বাস্তবে সব অংশ int8-এ যায় না।"),
        Step("int8, embedding ১৬-bit-এ",
             f"{fmt_int(lin)} × 1 + {fmt_int(keep16)} × 2 byte", _mem(b["int8_emb16"]),
             f"শুধু Linear এক byte-এ গেলে মোট {prose_number(b['int8_emb16'] / _MIB, 4)} MiB, "
             f"যা ১৬-bit-এর চেয়ে মাত্র {prose_number(100 * (1 - b['int8_emb16'] / b['fp16']), 3)}% কম।"),
        Step("int4, সব weight", f"{T} × 0.5 byte", _mem(b["int4"]),
             "চার bit মানে আধা byte; কাগজে fp32-এর আট ভাগের এক ভাগ।"),
        Step("int4, embedding ১৬-bit-এ",
             f"{fmt_int(lin)} × 0.5 + {fmt_int(keep16)} × 2 byte", _mem(b["int4_emb16"]),
             f"Embedding-এর ভাগ বড় হলে ১৬-bit-এর তুলনায় সাশ্রয় চার গুণ হয় না, হয় প্রায় "
             f"{prose_number(b['fp16'] / b['int4_emb16'], 3)} গুণ।"),
        Step("int4 + block-এর scale",
             f"{fmt(b['int4_emb16'] / _MIB, 5)} MiB + {fmt_int(lin)} / {block_size} × {fmt(scale_bits)} bit ÷ 8 ÷ 2^20",
             _mem(b["int4_emb16_scales"]),
             f"প্রতি {bn_digits(block_size)}টি weight-এর জন্য একটি scale রাখতে হয়, তাই প্রতি weight-এ বাড়তি "
             f"{prose_number(scale_bits / block_size, 3)} bit লাগে।"),
    ]
    values = {"total_params": total, "keep16_params": keep16,
              "scale_bytes": scale_bytes, **{f"{k}_bytes": v for k, v in b.items()},
              **{f"{k}_mib": v / _MIB for k, v in b.items()},
              **{f"{k}_gb": v / _GB for k, v in b.items()}}
    return steps, values


# ---------------------------------------------------------------------------
# 2. Affine (asymmetric) and symmetric quantization of one value
# ---------------------------------------------------------------------------

def _sym_vs_asym(err_sym, err, step):
    """One value's two errors: a coarser step bounds the error higher, it does not make every error larger."""
    if err <= 1e-9 * step:  # float noise of (q − z)·s, not a rounding error: a ratio to it means nothing
        return "Asymmetric-এ এই মানটি হুবহু ফিরেছে; symmetric-এর ধাপ মোটা, তাই সেখানে ত্রুটি থাকতে পারে।"
    if err_sym > err:
        return f"Symmetric-এর ত্রুটি asymmetric-এর প্রায় {prose_number(err_sym / err, 2)} গুণ: সহজ হিসাবের দাম মোটা ধাপ।"
    return ("এই মানটিতে symmetric-এর ত্রুটি বেশি নয়: একটি মান কাকতালীয়ভাবে পূর্ণসংখ্যার কাছে পড়তে পারে। "
            "কিন্তু ধাপ মোটা বলে ত্রুটির সীমা (আধা ধাপ) বেশি, তাই অনেক মানের গড়ে symmetric-এর ত্রুটি বেশি হয়।")


@stepper(
    "affine_quant",
    title="Scale আর zero point: একটি সংখ্যাকে পূর্ণসংখ্যায় নেওয়া আর ফেরানো",
    inputs=[
        InputSpec("x_min", "Tensor-এর সবচেয়ে ছোট মান", -0.5, minimum=-1e6, maximum=1e6, step=0.01),
        InputSpec("x_max", "Tensor-এর সবচেয়ে বড় মান", 2.05, minimum=-1e6, maximum=1e6, step=0.01),
        InputSpec("x", "যে মানটি quantize করব", 1.234, minimum=-1e6, maximum=1e6, step=0.001),
        InputSpec("bits", "Bit সংখ্যা", 8, minimum=2, maximum=16, step=1, kind="int"),
    ],
)
def affine_quant(x_min, x_max, x, bits):
    if not x_max > x_min:
        raise InputError("x_max", "সবচেয়ে বড় মান সবচেয়ে ছোট মানের চেয়ে বড় হতে হবে; শূন্য-প্রস্থের পরিসরে scale হয় না")
    if x_max - x_min < 1e-9:
        raise InputError("x_max", "পরিসর প্রায় শূন্য-প্রস্থ (১০^−৯-এর কম); আরও চওড়া পরিসর দিন")
    qmin, qmax = 0, 2 ** bits - 1
    # Like PyTorch's observers, widen the range so that 0.0 is always inside it.
    lo, hi = min(x_min, 0.0), max(x_max, 0.0)
    widened = (lo, hi) != (x_min, x_max)
    span = hi - lo
    s = span / (qmax - qmin)
    z_raw = qmin - lo / s
    z = min(max(round(z_raw), qmin), qmax)  # round half to even, as numpy/PyTorch
    r = x / s
    q_unclipped = round(r) + z
    q = min(max(q_unclipped, qmin), qmax)
    xhat = (q - z) * s
    err = abs(x - xhat)

    qs = 2 ** (bits - 1) - 1
    amax = max(abs(x_min), abs(x_max))
    s_sym = amax / qs
    r_sym = x / s_sym
    q_sym = min(max(round(r_sym), -qs), qs)
    xhat_sym = q_sym * s_sym
    err_sym = abs(x - xhat_sym)
    used = round(x_max / s_sym) - round(x_min / s_sym) + 1
    unused = (2 * qs + 1) - used

    range_note = (f"সবচেয়ে ছোট {prose_number(x_min)}, সবচেয়ে বড় {prose_number(x_max)}; {bn_digits(bits)} bit-এ "
                  f"{bn_digits(qmax - qmin + 1)}টি পূর্ণসংখ্যা-মান আছে।")
    if widened:
        range_note += " আসল ০ যেন ঠিক একটি পূর্ণসংখ্যা-মানে পড়ে, তাই পরিসর ০ পর্যন্ত বাড়ানো হলো।"
    clip_note = ""
    if q != q_unclipped:
        clip_note = f" মানটি পরিসরের বাইরে, তাই {bn_digits(q_unclipped)} কেটে {bn_digits(q)} করা হলো।"
    in_range = x_min <= x <= x_max
    steps = [
        Step("পরিসর", f"{fmt(hi)} − {paren(lo)} ; পূর্ণসংখ্যা {qmin} … {qmax}", fmt(span), range_note),
        Step("Scale s", f"({fmt(hi)} − {paren(lo)}) / ({qmax} − {qmin})", fmt(s),
             "পাশাপাশি দুটি পূর্ণসংখ্যা আসল সংখ্যায় এতটা দূরে; এটিই quantization-এর ধাপের মাপ।"),
        Step("Zero point z", f"round({qmin} − {paren(lo)} / {fmt(s)}) = round({fmt(z_raw)})", str(z),
             "আসল ০.০ এই পূর্ণসংখ্যায় বসে, তাই শূন্য (padding, ReLU-র শূন্য) কোনো ত্রুটি ছাড়াই ফেরে।"),
        Step("Quantize", f"round({fmt(x)} / {fmt(s)}) + {z} = round({fmt(r)}) + {z}", str(q),
             "ভাগ করে নিকটতম পূর্ণসংখ্যা নিয়ে zero point যোগ করলে মানটি একটি ছোট পূর্ণসংখ্যায় জায়গা পায়।"
             + clip_note),
        Step("Dequantize", f"({q} − {z}) × {fmt(s)}", fmt(xhat),
             "পূর্ণসংখ্যা থেকে zero point বাদ দিয়ে scale দিয়ে গুণ করলে আসল মানের কাছাকাছি একটি সংখ্যা ফেরে।"),
        Step("ত্রুটি", f"|{fmt(x)} − {fmt(xhat)}|   (s/2 = {fmt(s / 2)})", fmt(err),
             "পরিসরের ভেতরের মানে round-এর ত্রুটি কখনো আধা ধাপের বেশি নয়।" if in_range else
             "পরিসরের বাইরের মান কেটে ফেলা হয়েছে, তাই ত্রুটি আধা ধাপ ছাড়িয়ে যেতে পারে।"),
        Step("Symmetric scale", f"max(|{fmt(x_min)}|, |{fmt(x_max)}|) / {qs}", fmt(s_sym),
             f"Symmetric-এ z = ০, পূর্ণসংখ্যা −{bn_digits(qs)} থেকে {bn_digits(qs)}; পরিসর একদিকে হেলে থাকলে "
             f"{bn_digits(unused)}টি পূর্ণসংখ্যা-মান কখনো কাজে লাগে না।"),
        Step("Symmetric quantize", f"round({fmt(x)} / {fmt(s_sym)}) = round({fmt(r_sym)})", str(q_sym),
             "ধাপ মোটা হওয়ায় একই মান এখন অন্য একটি পূর্ণসংখ্যায় পড়ে।"),
        Step("Symmetric dequantize", f"{q_sym} × {fmt(s_sym)}", fmt(xhat_sym),
             "ফেরত আনার সময় শুধু scale দিয়ে গুণ, zero point যোগের ঝামেলা নেই।"),
        Step("ত্রুটির তুলনা", f"|{fmt(x)} − {fmt(xhat_sym)}|  বনাম  {fmt(err)}", fmt(err_sym),
             _sym_vs_asym(err_sym, err, s)),
    ]
    values = {"qmin": qmin, "qmax": qmax, "span": span, "scale": s, "zero_point": z,
              "q": q, "x_hat": xhat, "error": err, "half_step": s / 2,
              "scale_sym": s_sym, "q_sym": q_sym, "x_hat_sym": xhat_sym, "error_sym": err_sym,
              "unused_sym_cells": unused}
    return steps, values


# ---------------------------------------------------------------------------
# 3. Knowledge-distillation loss for one example
# ---------------------------------------------------------------------------

@stepper(
    "kd_loss",
    title="Knowledge distillation-এর loss: temperature, KL, T² আর gradient",
    inputs=[
        InputSpec("teacher", "Teacher-এর logit", (3.0, 1.0, -1.0), minimum=-100, maximum=100, kind="floats"),
        InputSpec("student", "Student-এর logit", (2.0, 1.5, -0.5), minimum=-100, maximum=100, kind="floats"),
        InputSpec("temperature", "Temperature T", 2.0, minimum=0.1, maximum=20, step=0.5),
        InputSpec("alpha", "Hard label-এর ভার α", 0.5, minimum=0, maximum=1, step=0.1),
        InputSpec("label", "আসল শ্রেণির index (০ থেকে)", 0, minimum=0, step=1, kind="int"),
    ],
)
def kd_loss(teacher, student, temperature, alpha, label):
    n = len(teacher)
    if n < 2 or n > 10:
        raise InputError("teacher", "২ থেকে ১০টি শ্রেণির logit দিন")
    if len(student) != n:
        raise InputError("student", f"Teacher-এর মতো {bn_digits(n)}টি logit দিন")
    if label >= n:
        raise InputError("label", f"শ্রেণির index ০ থেকে {bn_digits(n - 1)}-এর মধ্যে হতে হবে")
    T, a = temperature, alpha
    zt_T = [z / T for z in teacher]
    zs_T = [z / T for z in student]
    p = softmax(teacher, T)
    q = softmax(student, T)
    p1 = softmax(teacher, 1.0)
    q1 = softmax(student, 1.0)
    # log-probabilities from the stable path, so that a probability that underflows to 0
    # never reaches log() or a division
    log_p, log_q = log_softmax(teacher, T), log_softmax(student, T)
    terms = [pi * (lp - lq) for pi, lp, lq in zip(p, log_p, log_q)]
    kl = max(sum(terms), 0.0)  # exact KL is never negative; clear rounding dust
    kd = T * T * kl
    ce = -log_softmax(student, 1.0)[label]
    shift = max(zt_T) if max(zt_T) > 700 else 0.0  # keep exp() finite for huge logits
    exp_sum_t = sum(math.exp(z - shift) for z in zt_T)
    exp_calc = (f"exp({fmt_vec(zt_T)}) / {fmt(exp_sum_t)}" if shift == 0.0 else
                f"exp({fmt_vec(zt_T)} − {fmt(shift)}) / {fmt(exp_sum_t)}")
    total = a * ce + (1 - a) * kd
    grad_kd = [T * (qi - pi) for pi, qi in zip(p, q)]
    onehot = [1.0 if i == label else 0.0 for i in range(n)]
    grad_total = [a * (qi - yi) + (1 - a) * g for qi, yi, g in zip(q1, onehot, grad_kd)]
    Ts = fmt(T)
    # the notes below speak of softening; T < 1 sharpens instead, and T = 1 changes nothing
    # the step titles name the distributions the same way: soft (T > 1), sharp (T < 1), plain (T = 1)
    shape = "নরম " if T > 1 else "খাড়া " if T < 1 else ""
    if T > 1:
        divide_note = "দুই model-এর logit T দিয়ে ভাগ করলে তাদের পারস্পরিক দূরত্ব ছোট হয়, বণ্টন নরম হয়।"
        soft_note = "প্রতিটি ঘাতকে যোগফল দিয়ে ভাগ করলে সম্ভাবনা মেলে; ছোট শ্রেণিগুলোর ভাগও এখন চোখে পড়ে।"
        compare_note = "Temperature ছাড়া বণ্টন প্রায় এক শ্রেণিতে জমে থাকে, অন্যগুলোর তথ্য প্রায় হারায়।"
        scale_note = "T দিয়ে ভাগ করায় gradient প্রায় ১/T² হারে ছোট হয়েছিল; T² গুণ সেই মাপ ফিরিয়ে আনে।"
    elif T < 1:
        divide_note = ("T < ১-এ ভাগ করলে logit-গুলোর পারস্পরিক দূরত্ব উল্টো বাড়ে, বণ্টন আরও খাড়া হয়; "
                       "নরম করতে T লাগে ১-এর বেশি।")
        soft_note = "প্রতিটি ঘাতকে যোগফল দিয়ে ভাগ করলে সম্ভাবনা মেলে; T < ১-এ বড় শ্রেণিটি আরও বেশি ভাগ পায়, ছোটগুলো চাপা পড়ে।"
        compare_note = "এখানে T = ১-এর বণ্টনটিই বেশি নরম: T এক থেকে যত নিচে, বণ্টন তত এক শ্রেণিতে জমে।"
        scale_note = ("T² গুণের যুক্তি বড় T-এর জন্য: সেখানে gradient প্রায় ১/T² হারে ছোট হয়। T < ১-এ T² একের কম, "
                      "তাই এই গুণ KD অংশের ভার বরং কমিয়ে দেয়।")
    else:
        divide_note = "T = ১-এ ভাগ করলে কিছুই বদলায় না: বণ্টন সাধারণ softmax-এর মতোই।"
        soft_note = "প্রতিটি ঘাতকে যোগফল দিয়ে ভাগ করলে সম্ভাবনা মেলে; T = ১-এ এটি teacher-এর সাধারণ বণ্টন।"
        compare_note = "এখানে T নিজেই ১, তাই দুটি বণ্টন হুবহু এক; নরম বণ্টন দেখতে T ১-এর বেশি নিন।"
        scale_note = "T = ১-এ T² = ১, কিছু বদলায় না; বড় T-তে gradient প্রায় ১/T² হারে ছোট হয়, তখন এই গুণ সেই মাপ ফিরিয়ে আনে।"
    steps = [
        Step("Temperature-এ ভাগ", f"{fmt_vec(teacher)} / {Ts} ;  {fmt_vec(student)} / {Ts}",
             f"{fmt_vec(zt_T)} ;  {fmt_vec(zs_T)}", divide_note),
        Step(f"Teacher-এর {shape}বণ্টন p", exp_calc, fmt_vec(p), soft_note),
        Step("তুলনা: T = ১-এ teacher", f"softmax({fmt_vec(teacher)})", fmt_vec(p1), compare_note),
        Step(f"Student-এর {shape}বণ্টন q", f"softmax({fmt_vec(zs_T)})", fmt_vec(q),
             "একই temperature-এ student কোন শ্রেণিকে কতটা দিচ্ছে, তা teacher-এর পাশে রাখা হলো।"),
        Step("KL-এর পদ", "p · ln(p / q), প্রতিটি শ্রেণিতে", fmt_vec(terms),
             "কোনো কোনো পদ ঋণাত্মক হতে পারে, তাতে সমস্যা নেই; যোগফলটিই মাপ।"),
        Step("KL(p ‖ q)", " + ".join(paren(t) for t in terms), fmt(kl),
             "দুই বণ্টন যত আলাদা, এই যোগফল তত বড়; মিলে গেলে ঠিক শূন্য, আর কখনো ঋণাত্মক নয়।"),
        Step("T² দিয়ে গুণ", f"{fmt(T * T)} × {fmt(kl)}", fmt(kd), scale_note),
        Step("Hard label-এর CE", f"−ln softmax({fmt_vec(student)})[{label}] = −ln {fmt(q1[label])}", fmt(ce),
             "আসল উত্তরের সঙ্গে সাধারণ cross-entropy, temperature ছাড়া।"),
        Step("মোট loss", f"{fmt(a)} × {fmt(ce)} + {fmt(1 - a)} × {fmt(kd)}", fmt(total),
             "α ঠিক করে আসল label আর teacher-এর পরামর্শের মধ্যে কার কথা কতটা শোনা হবে।"),
        Step("KD অংশের gradient", f"{Ts} × (q − p)", fmt_vec(grad_kd),
             "ঋণাত্মক উপাদানের logit বাড়াতে আর ধনাত্মক উপাদানের logit কমাতে বলে; উপাদানগুলোর যোগফল শূন্য।"),
        Step("মোট gradient", f"{fmt(a)} × (softmax(z_s) − y) + {fmt(1 - a)} × {Ts} × (q − p)",
             fmt_vec(grad_total),
             "দুই অংশের gradient একই ভারে মেশানো; student-এর logit এই দিকের উল্টোয় একটু সরবে।"),
    ]
    values = {"teacher_T": zt_T, "student_T": zs_T, "p": p, "q": q, "p_T1": p1, "q_T1": q1,
              "exp_sum_teacher": exp_sum_t, "kl_terms": terms, "kl": kl, "kd": kd, "ce": ce,
              "total": total, "grad_kd": grad_kd, "grad_total": grad_total}
    return steps, values
