"""Small helpers shared by experiments (seeding, metrics, timing)."""
from __future__ import annotations

import io
import math
import random
import statistics
import time

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


def median_time(fn, repeats: int, warmup: int = 1) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def ln(x: float) -> float:
    return math.log(x)
