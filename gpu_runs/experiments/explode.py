"""An exploding 16-layer ReLU MLP, with and without clipping (lesson vanishing-gradients, section 7)."""
from __future__ import annotations

import math

import torch
from torch import nn

from gpu_runs.data import bazarghar
from gpu_runs.models.mlp import DeepMLP
from gpu_runs.util import fnum, seed_everything

DEFAULT_SEEDS = [0]
# 64-wide layers are too small to gain from a second thread; on a shared
# 2-core machine a second thread made this run several times slower.
THREADS = 1
MODES = [("no clip", "none"), ("clip_grad_value_ 0.01", "value"), ("clip_grad_norm_ 1.0", "norm")]
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


def run_mode(mode: str, cfg: dict, x, y, ctx):
    model = build(cfg["depth"], cfg["width"], cfg["gain"], cfg["seed"])
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    losses, norms = [], []
    flushed = False
    order = torch.randperm(len(x), generator=gen)
    pos = 0
    for _ in ctx.track(range(cfg["steps"]), f"explode {mode}"):
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


def run(ctx) -> None:
    cfg = dict(depth=16, width=64, gain=1.6, lr=0.05, batch=128, steps=300, max_norm=1.0, clip_value=0.01,
               seed=ctx.seeds[0])
    if ctx.quick:
        cfg.update(steps=12)     # same network, so the unclipped run still blows up at step 3
    (x, y), _ = bazarghar.split()
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    res = ctx.result
    res.config.update(cfg, optimizer="SGD", init="He normal x gain")
    res.data.update(name="Bazarghar customer segments", generator="gpu_runs.data.bazarghar", data_seed=17,
                    train_rows=len(x))
    n_params = sum(p.numel() for p in build(cfg["depth"], cfg["width"], cfg["gain"], 0).parameters())
    res.model("network", f"{cfg['depth']}-layer ReLU MLP, width {cfg['width']}", parameters=n_params,
              source="built by gpu_runs.models.mlp")
    steps = [s for s in REPORT_STEPS if s <= cfg["steps"]]
    results = {}
    for label, mode in MODES:
        _, losses, norms = run_mode(mode, cfg, x, y, ctx)
        results[mode] = (losses, norms)
        res.values[f"{mode}_final_loss"] = losses[-1]
        res.values[f"{mode}_first_norm"] = norms[0]
        res.values[f"{mode}_final_norm"] = norms[-1]
        first_bad = next((i + 1 for i, v in enumerate(losses) if not math.isfinite(v)), None)
        res.values[f"{mode}_first_nonfinite_step"] = first_bad
    rows = []
    for s in steps:
        row = {"step": s}
        for _, mode in MODES:
            row[f"{mode}_loss"] = results[mode][0][s - 1]
            row[f"{mode}_norm"] = results[mode][1][s - 1]
        rows.append(row)
    res.table("steps_table", "Loss and pre-clip total gradient norm at selected steps", [
        ("step", "ধাপ", "step"),
        ("none_loss", "clip নেই: loss", "no clip: loss", ".4g"),
        ("none_norm", "clip নেই: norm", "no clip: norm", ".3g"),
        ("value_loss", "value 0.01: loss", "value 0.01: loss", ".4g"),
        ("value_norm", "value 0.01: norm", "value 0.01: norm", ".3g"),
        ("norm_loss", "norm 1.0: loss", "norm 1.0: loss", ".4g"),
        ("norm_norm", "norm 1.0: ছাঁটার আগের norm", "norm 1.0: pre-clip norm", ".3g"),
    ], rows)
    xs = list(range(1, cfg["steps"] + 1))
    res.add_series("loss_curves", "Training loss per step", xs,
                   {label: results[mode][0] for label, mode in MODES}, x_label="step", y_label="loss (log scale)",
                   log_y=True)
    max_value_norm = cfg["clip_value"] * math.sqrt(n_params)
    res.values["n_params"] = n_params
    res.values["value_clip_max_norm"] = max_value_norm
    res.notes.append("The total norm is clip_grad_norm_'s return value: the norm before clipping.")
    res.notes.append("With value clipping every entry is at most 0.01, so the clipped norm is at most "
                     "0.01 * sqrt(parameter count).")
