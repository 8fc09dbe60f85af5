"""Numerical stability: fp32 vs bf16 autocast on CPU, fp16 underflow and loss scaling.

1. The same small residual MLP trained in fp32 and under CPU bf16 autocast:
   time, loss curve, largest loss and logit differences.
2. Why fp16 needs loss scaling: the 30-layer plain tanh network of the vanishing-gradients lesson
   has tiny gradients in its early layers.  Running its backward pass in
   fp16 flushes them to zero; multiplying the loss by 2^16 first (what
   GradScaler does) keeps them, and dividing afterwards in fp32 recovers
   values close to the fp32 ones.
3. On CUDA (when present) fp16 autocast with torch.amp.GradScaler.
"""
from __future__ import annotations

import time

import torch
from torch import nn

from gpu_runs.data import bazarghar
from gpu_runs.models.mlp import DeepMLP
from gpu_runs.util import fnum, seed_everything

DEFAULT_SEEDS = [0]


def backends(ctx) -> dict:
    return {"autocast": "cuda fp16 + GradScaler" if ctx.device == "cuda" else "cpu bf16"}


def train(dtype, steps, data, cfg, seed, device="cpu", scaler=None):
    (x, y), (xv, yv) = data
    seed_everything(seed)
    model = DeepMLP(cfg["depth"], cfg["width"], "relu", "prenorm").to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(seed)
    losses = []
    t0 = time.perf_counter()
    for step in range(steps):
        idx = torch.randint(0, len(x), (cfg["batch"],), generator=gen)
        xb, yb = x[idx].to(device), y[idx].to(device)
        with torch.autocast(device_type=device, dtype=dtype or torch.float32, enabled=dtype is not None):
            loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.step()
        losses.append(fnum(loss))
    if device == "cuda":
        torch.cuda.synchronize()
    seconds = time.perf_counter() - t0
    model.eval()
    with torch.no_grad(), torch.autocast(device_type=device, dtype=dtype or torch.float32, enabled=dtype is not None):
        logits = model(xv.to(device)).float().cpu()
    acc = fnum((logits.argmax(1) == yv).float().mean())
    return losses, logits, acc, seconds


def underflow_rows(depth: int, width: int, batch: int, seed: int, data):
    """Weight-gradient norms of the plain tanh net: fp32, fp16 as is, fp16 with loss x 2^16."""
    (x, y), _ = data
    xb, yb = x[:batch], y[:batch]
    seed_everything(seed)
    ref = DeepMLP(depth, width, "tanh", "plain")
    results = {}
    for mode, scale in (("fp32", 1.0), ("fp16", 1.0), ("fp16_scaled", 2.0 ** 16)):
        m = DeepMLP(depth, width, "tanh", "plain")
        m.load_state_dict(ref.state_dict())
        xin = xb
        if mode != "fp32":
            m = m.half()
            xin = xb.half()
        loss = nn.functional.cross_entropy(m(xin).float(), yb) * scale
        loss.backward()
        grads = [blk.linear.weight.grad.float() / scale for blk in m.blocks]
        results[mode] = grads
    picks = sorted({1, 5, 10, 20, depth} & set(range(1, depth + 1)))
    rows = []
    for layer in picks:
        g32 = results["fp32"][layer - 1]
        row = {"layer": layer, "fp32": fnum(g32.norm())}
        for mode in ("fp16", "fp16_scaled"):
            g = results[mode][layer - 1]
            row[mode] = fnum(g.norm())
            row[f"{mode}_zero_share"] = fnum((g == 0).float().mean())
        rows.append(row)
    return rows


def run(ctx) -> None:
    cfg = dict(depth=8, width=256, lr=1e-3, batch=256, steps=300, seed=ctx.seeds[0])
    if ctx.quick:
        cfg.update(depth=2, width=32, steps=10)
    (x, y), (xv, yv) = bazarghar.split()
    data = ((torch.from_numpy(x), torch.from_numpy(y)), (torch.from_numpy(xv), torch.from_numpy(yv)))
    res = ctx.result
    res.config.update(cfg, model="pre-norm residual ReLU MLP", optimizer="AdamW", autocast_dtype_cpu="bfloat16")
    res.data.update(name="Bazarghar customer segments", generator="gpu_runs.data.bazarghar", data_seed=17)
    res.model("network", f"{cfg['depth']}-block pre-norm residual MLP, width {cfg['width']}",
              source="built by gpu_runs.models.mlp")
    runs = {}
    for label, dtype in ctx.track([("fp32", None), ("bf16 autocast", torch.bfloat16)], "mixed_precision cpu"):
        runs[label] = train(dtype, cfg["steps"], data, cfg, cfg["seed"])
    l32, lg32, acc32, s32 = runs["fp32"]
    l16, lg16, acc16, s16 = runs["bf16 autocast"]
    diffs = [abs(a - b) for a, b in zip(l32, l16)]
    rows = [{"run": "fp32", "seconds": s32, "final_loss": l32[-1], "val_acc": acc32, "max_loss_diff": 0.0,
             "max_logit_diff": 0.0},
            {"run": "bf16 autocast (CPU)", "seconds": s16, "final_loss": l16[-1], "val_acc": acc16,
             "max_loss_diff": max(diffs), "max_logit_diff": fnum((lg32 - lg16).abs().max())}]
    res.values.update(fp32_seconds=s32, bf16_seconds=s16, bf16_speedup=s32 / s16, fp32_final_loss=l32[-1],
                      bf16_final_loss=l16[-1], max_loss_diff=max(diffs), first_loss_diff=diffs[0],
                      max_logit_diff=rows[1]["max_logit_diff"], fp32_val_acc=acc32, bf16_val_acc=acc16)
    if ctx.device == "cuda":
        scaler = torch.amp.GradScaler("cuda")
        lc, lgc, accc, sc = train(torch.float16, cfg["steps"], data, cfg, cfg["seed"], device="cuda", scaler=scaler)
        rows.append({"run": "fp16 autocast + GradScaler (CUDA)", "seconds": sc, "final_loss": lc[-1],
                     "val_acc": accc, "max_loss_diff": max(abs(a - b) for a, b in zip(l32, lc)),
                     "max_logit_diff": fnum((lg32 - lgc).abs().max())})
        res.values.update(cuda_fp16_seconds=sc, cuda_fp16_final_loss=lc[-1], cuda_final_scale=fnum(scaler.get_scale()))
    else:
        res.variants_absent.append({"variant": "cuda fp16 + GradScaler",
                                    "reason": "no CUDA GPU was available to this run"})
    res.table("precision_table", "fp32 vs bf16 autocast, same seed and batches", [
        ("run", "Run", "run"),
        ("seconds", "সময় (s)", "seconds", ".2f"),
        ("final_loss", "শেষ loss", "final loss", ".4f"),
        ("val_acc", "validation accuracy", "val accuracy", ".3f"),
        ("max_loss_diff", "fp32-এর সঙ্গে loss-এর সর্বোচ্চ পার্থক্য", "max loss difference vs fp32", ".2e"),
        ("max_logit_diff", "logit-এর সর্বোচ্চ পার্থক্য", "max logit difference vs fp32", ".2e"),
    ], rows)
    res.add_series("loss_curves", "Training loss per step, fp32 vs bf16 autocast", list(range(1, cfg["steps"] + 1)),
                   {"fp32": l32, "bf16 autocast": l16}, x_label="step", y_label="loss")
    depth_u = 6 if ctx.quick else 30
    urows = underflow_rows(depth_u, 16 if ctx.quick else 64, 256, cfg["seed"], data)
    res.table("underflow_table", f"{depth_u}-layer plain tanh MLP: weight-gradient norm per layer", [
        ("layer", "স্তর", "layer"),
        ("fp32", "fp32", "fp32", ".2e"),
        ("fp16", "fp16, scaling ছাড়া", "fp16, no scaling", ".2e"),
        ("fp16_zero_share", "fp16-এ শূন্য ঘরের ভাগ", "share of zero entries, fp16", ".1%"),
        ("fp16_scaled", "fp16, loss × 2¹⁶", "fp16, loss x 2^16", ".2e"),
        ("fp16_scaled_zero_share", "scaling-সহ শূন্যের ভাগ", "share of zero entries, scaled", ".1%"),
    ], urows)
    res.values["underflow_layer1_fp16_zero_share"] = urows[0]["fp16_zero_share"]
    res.values["underflow_layer1_scaled_zero_share"] = urows[0]["fp16_scaled_zero_share"]
    res.values["underflow_layer1_fp32"] = urows[0]["fp32"]
    res.values["underflow_layer1_scaled"] = urows[0]["fp16_scaled"]
    res.values["fp16_smallest_subnormal"] = float(torch.finfo(torch.float16).smallest_normal) * 2.0 ** -10
    res.values["fp16_smallest_normal"] = float(torch.finfo(torch.float16).smallest_normal)
    res.values["bf16_smallest_normal"] = float(torch.finfo(torch.bfloat16).smallest_normal)
    res.notes.append("The underflow table runs the whole network in fp16 (model.half()) on CPU, "
                     "the situation GradScaler exists for.")
