"""Numerical stability: fp32 vs bf16 vs fp16 autocast on one device, fp16 underflow and loss scaling.

1. The same pre-norm residual MLP trained three ways on the run's device:
   fp32, bf16 autocast, and fp16 autocast with torch.amp.GradScaler.  Same
   seed, same batches; time per step, loss curves, largest loss and logit
   differences.  The sizes depend on the device (recorded in config): on a
   GPU the layers are wide enough for tensor cores to matter; on a CPU they
   stay small enough for one thread.  A run never mixes devices in a table.
   The three trainings advance in interleaved chunks of steps, each chunk
   timed, so machine load hits all three alike.
2. Why fp16 needs loss scaling: the 30-layer plain tanh network of the vanishing-gradients lesson
   has tiny gradients in its early layers.  Running its backward pass in
   fp16 flushes them to zero; multiplying the loss by 2^16 first (what
   GradScaler does) keeps them, and dividing afterwards in fp32 recovers
   values close to the fp32 ones.  (On CPU, whatever the run's device.)
"""
from __future__ import annotations

import torch
from torch import nn

from gpu_runs.data import bazarghar
from gpu_runs.models.mlp import DeepMLP
from gpu_runs.util import MIN_REPEATS, faster, fnum, seed_everything, time_interleaved
from py_lessons.runtime.numbers import format_number

DEFAULT_SEEDS = [0]
# per device: CPU sized for about a minute on one thread without bf16/fp16 hardware;
# CUDA wide enough that tensor-core matmuls dominate the step
SIZES = {"cpu": dict(depth=8, width=128, batch=256, steps=300, chunks=10),
         "cuda": dict(depth=8, width=4096, batch=2048, steps=300, chunks=10)}
QUICK = dict(depth=2, width=32, batch=64, steps=10, chunks=2)
VARIANTS = [  # key, label, autocast dtype (None = off), GradScaler
    ("fp32", "fp32", None, False),
    ("bf16", "bf16 autocast", torch.bfloat16, False),
    ("fp16", "fp16 autocast + GradScaler", torch.float16, True),
]


def backends(ctx) -> dict:
    return {"autocast": f"{ctx.device}: fp32 / bf16 / fp16 + GradScaler"}


class Trainer:
    """One training run that can advance a few steps at a time (so runs can be interleaved)."""

    def __init__(self, dtype, use_scaler: bool, data, cfg: dict, seed: int, device: str) -> None:
        (x, y), _ = data
        self.x, self.y = x.to(device), y.to(device)
        self.dtype, self.device, self.cfg = dtype, device, cfg
        seed_everything(seed)
        self.model = DeepMLP(cfg["depth"], cfg["width"], "relu", "prenorm").to(device)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=cfg["lr"])
        self.scaler = torch.amp.GradScaler(device) if use_scaler else None
        self.gen = torch.Generator().manual_seed(seed)
        self.losses: list[torch.Tensor] = []   # kept on the device: no sync inside the timed steps
        self.scales: list[float] = []

    def steps(self, n: int) -> None:
        for _ in range(n):
            idx = torch.randint(0, len(self.x), (self.cfg["batch"],), generator=self.gen).to(self.device)
            xb, yb = self.x[idx], self.y[idx]
            with torch.autocast(device_type=self.device, dtype=self.dtype or torch.float32,
                                enabled=self.dtype is not None):
                loss = nn.functional.cross_entropy(self.model(xb), yb)
            self.opt.zero_grad()
            if self.scaler is not None:
                self.scaler.scale(loss).backward()
                self.scaler.step(self.opt)
                self.scaler.update()
            else:
                loss.backward()
                self.opt.step()
            self.losses.append(loss.detach())

    def loss_list(self) -> list[float]:
        return [fnum(v) for v in torch.stack(self.losses).float().cpu()]

    def val_logits(self, xv) -> torch.Tensor:
        self.model.eval()
        with torch.no_grad(), torch.autocast(device_type=self.device, dtype=self.dtype or torch.float32,
                                             enabled=self.dtype is not None):
            return self.model(xv.to(self.device)).float().cpu()


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
    dev = ctx.device
    cfg = dict(SIZES[dev] if not ctx.quick else QUICK, lr=1e-3, seed=ctx.seeds[0])
    (x, y), (xv, yv) = bazarghar.split()
    data = ((torch.from_numpy(x), torch.from_numpy(y)), (torch.from_numpy(xv), torch.from_numpy(yv)))
    res = ctx.result
    chunk = cfg["steps"] // cfg["chunks"]
    assert ctx.quick or cfg["chunks"] >= MIN_REPEATS
    res.config.update(cfg, device=dev, sizes_by_device=SIZES, model="pre-norm residual ReLU MLP",
                      optimizer="AdamW", variants=[v[1] for v in VARIANTS], steps_per_timed_chunk=chunk,
                      timing="gpu_runs.util.time_interleaved: 3 warm-up steps per variant on throw-away models, "
                             "then the three trainings advance in interleaved chunks (order rotated each "
                             "round); median, min and max over chunks of the time per step",
                      matmul_allow_tf32=bool(torch.backends.cuda.matmul.allow_tf32) if dev == "cuda" else None)
    res.data.update(name="Bazarghar customer segments", generator="gpu_runs.data.bazarghar", data_seed=17)
    res.model("network", f"{cfg['depth']}-block pre-norm residual MLP, width {cfg['width']}",
              source="built by gpu_runs.models.mlp")
    for _, _, dtype, sc in VARIANTS:   # warm-up: kernels, allocator, autocast caches
        Trainer(dtype, sc, data, cfg, cfg["seed"], dev).steps(3)
    trainers = {key: Trainer(dtype, sc, data, cfg, cfg["seed"], dev) for key, _, dtype, sc in VARIANTS}
    times = time_interleaved({k: (lambda t=t: t.steps(chunk)) for k, t in trainers.items()},
                             repeats=cfg["chunks"], warmup=0, device=dev, per_call=chunk)
    losses = {k: t.loss_list() for k, t in trainers.items()}
    logits = {k: t.val_logits(data[1][0]) for k, t in trainers.items()}
    ref_l, ref_lg = losses["fp32"], logits["fp32"]
    rows, lines = [], {}
    for key, label, _, _ in VARIANTS:
        ls, lg = losses[key], logits[key]
        diffs = [abs(a - b) for a, b in zip(ref_l, ls)]
        acc = fnum((lg.argmax(1) == data[1][1]).float().mean())
        tf = times[key].fields("step_ms", 1000)
        row = {"run": label, **{c: v for c, v in tf.items() if not c.endswith("_runs")}, "final_loss": ls[-1],
               "val_acc": acc, "max_loss_diff": max(diffs), "max_logit_diff": fnum((ref_lg - lg).abs().max())}
        rows.append(row)
        lines[(label, label)] = ls    # the variants' names are code: the same in both languages
        for c, v in tf.items():
            res.values[f"{key}_{c}"] = v
        res.values[f"{key}_final_loss"] = ls[-1]
        res.values[f"{key}_val_acc"] = acc
        if key != "fp32":
            res.values[f"{key}_speedup"] = times["fp32"].median / times[key].median
            res.values[f"faster_{key}_than_fp32"] = faster(times[key], times["fp32"])
            res.values[f"{key}_max_loss_diff"] = row["max_loss_diff"]
            res.values[f"{key}_first_loss_diff"] = diffs[0]
            res.values[f"{key}_max_logit_diff"] = row["max_logit_diff"]
    res.values["faster_fp16_than_bf16"] = faster(times["fp16"], times["bf16"])
    # the bf16-vs-fp32 numbers under their first names
    res.values.update(max_loss_diff=res.values["bf16_max_loss_diff"],
                      first_loss_diff=res.values["bf16_first_loss_diff"],
                      max_logit_diff=res.values["bf16_max_logit_diff"])
    scaler = trainers["fp16"].scaler
    res.values["fp16_final_scale"] = fnum(scaler.get_scale())
    if dev == "cpu":
        res.variants_absent.append({"variant": "cuda: fp32 / bf16 / fp16 + GradScaler on a GPU",
                                    "reason": "no CUDA GPU was available to this run"})
    where = "CUDA" if dev == "cuda" else "CPU"
    res.table("precision_table", (f"{where}-তে fp32 বনাম bf16 বনাম fp16 + GradScaler, একই seed আর batch",
                                 f"fp32 vs bf16 vs fp16 + GradScaler on {where}, same seed and batches"), [
        ("run", "run", "run"),
        ("step_ms", "প্রতি ধাপে সময়ের median (ms)", "ms per step (median)", ".2f"),
        ("step_ms_min", "সর্বনিম্ন", "min", ".2f"),
        ("step_ms_max", "সর্বোচ্চ", "max", ".2f"),
        ("final_loss", "শেষ loss", "final loss", ".4f"),
        ("val_acc", "validation-এ accuracy", "val accuracy", ".3f"),
        # ".3g": plain between 0.0001 and 1000 ("৬.০৮", not "৬.০৮ × ১০⁰"), powers of ten beyond
        ("max_loss_diff", "fp32-এর সঙ্গে loss-এর সর্বোচ্চ পার্থক্য", "max loss difference vs fp32", ".3g"),
        ("max_logit_diff", "fp32-এর সঙ্গে logit-এর সর্বোচ্চ পার্থক্য", "max logit difference vs fp32", ".3g"),
    ], rows)
    res.add_series("loss_curves", (f"{where}-তে প্রতি ধাপে training loss: fp32, bf16, fp16 + GradScaler",
                                   f"Training loss per step on {where}: fp32, bf16, fp16 + GradScaler"),
                   list(range(1, cfg["steps"] + 1)), lines, x_label=("ধাপ", "step"),
                   y_label=("training ডেটায় loss", "loss"))
    res.notes.append(f"All three trainings ran on the same device ({where}); times are per optimiser step, "
                     f"median over {cfg['chunks']} interleaved chunks of {chunk} steps.  faster_A_than_fp32 is "
                     "true/false only when the min-max ranges do not overlap, else 'about_equal'.")
    depth_u = 6 if ctx.quick else 30
    urows = underflow_rows(depth_u, 16 if ctx.quick else 64, 256, cfg["seed"], data)
    res.table("underflow_table", (f"{format_number(depth_u, bangla=True)} স্তরের plain tanh MLP: বাছাই করা "
                                 "কয়েকটি স্তরে weight-এর gradient norm",
                                 f"{depth_u}-layer plain tanh MLP: weight-gradient norm per layer"), [
        ("layer", "স্তর", "layer"),
        ("fp32", "fp32", "fp32", ".3g"),
        ("fp16", "fp16, scaling ছাড়া", "fp16, no scaling", ".3g"),
        ("fp16_zero_share", "fp16-এ শূন্য হয়ে যাওয়া উপাদানের ভাগ", "share of zero entries, fp16", ".1%"),
        ("fp16_scaled", "fp16, loss × 2¹⁶", "fp16, loss x 2^16", ".3g"),
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
