"""Numbers as readers see them: the one formatter for steppers, value macros and run tables.

    format_number(3590000.0, ".3g", bangla=True, prose=True)  -> "৩.৫৯ × ১০⁶"
    format_number(70003770, ",", bangla=True)                 -> "৭,০০,০৩,৭৭০"  (Indian grouping)
    format_number(-0.5)                                        -> "−0.5"          (typographic minus)
    format_number(0.00048612, sig=4)                           -> "0.0004861"     (significant digits)
    format_number(2.785e-7, sig=4, bangla=True, prose=True)    -> "২.৭৮৫ × ১০⁻⁷"
    format_number(float("nan"))                                -> "NaN"

Standard library only: it runs at build time and inside the reader's Pyodide.
"""

from __future__ import annotations

import math
import re

BN_DIGITS = "০১২৩৪৫৬৭৮৯"
MINUS = "\u2212"
_TO_BANGLA = str.maketrans("0123456789", BN_DIGITS)
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_EXPONENT = re.compile(r"(?P<mantissa>\d(?:\.\d+)?)e(?P<exp>[+-]?\d+)")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")


def bn_digits(text) -> str:
    """ASCII digits written as Bangla digits; everything else unchanged."""
    return str(text).translate(_TO_BANGLA)


# a number standing in text ("T = 2", "20%", "8-bit", "0.5"), not part of a name (fp16, int8(), x2)
_NUMBER_IN_TEXT = re.compile(r"(?<![A-Za-z_0-9.])[0-9]+(?:\.[0-9]+)?(?![A-Za-z_0-9])")


def bangla_numbers(text) -> str:
    """The numbers in ``text`` in Bangla digits; the digits of a name (fp16, int8, W8A8) stay Latin."""
    return _NUMBER_IN_TEXT.sub(lambda match: bn_digits(match.group(0)), str(text))


def group_indian(digits: str) -> str:
    """'70003770' -> '7,00,03,770': the last three digits, then groups of two (lakh, crore)."""
    if len(digits) <= 3:
        return digits
    head, tail = digits[:-3], digits[-3:]
    pairs = []
    while len(head) > 2:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    return ",".join([head, *pairs, tail])


def _regroup(match: re.Match) -> str:
    return group_indian(match.group(0).replace(",", ""))


def _scientific(match: re.Match) -> str:
    if not match["mantissa"].strip("0."):  # zero is zero at every power: "0.0e+00" -> "0.0", not "0.0 × 10⁰"
        return match["mantissa"]
    exponent = int(match["exp"])
    return f"{match['mantissa']} × 10{str(exponent).translate(_SUPERSCRIPT)}"


def powers_of_ten(text: str) -> str:
    """E-notation in ``text`` written as a power of ten: "1e6" -> "1 × 10⁶", "2.5e−03" -> "2.5 × 10⁻³"."""
    return _EXPONENT.sub(_scientific, text.replace(MINUS, "-"))


def _significant(x: float, sig: int) -> str:
    """Plain decimals for everyday sizes (1e-4 <= |x| < 1e6), else ``4.861e-4``; no trailing zeros."""
    if x == 0:
        return "0"
    if 1e-4 <= abs(x) < 1e6:
        decimals = max(sig - 1 - math.floor(math.log10(abs(x))), 0)
        text = f"{x:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text in ("-0", "0") else text
    mantissa, exponent = f"{x:.{max(sig - 1, 0)}e}".split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def format_number(value, spec: str = "", *, sig: int | None = None, bangla: bool = False,
                  prose: bool = False) -> str:
    """One number for a reader.

    ``spec`` is Python's format spec (``.3g``, ``.2f``, ``,`` …; default ``.4g`` for floats);
    a ``,`` groups the Indian way. ``sig`` instead gives that many significant digits with no
    trailing zeros (the worked calculations' style). ``bangla`` writes Bangla digits, and powers of
    ten as ``৩.৫৯ × ১০⁶`` (a Bangla reader never sees e-notation); ``prose`` writes them so in
    Latin digits too, instead of ``3.59e+06``. Non-numbers are returned as text unchanged.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if value == 0:
        value = abs(value)  # −0.0 (a product that underflowed from below) reads as zero
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else f"{MINUS}∞"
    if sig is not None:
        text = _significant(float(value), sig)
    elif spec:
        text = format(value, spec)
    else:
        text = f"{value:.4g}" if isinstance(value, float) else str(value)
    if "," in spec:
        text = _GROUPED.sub(_regroup, text)
    if prose or bangla:
        text = _EXPONENT.sub(_scientific, text)
    text = text.replace("-", MINUS)
    return bn_digits(text) if bangla else text
