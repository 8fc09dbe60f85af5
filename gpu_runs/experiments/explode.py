"""An exploding 16-layer ReLU MLP, with and without clipping (lesson vanishing-gradients, section 7)."""
from __future__ import annotations

import math

import torch
from torch import nn

from gpu_runs.data import bazarghar
from gpu_runs.models.mlp import DeepMLP
from gpu_runs.util import fnum, median_range, seed_everything
from py_lessons.runtime.numbers import format_number

DEFAULT_SEEDS = [0, 1, 2]   # tables give the median and the min-max range over seeds
# 64-wide layers are too small to gain from a second thread; on a shared
# 2-core machine a second thread made this run several times slower.
THREADS = 1
MODES = [("no clip", "none"), ("clip_grad_value_ 0.01", "value"), ("clip_grad_norm_ 1.0", "norm")]
# the table's and the chart's words in Bangla (the clip functions' names stay); the chart draws its
# text as stored, so its numbers are written in Bangla digits here (a table's come from the page)
ROW_BN = {"no clip": "clip নেই"}
LEGEND_BN = ROW_BN | {"clip_grad_value_ 0.01": "clip_grad_value_ ০.০১", "clip_grad_norm_ 1.0": "clip_grad_norm_ ১.০"}
REPORT_STEPS = [1, 2, 3, 4, 10, 50, 100, 200, 300]


def build(depth: int, width: int, gain: float, seed: int) -> DeepMLP:
    seed_everything(seed)
    model = DeepMLP(depth, width, "relu", "plain")
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.Linear):
                std = gain * math.sqrt(2.0 / m.in_features)   # He init, scaled up on purpose
                m.weight.normal_(0.0, std)
                m.bias.zero_()
    return model


def run_mode(mode: str, cfg: dict, x, y, ctx, seed: int):
    model = build(cfg["depth"], cfg["width"], cfg["gain"], seed)
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(seed)
    losses, norms = [], []
    flushed = False
    order = torch.randperm(len(x), generator=gen)
    pos = 0
    for _ in ctx.track(range(cfg["steps"]), f"explode {mode} seed {seed}"):
        if pos + cfg["batch"] > len(x):
            order, pos = torch.randperm(len(x), generator=gen), 0
        idx = order[pos:pos + cfg["batch"]]
        pos += cfg["batch"]
        loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        if mode == "norm":
            total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=cfg["max_norm"])
        else:  # measure the norm only: max_norm=inf never rescales
            total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=math.inf)
            if mode == "value":
                nn.utils.clip_grad_value_(model.parameters(), clip_value=cfg["clip_value"])
        opt.step()
        losses.append(fnum(loss))
        norms.append(fnum(total))
        if not math.isfinite(losses[-1]) and not flushed:
            # Once the loss is NaN every later step is NaN too; the subnormal
            # values met on the way make CPU kernels ~20x slower, so flush them.
            flushed = torch.set_flush_denormal(True)
    torch.set_flush_denormal(False)
    return model, losses, norms


def _first_nonfinite(losses: list[float]) -> int | None:
    return next((i + 1 for i, v in enumerate(losses) if not math.isfinite(v)), None)


def run(ctx) -> None:
    cfg = dict(depth=16, width=64, gain=1.6, lr=0.05, batch=128, steps=300, max_norm=1.0, clip_value=0.01,
               seeds=list(ctx.seeds))
    if ctx.quick:
        cfg.update(steps=12)     # same network, so the unclipped run still blows up early
    (x, y), _ = bazarghar.split()
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    res = ctx.result
    res.config.update(cfg, optimizer="SGD", init="He normal x gain",
                      aggregation="median and min-max range over seeds (seed sets the init and the batch order); "
                                  "a non-finite value ranks above every finite one")
    res.data.update(name="Bazarghar customer segments", generator="gpu_runs.data.bazarghar", data_seed=17,
                    train_rows=len(x))
    n_params = sum(p.numel() for p in build(cfg["depth"], cfg["width"], cfg["gain"], 0).parameters())
    res.model("network", f"{cfg['depth']}-layer ReLU MLP, width {cfg['width']}", parameters=n_params,
              source="built by gpu_runs.models.mlp")
    steps = [s for s in REPORT_STEPS if s <= cfg["steps"]]
    seeds = cfg["seeds"]
    res.values["n_seeds"] = len(seeds)
    results = {}   # mode -> list over seeds of (losses, norms)
    summary_rows = []
    for label, mode in MODES:
        runs = [run_mode(mode, cfg, x, y, ctx, seed)[1:] for seed in seeds]
        results[mode] = runs
        row = {"mode": ROW_BN.get(label, label)}
        for name, vals in (("final_loss", [r[0][-1] for r in runs]), ("first_norm", [r[1][0] for r in runs]),
                           ("final_norm", [r[1][-1] for r in runs])):
            med, lo, hi = median_range(vals)
            res.values.update({f"{mode}_{name}_median": med, f"{mode}_{name}_min": lo, f"{mode}_{name}_max": hi,
                               f"{mode}_{name}_per_seed": repr(vals)})
            row.update({f"{name}_median": med, f"{name}_min": lo, f"{name}_max": hi})
        bad = [_first_nonfinite(r[0]) for r in runs]
        finite_bad = [b for b in bad if b is not None]
        res.values[f"{mode}_first_nonfinite_step_per_seed"] = repr(bad)
        res.values[f"{mode}_diverged_seeds"] = len(finite_bad)
        res.values[f"{mode}_first_nonfinite_step_min"] = min(finite_bad) if finite_bad else None
        res.values[f"{mode}_first_nonfinite_step_max"] = max(finite_bad) if finite_bad else None
        row["diverged_seeds"] = len(finite_bad)
        row["first_nonfinite_steps"] = ", ".join("—" if b is None else str(b) for b in bad)
        summary_rows.append(row)
    n = len(seeds)
    res.table("summary_table", (f"{format_number(cfg['steps'], bangla=True)} ধাপ পরে: "
                               f"{format_number(n, bangla=True)}টি seed-এর median আর পরিসর",
                               f"After {cfg['steps']} steps: median and range over {n} seeds"), [
        ("mode", "clipping", "clipping"),
        ("final_loss_median", "শেষ loss (median)", "final loss (median)", ".4g"),
        ("final_loss_min", "সর্বনিম্ন", "min", ".4g"),
        ("final_loss_max", "সর্বোচ্চ", "max", ".4g"),
        ("final_norm_median", "শেষ norm (median)", "final norm (median)", ".4g"),
        ("final_norm_min", "সর্বনিম্ন", "min", ".4g"),
        ("final_norm_max", "সর্বোচ্চ", "max", ".4g"),
        ("diverged_seeds", "NaN/inf হওয়া seed", "seeds that went non-finite"),
        ("first_nonfinite_steps", "প্রথম NaN/inf ধাপ (প্রতি seed)", "first non-finite step per seed"),
    ], summary_rows)
    rows = []
    for s in steps:
        row = {"step": s}
        for _, mode in MODES:
            for i, what in ((0, "loss"), (1, "norm")):
                med, lo, hi = median_range([r[i][s - 1] for r in results[mode]])
                row.update({f"{mode}_{what}": med, f"{mode}_{what}_min": lo, f"{mode}_{what}_max": hi})
        rows.append(row)
    res.table("steps_table", ("বাছাই করা ধাপে loss আর clip-এর আগের মোট gradient norm "
                             f"({format_number(n, bangla=True)}টি seed-এর median; সর্বনিম্ন আর সর্বোচ্চ run-এর ফাইলে আছে)",
                             f"Loss and pre-clip total gradient norm at selected steps (median over {n} seeds; "
                             "each row also holds _min and _max)"), [
        ("step", "ধাপ", "step"),
        ("none_loss", "clip নেই: loss", "no clip: loss", ".4g"),
        ("none_norm", "clip নেই: norm", "no clip: norm", ".4g"),
        ("value_loss", "value 0.01: loss", "value 0.01: loss", ".4g"),
        ("value_norm", "value 0.01: norm", "value 0.01: norm", ".4g"),
        ("norm_loss", "norm 1.0: loss", "norm 1.0: loss", ".4g"),
        ("norm_norm", "norm 1.0: ছাঁটার আগের norm", "norm 1.0: pre-clip norm", ".4g"),
    ], rows)
    xs = list(range(1, cfg["steps"] + 1))
    lines, bands = {}, {}
    for label, mode in MODES:
        per_step = [median_range([r[0][i] for r in results[mode]]) for i in range(cfg["steps"])]
        line = (LEGEND_BN.get(label, label), label)
        lines[line] = [m for m, _, _ in per_step]
        bands[line] = ([lo for _, lo, _ in per_step], [hi for _, _, hi in per_step])
    res.add_series("loss_curves", (f"প্রতি ধাপে training loss (median; ছায়া: {format_number(n, bangla=True)}টি "
                                   "seed-এর সর্বনিম্ন থেকে সর্বোচ্চ)",
                                   f"Training loss per step (median, band = min-max over {n} seeds)"), xs, lines,
                   x_label=("ধাপ", "step"), y_label=("loss (log স্কেল)", "loss (log scale)"), log_y=True, bands=bands)
    max_value_norm = cfg["clip_value"] * math.sqrt(n_params)
    res.values["n_params"] = n_params
    res.values["value_clip_max_norm"] = max_value_norm
    res.notes.append("The total norm is clip_grad_norm_'s return value: the norm before clipping.")
    res.notes.append("With value clipping every entry is at most 0.01, so the clipped norm is at most "
                     "0.01 * sqrt(parameter count).")
    res.notes.append(f"{n} seeds (the seed sets the initial weights and the batch order).  Medians rank a "
                     "non-finite value above every finite one, so a median is NaN when most seeds diverged.")
