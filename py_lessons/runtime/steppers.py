"""Worked calculations ("steppers") for the lessons, in pure Python.

Each stepper turns a few numeric inputs into rows of (title, calculation,
result, note).  The same functions run twice: once at build time, where their
output is rendered into the page, and again in the reader's browser through
Pyodide when the reader edits an input.  That is why this module uses only the
standard library (``math`` and ``dataclasses``): Pyodide must be able to import
it without fetching any package, and the build must not need one either.

Conventions
-----------
* ``calculation`` and ``result`` hold ASCII digits (the page may convert them to
  Bangla digits); negative numbers use the typographic minus U+2212.
* ``title`` and ``note`` are Bangla text; numbers inside them already use Bangla
  digits because they are read as prose.
* ``run_stepper`` also returns ``values``: the key unrounded numbers, so that a
  lesson can quote a figure in its prose without typing it by hand.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Callable

__all__ = [
    "Step",
    "InputSpec",
    "StepperDef",
    "STEPPERS",
    "InputError",
    "stepper",
    "run_stepper",
    "describe",
    "fmt",
    "fmt_vec",
    "fmt_int",
    "bn_digits",
]


# ---------------------------------------------------------------------------
# Data model
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    title: str        # short Bangla label of the step
    calculation: str  # the arithmetic shown (ASCII digits)
    result: str       # formatted result (ASCII digits)
    note: str         # one short Bangla sentence on what the step means


@dataclass(frozen=True)
class InputSpec:
    name: str
    label: str
    # a number for "float"/"int"; a tuple of numbers for "floats"
    default: float | int | tuple[float, ...]
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    kind: str = "float"  # "float", "int" or "floats" (comma-separated list)


@dataclass(frozen=True)
class StepperDef:
    name: str
    title: str
    inputs: tuple[InputSpec, ...]
    func: Callable[..., tuple[list[Step], dict]] = field(repr=False)


STEPPERS: dict[str, StepperDef] = {}


class InputError(ValueError):
    """A bad input value; the message is Bangla and names the input."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name


# Reader-facing error texts, kept together so they can move into the site's
# string catalogue without hunting through the code.
MESSAGES = {
    "unknown_stepper": "অজানা stepper: “{name}”",
    "unknown_input": "“{stepper}” stepper-এ “{name}” নামে কোনো input নেই",
    "not_number": "“{value}” কোনো সংখ্যা নয়",
    "not_finite": "সসীম একটি সংখ্যা দিন (NaN বা inf চলবে না)",
    "not_integer": "পূর্ণসংখ্যা দিন, {value} নয়",
    "too_small": "মান {minimum}-এর কম হতে পারে না (দেওয়া হয়েছে {value})",
    "too_large": "মান {maximum}-এর বেশি হতে পারে না (দেওয়া হয়েছে {value})",
    "empty_list": "কমা দিয়ে আলাদা করে অন্তত একটি সংখ্যা দিন",
    "not_list": "কমা দিয়ে আলাদা করা সংখ্যার তালিকা দিন",
    "wrapped": "ইনপুট “{label}” ({name}): {message}",
}


# ---------------------------------------------------------------------------
# Number formatting
# ---------------------------------------------------------------------------

MINUS = "\u2212"
_BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
_FROM_BN = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")


def bn_digits(text: str) -> str:
    """Replace ASCII digits by Bangla digits (for titles and notes)."""
    return str(text).translate(_BN)


def fmt(x: float, sig: int = 4) -> str:
    """Format a number with ``sig`` significant digits, without trailing zeros.

    Values from 1e-4 up to 1e6 are written in plain decimal form; smaller or
    larger magnitudes use the short exponent form ``4.861e-4``.  Negative
    numbers get the typographic minus sign.
    """
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else MINUS + "inf"
    if x == 0:
        return "0"
    ax = abs(x)
    if 1e-4 <= ax < 1e6:
        decimals = max(0, sig - 1 - math.floor(math.log10(ax)))
        text = f"{x:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        if text in ("-0", "0"):
            text = "0"
    else:
        mantissa, exponent = f"{x:.{sig - 1}e}".split("e")
        if "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        text = f"{mantissa}e{int(exponent)}"
    return text.replace("-", MINUS)


def fmt_int(n: int) -> str:
    """Whole numbers with thousands separators: 357,826,560."""
    return f"{int(n):,}".replace("-", MINUS)


def fmt_vec(xs, sig: int = 4) -> str:
    return "[" + ", ".join(fmt(x, sig) for x in xs) + "]"


def _paren(x: float, sig: int = 4) -> str:
    """A number ready to sit after an operator: negatives in parentheses."""
    text = fmt(x, sig)
    return f"({text})" if x < 0 else text


def _bn(x: float, sig: int = 4) -> str:
    """A number for Bangla prose: Bangla digits, and 2.785e−7 read as 2.785 × 10^−7."""
    text = fmt(x, sig)
    if "e" in text and not text.endswith("inf"):
        mantissa, exponent = text.split("e")
        text = f"{mantissa} × 10^{exponent}"
    return bn_digits(text)


# ---------------------------------------------------------------------------
# Registry, validation and the public entry points
# ---------------------------------------------------------------------------

def stepper(name: str, *, title: str, inputs: list[InputSpec]):
    """Register a stepper function under ``name``."""

    def register(func):
        if name in STEPPERS:
            raise RuntimeError(f"stepper {name!r} registered twice")
        names = [spec.name for spec in inputs]
        if len(set(names)) != len(names):
            raise RuntimeError(f"stepper {name!r} has duplicate input names")
        STEPPERS[name] = StepperDef(name, title, tuple(inputs), func)
        return func

    return register


def _to_float(spec: InputSpec, raw) -> float:
    if isinstance(raw, bool):
        raise InputError(spec.name, MESSAGES["not_number"].format(value=raw))
    if isinstance(raw, (int, float)):
        value = float(raw)
    elif isinstance(raw, str):
        text = raw.strip().translate(_FROM_BN).replace(MINUS, "-")
        try:
            value = float(text)
        except ValueError:
            raise InputError(spec.name, MESSAGES["not_number"].format(value=raw)) from None
    else:
        raise InputError(spec.name, MESSAGES["not_number"].format(value=raw))
    if not math.isfinite(value):
        raise InputError(spec.name, MESSAGES["not_finite"])
    return value


def _check_bounds(spec: InputSpec, value: float) -> None:
    if spec.minimum is not None and value < spec.minimum:
        raise InputError(spec.name, MESSAGES["too_small"].format(
            minimum=fmt(spec.minimum, 6), value=fmt(value, 6)))
    if spec.maximum is not None and value > spec.maximum:
        raise InputError(spec.name, MESSAGES["too_large"].format(
            maximum=fmt(spec.maximum, 6), value=fmt(value, 6)))


def _convert(spec: InputSpec, raw):
    if spec.kind == "floats":
        if isinstance(raw, str):
            parts = [p for p in raw.split(",") if p.strip()]
        elif isinstance(raw, (list, tuple)):
            parts = list(raw)
        else:
            raise InputError(spec.name, MESSAGES["not_list"])
        if not parts:
            raise InputError(spec.name, MESSAGES["empty_list"])
        values = [_to_float(spec, p) for p in parts]
        for v in values:
            _check_bounds(spec, v)
        return values
    value = _to_float(spec, raw)
    if spec.kind == "int":
        if not value.is_integer():
            raise InputError(spec.name, MESSAGES["not_integer"].format(value=fmt(value, 6)))
        value = int(value)
    _check_bounds(spec, value)
    return value


def _json_default(value):
    return list(value) if isinstance(value, tuple) else value


def describe(name: str) -> list[dict]:
    """The input specifications of a stepper, as JSON-ready dicts."""
    defn = _lookup(name)
    out = []
    for spec in defn.inputs:
        d = asdict(spec)
        d["default"] = _json_default(spec.default)
        out.append(d)
    return out


def _lookup(name: str) -> StepperDef:
    try:
        return STEPPERS[name]
    except KeyError:
        raise ValueError(MESSAGES["unknown_stepper"].format(name=name)) from None


def run_stepper(name: str, **inputs) -> dict:
    """Validate the inputs, run the stepper and return a JSON-ready dict."""
    defn = _lookup(name)
    specs = {spec.name: spec for spec in defn.inputs}
    for key in inputs:
        if key not in specs:
            raise ValueError(MESSAGES["unknown_input"].format(stepper=name, name=key))
    values = {}
    try:
        for spec in defn.inputs:
            raw = inputs.get(spec.name, _json_default(spec.default))
            values[spec.name] = _convert(spec, raw)
        steps, numbers = defn.func(**values)
    except InputError as exc:
        spec = specs.get(exc.name)
        label = spec.label if spec else exc.name
        raise InputError(exc.name, MESSAGES["wrapped"].format(
            label=label, name=exc.name, message=str(exc))) from None
    return {
        "name": defn.name,
        "title": defn.title,
        "inputs": values,
        "steps": [asdict(s) for s in steps],
        "values": numbers,
    }


# ---------------------------------------------------------------------------
# Small maths helpers (no numpy on purpose)
# ---------------------------------------------------------------------------

def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _softmax(zs: list[float], temperature: float = 1.0) -> list[float]:
    return [math.exp(v) for v in _log_softmax(zs, temperature)]


def _log_softmax(zs: list[float], temperature: float = 1.0) -> list[float]:
    scaled = [z / temperature for z in zs]
    m = max(scaled)
    lse = m + math.log(sum(math.exp(z - m) for z in scaled))
    return [z - lse for z in scaled]


def _milestones(n: int) -> list[int]:
    """Which layers to show: all of a short chain, else 1, 2, 3, 5, 10, 20, ... n."""
    if n <= 6:
        return list(range(1, n + 1))
    marks = {1, 2, 3, 5, n}
    marks.update(range(10, n + 1, 10))
    return sorted(k for k in marks if k <= n)


# ---------------------------------------------------------------------------
# 1. Memory per precision
# ---------------------------------------------------------------------------

_MIB = 2 ** 20
_GB = 1e9


def _mem(num_bytes: float) -> str:
    return f"{num_bytes / _MIB:,.1f} MiB · {fmt(num_bytes / _GB)} GB"


@stepper(
    "memory_ledger",
    title="ওজন রাখতে কত memory: precision ধরে হিসাব",
    inputs=[
        # Defaults: Qwen2.5-0.5B (24 layers, hidden 896, MLP 4864, vocab 151,936, tied embedding)
        InputSpec("linear_params", "Linear layer-এর weight (সংখ্যা)", 357_826_560, minimum=0, step=1, kind="int"),
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
        raise InputError("linear_params", "মোট parameter শূন্য; অন্তত একটি ঘরে ধনাত্মক সংখ্যা দিন")
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
             "প্রতিটি সংখ্যা ৩২ bit, অর্থাৎ ৪ byte; এক MiB মানে 2^20 byte, আর এক GB মানে 10^9 byte।"),
        Step("fp16 / bf16", f"{T} × 2 byte", _mem(b["fp16"]),
             "১৬ bit-এ প্রতিটি সংখ্যা ২ byte, তাই fp32-এর ঠিক অর্ধেক জায়গা।"),
        Step("int8, সব weight", f"{T} × 1 byte", _mem(b["int8"]),
             "সব weight এক byte-এ রাখা গেলে এটিই কাগজের হিসাব; বাস্তবে সব অংশ int8-এ যায় না।"),
        Step("int8, embedding 16-bit-এ",
             f"{fmt_int(lin)} × 1 + {fmt_int(keep16)} × 2 byte", _mem(b["int8_emb16"]),
             f"শুধু Linear এক byte-এ গেলে মোট {_bn(b['int8_emb16'] / _MIB, 4)} MiB, "
             f"যা 16-bit-এর চেয়ে মাত্র {_bn(100 * (1 - b['int8_emb16'] / b['fp16']), 3)}% কম।"),
        Step("int4, সব weight", f"{T} × 0.5 byte", _mem(b["int4"]),
             "চার bit মানে আধা byte; কাগজে fp32-এর আট ভাগের এক ভাগ।"),
        Step("int4, embedding 16-bit-এ",
             f"{fmt_int(lin)} × 0.5 + {fmt_int(keep16)} × 2 byte", _mem(b["int4_emb16"]),
             f"Embedding-এর ভাগ বড় হলে 16-bit-এর তুলনায় সাশ্রয় চার গুণ হয় না, হয় প্রায় "
             f"{_bn(b['fp16'] / b['int4_emb16'], 3)} গুণ।"),
        Step("int4 + block-এর scale",
             f"{fmt(b['int4_emb16'] / _MIB, 5)} MiB + {fmt_int(lin)} / {block_size} × {fmt(scale_bits)} bit ÷ 8",
             _mem(b["int4_emb16_scales"]),
             f"প্রতি {bn_digits(block_size)}টি weight-এর জন্য একটি scale রাখতে হয়, তাই প্রতি weight-এ বাড়তি "
             f"{_bn(scale_bits / block_size, 3)} bit লাগে।"),
    ]
    values = {"total_params": total, "keep16_params": keep16,
              "scale_bytes": scale_bytes, **{f"{k}_bytes": v for k, v in b.items()},
              **{f"{k}_mib": v / _MIB for k, v in b.items()},
              **{f"{k}_gb": v / _GB for k, v in b.items()}}
    return steps, values


# ---------------------------------------------------------------------------
# 2. Affine (asymmetric) and symmetric quantization of one value
# ---------------------------------------------------------------------------

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

    range_note = (f"সবচেয়ে ছোট {_bn(x_min)}, সবচেয়ে বড় {_bn(x_max)}; {bn_digits(bits)} bit-এ "
                  f"{bn_digits(qmax - qmin + 1)}টি ঘর আছে।")
    if widened:
        range_note += " আসল ০ যেন ঠিক একটি ঘরে পড়ে, তাই পরিসর ০ পর্যন্ত বাড়ানো হলো।"
    clip_note = ""
    if q != q_unclipped:
        clip_note = f" মানটি পরিসরের বাইরে, তাই {bn_digits(q_unclipped)} কেটে {bn_digits(q)} করা হলো।"
    in_range = x_min <= x <= x_max
    steps = [
        Step("পরিসর", f"{fmt(hi)} − {_paren(lo)} ; ঘর {qmin} … {qmax}", fmt(span), range_note),
        Step("Scale s", f"({fmt(hi)} − {_paren(lo)}) / ({qmax} − {qmin})", fmt(s),
             "পাশাপাশি দুটি পূর্ণসংখ্যা আসল সংখ্যায় এতটা দূরে; এটিই quantization-এর ধাপের মাপ।"),
        Step("Zero point z", f"round({qmin} − {_paren(lo)} / {fmt(s)}) = round({fmt(z_raw)})", str(z),
             "আসল ০.০ এই পূর্ণসংখ্যায় বসে, তাই শূন্য (padding, ReLU-র শূন্য) কোনো ত্রুটি ছাড়াই ফেরে।"),
        Step("Quantize", f"round({fmt(x)} / {fmt(s)}) + {z} = round({fmt(r)}) + {z}", str(q),
             "ভাগ করে নিকটতম পূর্ণসংখ্যা নিয়ে zero point যোগ করলে মানটি একটি ছোট পূর্ণসংখ্যার ঘরে জায়গা পায়।"
             + clip_note),
        Step("Dequantize", f"({q} − {z}) × {fmt(s)}", fmt(xhat),
             "পূর্ণসংখ্যা থেকে zero point বাদ দিয়ে scale দিয়ে গুণ করলে আসল মানের কাছাকাছি একটি সংখ্যা ফেরে।"),
        Step("ত্রুটি", f"|{fmt(x)} − {fmt(xhat)}|   (s/2 = {fmt(s / 2)})", fmt(err),
             "পরিসরের ভেতরের মানে round-এর ভুল কখনো আধা ধাপের বেশি নয়।" if in_range else
             "পরিসরের বাইরের মান কেটে ফেলা হয়েছে, তাই ভুল আধা ধাপ ছাড়িয়ে যেতে পারে।"),
        Step("Symmetric scale", f"max(|{fmt(x_min)}|, |{fmt(x_max)}|) / {qs}", fmt(s_sym),
             f"Symmetric-এ z = ০, ঘর −{bn_digits(qs)} থেকে {bn_digits(qs)}; পরিসর একদিকে হেলে থাকলে "
             f"{bn_digits(unused)}টি ঘর কখনো কাজে লাগে না।"),
        Step("Symmetric quantize", f"round({fmt(x)} / {fmt(s_sym)}) = round({fmt(r_sym)})", str(q_sym),
             "ধাপ মোটা হওয়ায় একই মান এখন অন্য একটি পূর্ণসংখ্যায় পড়ে।"),
        Step("Symmetric dequantize", f"{q_sym} × {fmt(s_sym)}", fmt(xhat_sym),
             "ফেরত আনার সময় শুধু scale দিয়ে গুণ, zero point যোগের ঝামেলা নেই।"),
        Step("ত্রুটির তুলনা", f"|{fmt(x)} − {fmt(xhat_sym)}|  বনাম  {fmt(err)}", fmt(err_sym),
             f"Symmetric-এর ভুল asymmetric-এর প্রায় {_bn(err_sym / err, 2)} গুণ: সহজ হিসাবের দাম মোটা ধাপ।"
             if err > 0 else "Asymmetric-এ এই মানটি হুবহু ফিরেছে, symmetric-এ ধাপ মোটা বলে ভুল থাকতে পারে।"),
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
    p = _softmax(teacher, T)
    q = _softmax(student, T)
    p1 = _softmax(teacher, 1.0)
    q1 = _softmax(student, 1.0)
    # log-probabilities from the stable path, so that a probability that underflows to 0
    # never reaches log() or a division
    log_p, log_q = _log_softmax(teacher, T), _log_softmax(student, T)
    terms = [pi * (lp - lq) for pi, lp, lq in zip(p, log_p, log_q)]
    kl = max(sum(terms), 0.0)  # exact KL is never negative; clear rounding dust
    kd = T * T * kl
    ce = -_log_softmax(student, 1.0)[label]
    shift = max(zt_T) if max(zt_T) > 700 else 0.0  # keep exp() finite for huge logits
    exp_sum_t = sum(math.exp(z - shift) for z in zt_T)
    exp_calc = (f"exp({fmt_vec(zt_T)}) / {fmt(exp_sum_t)}" if shift == 0.0 else
                f"exp({fmt_vec(zt_T)} − {fmt(shift)}) / {fmt(exp_sum_t)}")
    total = a * ce + (1 - a) * kd
    grad_kd = [T * (qi - pi) for pi, qi in zip(p, q)]
    onehot = [1.0 if i == label else 0.0 for i in range(n)]
    grad_total = [a * (qi - yi) + (1 - a) * g for qi, yi, g in zip(q1, onehot, grad_kd)]
    Ts = fmt(T)
    steps = [
        Step("Temperature-এ ভাগ", f"{fmt_vec(teacher)} / {Ts} ;  {fmt_vec(student)} / {Ts}",
             f"{fmt_vec(zt_T)} ;  {fmt_vec(zs_T)}",
             "দুই model-এর logit T দিয়ে ভাগ করলে তাদের পারস্পরিক দূরত্ব ছোট হয়, বণ্টন নরম হয়।"),
        Step("Teacher-এর নরম বণ্টন p", exp_calc, fmt_vec(p),
             "প্রতিটি ঘাতকে যোগফল দিয়ে ভাগ করলে সম্ভাবনা মেলে; ছোট শ্রেণিগুলোর ভাগও এখন চোখে পড়ে।"),
        Step("তুলনা: T = ১-এ teacher", f"softmax({fmt_vec(teacher)})", fmt_vec(p1),
             "Temperature ছাড়া বণ্টন প্রায় এক শ্রেণিতে জমে থাকে, অন্যগুলোর তথ্য প্রায় হারায়।"),
        Step("Student-এর নরম বণ্টন q", f"softmax({fmt_vec(zs_T)})", fmt_vec(q),
             "একই temperature-এ student কোন শ্রেণিকে কতটা দিচ্ছে, তা teacher-এর পাশে রাখা হলো।"),
        Step("KL-এর পদ", "p · ln(p / q), প্রতিটি শ্রেণিতে", fmt_vec(terms),
             "কোনো কোনো পদ ঋণাত্মক হতে পারে, তাতে সমস্যা নেই; যোগফলটিই মাপ।"),
        Step("KL(p ‖ q)", " + ".join(_paren(t) for t in terms), fmt(kl),
             "দুই বণ্টন যত আলাদা, এই যোগফল তত বড়; মিলে গেলে ঠিক শূন্য, আর কখনো ঋণাত্মক নয়।"),
        Step("T² দিয়ে গুণ", f"{fmt(T * T)} × {fmt(kl)}", fmt(kd),
             "T দিয়ে ভাগ করায় gradient প্রায় 1/T² হারে ছোট হয়েছিল; T² গুণ সেই মাপ ফিরিয়ে আনে।"),
        Step("Hard label-এর CE", f"−ln softmax({fmt_vec(student)})[{label}] = −ln {fmt(q1[label])}", fmt(ce),
             "আসল উত্তরের সঙ্গে সাধারণ cross-entropy, temperature ছাড়া।"),
        Step("মোট loss", f"{fmt(a)} × {fmt(ce)} + {fmt(1 - a)} × {fmt(kd)}", fmt(total),
             "α ঠিক করে আসল label আর teacher-এর পরামর্শের মধ্যে কার কথা কতটা শোনা হবে।"),
        Step("KD অংশের gradient", f"{Ts} × (q − p)", fmt_vec(grad_kd),
             "ঋণাত্মক ঘরের logit বাড়াতে আর ধনাত্মক ঘরের logit কমাতে বলে; ঘরগুলোর যোগফল শূন্য।"),
        Step("মোট gradient", f"{fmt(a)} × (softmax(z_s) − y) + {fmt(1 - a)} × {Ts} × (q − p)",
             fmt_vec(grad_total),
             "দুই অংশের gradient একই ভারে মেশানো; student-এর logit এই দিকের উল্টোয় একটু সরবে।"),
    ]
    values = {"teacher_T": zt_T, "student_T": zs_T, "p": p, "q": q, "p_T1": p1, "q_T1": q1,
              "exp_sum_teacher": exp_sum_t, "kl_terms": terms, "kl": kl, "kd": kd, "ce": ce,
              "total": total, "grad_kd": grad_kd, "grad_total": grad_total}
    return steps, values


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
        h = _sigmoid(z)
        slope = h * (1 - h)
        factor = w * slope
        prod *= factor
        rows.append((k, z, h, slope, factor, prod))
    steps = []
    shown_prev = None
    for k in _milestones(layers):
        _, z, h, slope, factor, prod = rows[k - 1]
        calc = (f"z = {fmt(w)} × {_paren(rows[k - 2][2] if k > 1 else h0)} = {fmt(z)}, "
                f"h = σ(z) = {fmt(h)}, w·σ′ = {fmt(w)} × {fmt(h)} × {fmt(1 - h)} = {fmt(factor)}")
        if k == 1:
            note = f"প্রথম স্তরেই gradient {_bn(factor)} গুণ হলো।"
        elif shown_prev is not None and shown_prev != k - 1:
            note = (f"মাঝের স্তরগুলোর গুণনীয়কও গুণফলে ঢুকেছে; এখন প্রতিটি প্রায় {_bn(factor, 3)}, "
                    f"গুণফল {_bn(prod)}।")
        else:
            note = f"আগের গুণফলকে {_bn(factor)} দিয়ে গুণ করে {_bn(prod)}।"
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
    title="Residual block: ∏(1 + F′) বনাম ∏F′",
    inputs=[
        InputSpec("x0", "শুরুর মান x₀", 0.5, minimum=-10, maximum=10, step=0.1),
        InputSpec("gain", "F-এর ভেতরের গুণক a, F(x) = σ(a·x)", 0.5, minimum=-5, maximum=5, step=0.1),
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
        fprime = a * _sigmoid(u) * (1 - _sigmoid(u))
        plain *= fprime
        resid *= 1 + fprime
        rows.append((k, x, u, fprime, plain, resid))
        x = x + _sigmoid(u)
    steps = []
    for k in _milestones(blocks):
        _, xk, u, fprime, pl, rs = rows[k - 1]
        calc = (f"x = {fmt(xk)}, F′ = {fmt(a)} × σ′({fmt(u)}) = {fmt(fprime)};  "
                f"∏F′ = {fmt(pl)},  ∏(1 + F′) = {fmt(rs)}")
        if k == 1:
            note = f"শুধু F-এর পথে gradient {_bn(fprime)} গুণ, কিন্তু shortcut থাকায় {_bn(1 + fprime)} গুণ।"
        elif abs(pl) < 1e-6:
            note = "F-এর পথে gradient কার্যত শূন্য, অথচ residual-এর গুণনীয়কগুলো ১-এর নিচে নামে না।"
        else:
            note = f"প্রতিটি block-এ ১ যোগ থাকায় residual গুণফল {_bn(rs)}, আর শুধু F-এর পথে {_bn(pl)}।"
        steps.append(Step(f"Block {bn_digits(k)}", calc, f"{fmt(pl)} বনাম {fmt(rs)}", note))
    final_plain, final_res = rows[-1][4], rows[-1][5]
    steps.append(Step("শেষ হিসাব", f"∏(1 + F′) / ∏F′ = {fmt(final_res)} / {fmt(final_plain)}",
                      fmt(final_res / final_plain, 3) if final_plain != 0 else "inf",
                      "F′ ধনাত্মক হলে 1 + F′ > ১, তাই residual-এর গুণফল কমে না; বরং মাপ ধীরে বাড়তে পারে, তাই normalization-ও লাগে।"
                      if a > 0 else "এখানে F′ ঋণাত্মক, তাই 1 + F′ একের নিচে; shortcut তখনও পুরো পথ বন্ধ হতে দেয় না যতক্ষণ F′ > −১।"))
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
        InputSpec("grad", "Gradient-এর ঘরগুলো (সব parameter এক সারিতে)", (3.0, 4.0, 12.0),
                  minimum=-1e6, maximum=1e6, kind="floats"),
        InputSpec("max_norm", "max_norm", 5.0, minimum=1e-6, maximum=1e6, step=0.5),
        InputSpec("clip_value", "clip_value (value ধরে কাটার সীমা)", 2.0, minimum=1e-6, maximum=1e6, step=0.5),
        InputSpec("eps", "হরে যোগ করা ছোট সংখ্যা", 1e-6, minimum=0, maximum=1e-2),
    ],
)
def norm_clip(grad, max_norm, clip_value, eps):
    g = list(grad)
    if len(g) > 16:
        raise InputError("grad", "পাতায় দেখানোর জন্য ১৬টির বেশি ঘর দেবেন না")
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
    coef_note = ("Norm সীমার ভেতরে, তাই গুণক ১: ছোট gradient বদলায় না, বড়ও করা হয় না।" if coef >= 1.0
                 else "গুণক ১-এর কম, তাই সব ঘর একই অনুপাতে ছোট হবে; হরের ছোট সংখ্যাটি শূন্য দিয়ে ভাগ ঠেকায়।")
    steps = [
        Step("বর্গের যোগ", " + ".join(f"{_paren(x)}²" for x in g), fmt(sq, 6),
             "সব parameter-এর সব ঘর একটি লম্বা vector ধরে একসঙ্গে বর্গ করে যোগ হয়।"),
        Step("মোট norm", f"√{fmt(sq, 6)}", fmt(norm, 6),
             "Gradient-এর দৈর্ঘ্য; clip_grad_norm_ এটিই ফেরত দেয়, ছাঁটার আগের মান।"),
        Step("গুণক", f"min(1, {fmt(max_norm)} / ({fmt(norm, 6)} + {fmt(eps)}))", fmt(coef), coef_note),
        Step("Norm ধরে ছাঁটা", f"{fmt(coef)} × {fmt_vec(g)}", fmt_vec(clipped),
             "ঘরগুলোর অনুপাত আগের মতোই, অর্থাৎ gradient-এর দিক অক্ষত।"),
        Step("নতুন norm", f"‖{fmt_vec(clipped)}‖", fmt(new_norm),
             "দৈর্ঘ্য এখন সীমার সমান (বা আগেই ছোট ছিল), আর দিকের cosine ঠিক ১।"),
        Step("Value ধরে ছাঁটা", f"clip({fmt_vec(g)}, {MINUS}{fmt(clip_value)}, {fmt(clip_value)})",
             fmt_vec(by_value),
             "প্রতিটি ঘর আলাদাভাবে সীমায় আটকানো হয়; বড় ঘর আর ছোট ঘরের পার্থক্য মুছে যেতে পারে।"),
        Step("দিকের cosine", cos_calc, fmt(cos) if cos is not None else "—",
             "১-এর যত নিচে, value clipping gradient-এর দিক তত বেশি ঘুরিয়ে দিয়েছে।"),
    ]
    values = {"sum_squares": sq, "norm": norm, "coef": coef, "clipped": clipped,
              "clipped_norm": new_norm, "by_value": by_value, "by_value_norm": v_norm,
              "cosine_value_clip": cos, "returned_norm": norm}
    return steps, values


# ---------------------------------------------------------------------------
# 7. Gradient descent on the one-weight loss (x*w - y)^2
# ---------------------------------------------------------------------------

@stepper(
    "gd_update",
    title="Gradient descent: w ← w − lr · dL/dw, ধাপে ধাপে",
    inputs=[
        InputSpec("x", "Input x (loss = (x·w − y)²)", 2.0, minimum=-10, maximum=10, step=0.5),
        InputSpec("y", "লক্ষ্য y", 10.0, minimum=-100, maximum=100, step=1),
        InputSpec("w0", "শুরুর w", 0.0, minimum=-100, maximum=100, step=0.5),
        InputSpec("lr", "Learning rate", 0.1, minimum=0, maximum=1, step=0.01),
        InputSpec("steps", "ধাপের সংখ্যা", 5, minimum=1, maximum=30, step=1, kind="int"),
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
        verdict = "|গুণনীয়ক| < ১, তাই w প্রতি ধাপে লক্ষ্যের কাছে যাবে"
        if factor < 0:
            verdict += ", তবে দুই পাশে দোল খেতে খেতে"
    elif abs(factor) == 1:
        verdict = "|গুণনীয়ক| = ১, তাই দূরত্ব কমবেও না, বাড়বেও না"
    else:
        verdict = "|গুণনীয়ক| > ১, তাই প্রতি ধাপে দূরত্ব বাড়বে: training ফাটবে"
    out = [
        Step("Loss আর ঢাল", f"L(w) = ({fmt(x)}·w − {_paren(y)})²,  dL/dw = 2 × {_paren(x)} × ({fmt(x)}·w − {_paren(y)})",
             f"w* = {fmt(w_star)}", "ঢাল শূন্য যেখানে, সেখানেই loss সবচেয়ে কম; লক্ষ্য সেই w*।"),
        Step("প্রতি ধাপের গুণনীয়ক", f"1 − 2 × {_paren(x)}² × {fmt(lr)}", fmt(factor),
             f"প্রতি ধাপে w* থেকে দূরত্ব এই সংখ্যা দিয়ে গুণ হয়; {verdict}। সীমা lr < {_bn(lr_limit)}।"),
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
        note = f"ঢাল {_bn(g)}, তাই w {direction} সরল; loss এখন {_bn(loss(w_new))}।"
        if crossed:
            note += " লক্ষ্য পেরিয়ে ওপাশে চলে গেছে।"
        out.append(Step(f"ধাপ {bn_digits(k)}", f"{fmt(w)} − {fmt(lr)} × {_paren(g)}", fmt(w_new), note))
        w = w_new
        trail.append(w)
    values = {"w_star": w_star, "factor": factor, "lr_limit": lr_limit, "w": trail,
              "loss": [loss(v) for v in trail]}
    return out, values


# ---------------------------------------------------------------------------
# 8. Stable softmax and log-sum-exp by subtracting the maximum
# ---------------------------------------------------------------------------

_EXP_LIMIT_F64 = math.log(1.7976931348623157e308)  # ≈ 709.78
_EXP_LIMIT_F16 = math.log(65504.0)                  # ≈ 11.09


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
    if big > _EXP_LIMIT_F64:
        naive = "inf (overflow)"
        naive_note = (f"float64-এ e^x সীমা ছাড়ায় x > {_bn(_EXP_LIMIT_F64, 5)} হলেই; তখন inf / inf = NaN, "
                      "সরাসরি সূত্র অচল।")
        naive_value = None
    else:
        naive_value = math.exp(big)
        naive = fmt(naive_value)
        naive_note = (f"float64-এ এটি চলে, কিন্তু float16-এ x > {_bn(_EXP_LIMIT_F16)} হলেই e^x সীমা "
                      "ছাড়ায়, তাই সরাসরি সূত্র ঝুঁকিপূর্ণ।")
    shifted = [x - big for x in xs]
    exps = [math.exp(d) for d in shifted]
    total = sum(exps)
    probs = [e / total for e in exps]
    lse = big + math.log(total)
    log_probs = [x - lse for x in xs]
    s7 = 7  # logits can be large, so keep more digits where they appear
    steps = [
        Step("সরাসরি exp", f"e^{fmt(big, s7)}", naive, naive_note),
        Step("সবচেয়ে বড় m", f"max({fmt_vec(xs, s7)})", fmt(big, s7),
             "প্রতিটি logit থেকে একই সংখ্যা বিয়োগ করলে softmax বদলায় না, কারণ e^(−m) লব আর হরে কেটে যায়।"),
        Step("বিয়োগ", f"{fmt_vec(xs, s7)} − {_paren(big, s7)}", fmt_vec(shifted, s7),
             "এখন সব ঘাত ০ বা ঋণাত্মক, তাই e-এর ঘাত ১-এর বেশি হতে পারে না।"),
        Step("exp", f"exp({fmt_vec(shifted, s7)})", fmt_vec(exps),
             "খুব ঋণাত্মক ঘাত শূন্যে নামতে পারে, কিন্তু সবচেয়ে বড়টির ঘাত ঠিক ১।"),
        Step("যোগফল", " + ".join(fmt(e) for e in exps), fmt(total),
             "হরে অন্তত একটি ১ আছে, তাই এটি ১-এর কম হয় না আর শূন্য দিয়ে ভাগের ভয় নেই।"),
        Step("সম্ভাবনা", f"{fmt_vec(exps)} / {fmt(total)}", fmt_vec(probs),
             "এটিই আসল softmax, কোনো overflow ছাড়াই; যোগফল ১।"),
        Step("log-sum-exp", f"{fmt(big, s7)} + ln({fmt(total)})", fmt(lse, s7),
             "একই কৌশলে log Σ e^x পাওয়া যায়: বের করে রাখা m আবার যোগ করলেই হয়।"),
        Step("log-softmax", f"{fmt_vec(xs, s7)} − {_paren(lse, s7)}", fmt_vec(log_probs),
             "Cross-entropy-র জন্য দরকারি log-সম্ভাবনা সরাসরি পাওয়া গেল, ছোট সংখ্যার log নেওয়ার ঝুঁকি ছাড়া।"),
    ]
    values = {"max": big, "naive_exp_max": naive_value, "shifted": shifted, "exps": exps,
              "sum": total, "probs": probs, "logsumexp": lse, "log_probs": log_probs,
              "exp_limit_float64": _EXP_LIMIT_F64, "exp_limit_float16": _EXP_LIMIT_F16}
    return steps, values
