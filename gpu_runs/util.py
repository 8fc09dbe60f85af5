"""Small helpers shared by experiments (seeding, metrics, timing)."""
from __future__ import annotations

import io
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def fnum(x) -> float:
    """Plain Python float from a tensor or number; non-finite values kept."""
    return float(x.item() if hasattr(x, "item") else x)


def macro_f1(y_true, y_pred, n_classes: int) -> float:
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    scores = []
    for c in range(n_classes):
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        denom = 2 * tp + fp + fn
        scores.append(0.0 if denom == 0 else 2 * tp / denom)
    return float(np.mean(scores))


def mean_sd(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return float(values[0]), 0.0
    return float(statistics.mean(values)), float(statistics.stdev(values))


def state_dict_mib(model: torch.nn.Module) -> float:
    """Size of the serialised state_dict, the number a checkpoint on disk would have."""
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    return buf.getbuffer().nbytes / 2**20


MIN_REPEATS = 5   # full runs time every variant at least this often


@dataclass
class Timing:
    """Seconds per call of one timed variant, one entry per repeat."""

    runs: list[float]

    @property
    def median(self) -> float:
        return float(statistics.median(self.runs))

    @property
    def min(self) -> float:
        return float(min(self.runs))

    @property
    def max(self) -> float:
        return float(max(self.runs))

    @property
    def iqr(self) -> tuple[float, float]:
        if len(self.runs) < 2:
            return self.runs[0], self.runs[0]
        q = statistics.quantiles(self.runs, n=4, method="inclusive")
        return float(q[0]), float(q[2])

    def scaled(self, factor: float) -> Timing:
        return Timing([r * factor for r in self.runs])

    def fields(self, name: str, factor: float = 1.0) -> dict:
        """``{name: median, name_min, name_max, name_runs}`` (times multiplied by *factor*, e.g. 1000 for ms)."""
        t = self.scaled(factor)
        return {name: t.median, f"{name}_min": t.min, f"{name}_max": t.max,
                f"{name}_runs": repr([round(r, 6) for r in t.runs])}


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def time_interleaved(fns: dict[str, Callable[[], object]], *, repeats: int = MIN_REPEATS, warmup: int = 1,
                     device: str = "cpu", per_call: float = 1.0) -> dict[str, Timing]:
    """Time several variants fairly; the one timing helper of gpu_runs.

    Every function is first called *warmup* times untimed.  Then *repeats*
    rounds follow; each round calls every function once, in an order rotated
    by one place per round (A B, B A, A B ... for two variants), so slow
    phases of a shared machine hit all variants alike.  On CUDA the device is
    synchronised before the clock starts and before it stops.  Returns
    seconds per call divided by *per_call* (e.g. the number of examples a
    call processes), one value per round, as a :class:`Timing` per name.
    """
    names = list(fns)
    for _ in range(warmup):
        for name in names:
            fns[name]()
    _sync(device)
    runs: dict[str, list[float]] = {n: [] for n in names}
    for r in range(repeats):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            _sync(device)
            t0 = time.perf_counter()
            fns[name]()
            _sync(device)
            runs[name].append((time.perf_counter() - t0) / per_call)
    return {n: Timing(v) for n, v in runs.items()}


def faster(a: Timing, b: Timing) -> bool | str:
    """Is *a* faster than *b*?  True / False when their min-max ranges do not
    overlap, ``"about_equal"`` when they do (the difference is within the noise)."""
    if a.max < b.min:
        return True
    if a.min > b.max:
        return False
    return "about_equal"


def median_range(values: list[float]) -> tuple[float, float, float]:
    """(median, min, max) over seeds.  A non-finite value (a diverged run) ranks
    above every finite one, so it can become the median or the max."""
    def rank(v):
        return (0, v) if math.isfinite(v) else (1, 0.0)
    vals = sorted((float(v) for v in values), key=rank)
    n = len(vals)
    if n % 2:
        mid = vals[n // 2]
    else:
        lo, hi = vals[n // 2 - 1], vals[n // 2]
        mid = (lo + hi) / 2 if math.isfinite(lo) and math.isfinite(hi) else hi
    return mid, vals[0], vals[-1]


def ln(x: float) -> float:
    return math.log(x)


# A variant's status as a table shows it; the values (and the pages' claims on them) keep the English.
STATUS_BN = {"ok": "চলেছে", "unavailable": "পাওয়া যায়নি", "failed": "ব্যর্থ",
             "failed at inference": "inference-এ ব্যর্থ",
             "no-op: weights left in fp32": "কিছুই বদলায়নি: weight fp32-এই"}
# faster()'s third answer as a table shows it (true/false are written in words by the page)
FASTER_BN = {"about_equal": "প্রায় সমান"}


def timing_columns(fmt: str = ".2f") -> list[tuple]:
    """A timing table's batch-1 and full-test columns: median, min and max of each."""
    return [
        ("batch1_ms", "batch ১-এ সময়ের median (ms)", "batch 1 (ms, median)", fmt),
        ("batch1_ms_min", "batch ১-এ সর্বনিম্ন", "batch 1 min", fmt),
        ("batch1_ms_max", "batch ১-এ সর্বোচ্চ", "batch 1 max", fmt),
        ("full_test_s", "পুরো test-এ সময়ের median (সেকেন্ড)", "full test (s, median)", fmt),
        ("full_test_s_min", "পুরো test-এ সর্বনিম্ন", "full test min", fmt),
        ("full_test_s_max", "পুরো test-এ সর্বোচ্চ", "full test max", fmt),
    ]
