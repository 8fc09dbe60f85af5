"""Training 40-layer plain, residual and pre-norm residual MLPs (lesson vanishing-gradients, section 6)."""
from __future__ import annotations

import math
import time

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
KINDS = [("plain", "plain"), ("residual", "residual"), ("prenorm residual", "prenorm")]
# the charts' legend in the lessons' terms (site/glossary.yml: plain, residual, pre-norm)
LEGEND_BN = {"prenorm residual": "pre-norm residual"}


def train_one(kind: str, depth: int, width: int, epochs: int, batch: int, lr: float, seed: int, data, ctx):
    (x, y), (xv, yv) = data
    seed_everything(seed)
    model = DeepMLP(depth, width, "relu", kind)
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    losses, accs = [], []
    layer1 = float("nan")
    t0 = time.perf_counter()
    for _ in ctx.track(range(epochs), f"train_deep {kind}"):
        model.train()
        order = torch.randperm(len(x), generator=gen)
        total, count = 0.0, 0
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += fnum(loss) * len(idx)
            count += len(idx)
        layer1 = fnum(model.blocks[0].linear.weight.grad.norm())   # of the epoch's last batch
        losses.append(total / count)
        model.eval()
        with torch.no_grad():
            accs.append(fnum((model(xv).argmax(1) == yv).float().mean()))
    seconds = time.perf_counter() - t0
    return losses, accs, layer1, seconds


def run(ctx) -> None:
    depth, width, epochs, batch, lr = (6, 16, 2, 128, 1e-3) if ctx.quick else (40, 64, 12, 128, 1e-3)
    seeds = list(ctx.seeds)
    (x, y), (xv, yv) = bazarghar.split()
    data = ((torch.from_numpy(x), torch.from_numpy(y)), (torch.from_numpy(xv), torch.from_numpy(yv)))
    res = ctx.result
    res.config.update(depth=depth, width=width, activation="relu", optimizer="AdamW", lr=lr, batch=batch,
                      epochs=epochs, seeds=seeds, init="PyTorch default",
                      aggregation="median and min-max range over seeds (seed sets the init and the batch order)")
    res.data.update(name="Bazarghar customer segments", generator="gpu_runs.data.bazarghar", data_seed=17,
                    train_rows=len(x), val_rows=len(xv), classes=3,
                    val_majority_share=float(torch.bincount(data[1][1]).max() / len(xv)))
    res.model("network", f"{depth}-layer ReLU MLP, width {width}", source="built by gpu_runs.models.mlp")
    ln3 = math.log(3)
    res.values["ln3"] = ln3
    res.values["n_seeds"] = len(seeds)
    loss_lines, acc_lines, loss_bands, acc_bands, final_rows, epoch_stats = {}, {}, {}, {}, [], {}
    for label, kind in KINDS:
        runs = [train_one(kind, depth, width, epochs, batch, lr, seed, data, ctx) for seed in seeds]
        per_epoch_loss = [median_range([r[0][e] for r in runs]) for e in range(epochs)]
        per_epoch_acc = [median_range([r[1][e] for r in runs]) for e in range(epochs)]
        line = (LEGEND_BN.get(label, label), label)
        loss_lines[line] = [m for m, _, _ in per_epoch_loss]
        loss_bands[line] = ([lo for _, lo, _ in per_epoch_loss], [hi for _, _, hi in per_epoch_loss])
        acc_lines[line] = [m for m, _, _ in per_epoch_acc]
        acc_bands[line] = ([lo for _, lo, _ in per_epoch_acc], [hi for _, _, hi in per_epoch_acc])
        epoch_stats[label] = per_epoch_loss
        row = {"model": LEGEND_BN.get(label, label)}
        stats = {"final_loss": [r[0][-1] for r in runs], "first_loss": [r[0][0] for r in runs],
                 "val_acc": [r[1][-1] for r in runs], "layer1_grad": [r[2] for r in runs],
                 "seconds": [r[3] for r in runs], "gap_to_ln3": [abs(r[0][-1] - ln3) for r in runs]}
        for name, vals in stats.items():
            med, lo, hi = median_range(vals)
            res.values[f"{kind}_{name}_median"] = med
            res.values[f"{kind}_{name}_min"] = lo
            res.values[f"{kind}_{name}_max"] = hi
            res.values[f"{kind}_{name}_per_seed"] = repr(vals)
            row.update({f"{name}_median": med, f"{name}_min": lo, f"{name}_max": hi})
        final_rows.append(row)
    epochs_x = list(range(1, epochs + 1))
    n = len(seeds)
    res.table("final_table", (f"{format_number(depth, bangla=True)}টি hidden স্তর, {format_number(epochs, bangla=True)} "
                             f"epoch পরে: {format_number(n, bangla=True)}টি seed-এর median আর পরিসর",
                             f"{depth} hidden layers after {epochs} epochs: median and range over {n} seeds"), [
        ("model", "model", "model"),
        ("final_loss_median", "শেষ training loss (median)", "final train loss (median)", ".4f"),
        ("final_loss_min", "সর্বনিম্ন", "min", ".4f"),
        ("final_loss_max", "সর্বোচ্চ", "max", ".4f"),
        ("val_acc_median", "validation-এ accuracy (median)", "val accuracy (median)", ".3f"),
        ("val_acc_min", "সর্বনিম্ন", "min", ".3f"),
        ("val_acc_max", "সর্বোচ্চ", "max", ".3f"),
        ("layer1_grad_median", "স্তর ১-এর gradient norm (শেষ batch, median)", "layer-1 grad norm (last batch, median)",
         ".3g"),
        ("seconds_median", "সময়ের median (সেকেন্ড)", "seconds (median)", ".1f"),
    ], final_rows)
    epoch_rows = [{"epoch": e, **{f"{lab}{suffix}": epoch_stats[lab][e - 1][i] for lab, _ in KINDS
                                  for i, suffix in ((0, ""), (1, " min"), (2, " max"))}} for e in epochs_x]
    res.table("epoch_table", (f"প্রতি epoch-এ training loss ({format_number(n, bangla=True)}টি seed-এর median, "
                             "সর্বনিম্ন আর সর্বোচ্চসহ)",
                             f"Train loss per epoch (median over {n} seeds, with min and max)"),
              [("epoch", "epoch", "epoch")] +
              [(f"{lab}{suffix}", f"{LEGEND_BN.get(lab, lab)}{suffix_bn}", f"{lab}{suffix}", ".4f") for lab, _ in KINDS
               for suffix, suffix_bn in (("", ""), (" min", " সর্বনিম্ন"), (" max", " সর্বোচ্চ"))], epoch_rows)
    seeds_bn = f"ছায়া: {format_number(n, bangla=True)}টি seed-এর সর্বনিম্ন থেকে সর্বোচ্চ"
    res.add_series("loss_curves", (f"প্রতি epoch-এ training loss, {format_number(depth, bangla=True)} স্তরের MLP "
                                   f"(median; {seeds_bn})",
                                   f"Train loss per epoch, {depth}-layer MLPs (median, band = min-max over {n} seeds)"),
                   epochs_x, loss_lines, x_label=("epoch নম্বর", "epoch"),
                   y_label=("training ডেটায় loss", "train loss"),
                   y_clip=1.6, bands=loss_bands)
    res.add_series("val_acc_curves", (f"প্রতি epoch-এ validation ডেটায় accuracy (median; {seeds_bn})",
                                      f"Validation accuracy per epoch (median, band = min-max over {n} seeds)"),
                   epochs_x, acc_lines, x_label=("epoch নম্বর", "epoch"),
                   y_label=("validation ডেটায় accuracy", "validation accuracy"), bands=acc_bands)
    res.notes.append(f"{n} seeds on CPU (the seed sets the initial weights and the batch order); tables and "
                     "curves show the median, the range shows the lowest and highest seed.")
