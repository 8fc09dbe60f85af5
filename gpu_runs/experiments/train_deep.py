"""Training 40-layer plain, residual and pre-norm residual MLPs (lesson vanishing-gradients, section 6)."""
from __future__ import annotations

import math
import time

import torch
from torch import nn

from gpu_runs.data import bazarghar
from gpu_runs.models.mlp import DeepMLP
from gpu_runs.util import fnum, seed_everything

DEFAULT_SEEDS = [0]
# 64-wide layers are too small to gain from a second thread; on a shared
# 2-core machine a second thread made this run several times slower.
THREADS = 1
KINDS = [("plain", "plain"), ("residual", "residual"), ("prenorm residual", "prenorm")]


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
            layer1 = fnum(model.blocks[0].linear.weight.grad.norm())
            opt.step()
            total += fnum(loss) * len(idx)
            count += len(idx)
        losses.append(total / count)
        model.eval()
        with torch.no_grad():
            accs.append(fnum((model(xv).argmax(1) == yv).float().mean()))
    seconds = time.perf_counter() - t0
    return losses, accs, layer1, seconds


def run(ctx) -> None:
    depth, width, epochs, batch, lr = (6, 16, 2, 128, 1e-3) if ctx.quick else (40, 64, 12, 128, 1e-3)
    seed = ctx.seeds[0]
    (x, y), (xv, yv) = bazarghar.split()
    data = ((torch.from_numpy(x), torch.from_numpy(y)), (torch.from_numpy(xv), torch.from_numpy(yv)))
    res = ctx.result
    res.config.update(depth=depth, width=width, activation="relu", optimizer="AdamW", lr=lr, batch=batch,
                      epochs=epochs, seed=seed, init="PyTorch default")
    res.data.update(name="Bazarghar customer segments", generator="gpu_runs.data.bazarghar", data_seed=17,
                    train_rows=len(x), val_rows=len(xv), classes=3,
                    val_majority_share=float(torch.bincount(data[1][1]).max() / len(xv)))
    res.model("network", f"{depth}-layer ReLU MLP, width {width}", source="built by gpu_runs.models.mlp")
    ln3 = math.log(3)
    res.values["ln3"] = ln3
    loss_lines, acc_lines, final_rows = {}, {}, []
    for label, kind in KINDS:
        losses, accs, layer1, seconds = train_one(kind, depth, width, epochs, batch, lr, seed, data, ctx)
        loss_lines[label] = losses
        acc_lines[label] = accs
        key = kind
        res.values[f"{key}_final_loss"] = losses[-1]
        res.values[f"{key}_first_loss"] = losses[0]
        res.values[f"{key}_val_acc"] = accs[-1]
        res.values[f"{key}_layer1_grad"] = layer1
        res.values[f"{key}_seconds"] = seconds
        res.values[f"{key}_gap_to_ln3"] = abs(losses[-1] - ln3)
        final_rows.append({"model": label, "final_loss": losses[-1], "val_acc": accs[-1],
                           "layer1_grad": layer1, "seconds": seconds})
    epochs_x = list(range(1, epochs + 1))
    res.table("final_table", f"{depth} hidden layers after {epochs} epochs", [
        ("model", "মডেল", "model"),
        ("final_loss", "শেষ train loss", "final train loss", ".4f"),
        ("val_acc", "validation accuracy", "val accuracy", ".3f"),
        ("layer1_grad", "স্তর ১-এর gradient norm (শেষ batch)", "layer-1 grad norm (last batch)", ".1e"),
        ("seconds", "সময় (সেকেন্ড)", "seconds", ".1f"),
    ], final_rows)
    epoch_rows = [{"epoch": e, **{lab: loss_lines[lab][e - 1] for lab, _ in KINDS}} for e in epochs_x]
    res.table("epoch_table", "Train loss per epoch", [("epoch", "epoch", "epoch")] +
              [(lab, lab, lab, ".4f") for lab, _ in KINDS], epoch_rows)
    res.add_series("loss_curves", f"Train loss per epoch, {depth}-layer MLPs", epochs_x, loss_lines,
                   x_label="epoch", y_label="train loss", y_clip=1.6)
    res.add_series("val_acc_curves", "Validation accuracy per epoch", epochs_x, acc_lines,
                   x_label="epoch", y_label="validation accuracy")
    res.notes.append("One seed, one run on CPU; the shape of the result matters more than the digits.")
