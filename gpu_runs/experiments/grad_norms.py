"""Per-layer gradient norms of a 30-layer MLP (lesson vanishing-gradients, section 4).

A forward hook on each block would give activations; we need the gradient
arriving at each block's output, ||dL/dh_l||, which is what a full backward
hook receives as grad_output.  Next to it we record ||dL/dW_l|| of the
block's Linear weight.

Norms are taken in float64.  A float32 gradient whose entries are about
1e-28 is representable (float32's smallest normal is about 1.2e-38), but its
float32 norm squares the entries, the squares (about 1e-56) underflow, and
`tensor.norm()` returns exactly 0.0.  That 0.0 is an artefact of measuring,
not of the gradient, so the float32 norm and the largest |entry| of the first
block are recorded beside the float64 norm to show the difference.
"""
from __future__ import annotations

import torch
from torch import nn

from gpu_runs.data import bazarghar
from gpu_runs.models.mlp import DeepMLP
from gpu_runs.util import fnum, seed_everything
from py_lessons.runtime.numbers import format_number

DEFAULT_SEEDS = [0]
# 64-wide layers are too small to gain from a second thread; on a shared
# 2-core machine a second thread made this run several times slower.
THREADS = 1

VARIANTS = [  # (row label, activation, block kind)
    ("plain sigmoid", "sigmoid", "plain"),
    ("plain tanh", "tanh", "plain"),
    ("plain relu", "relu", "plain"),
    ("residual relu", "relu", "residual"),
    ("residual tanh", "tanh", "residual"),
    ("prenorm res relu", "relu", "prenorm"),
]
# the chart's legend in the lessons' terms (site/glossary.yml: plain, residual, pre-norm)
LEGEND_BN = {"prenorm res relu": "pre-norm residual relu"}


def norm64(t: torch.Tensor) -> float:
    """The 2-norm computed in float64, so tiny float32 entries do not underflow when squared."""
    return fnum(t.detach().double().norm())


def measure(model: DeepMLP, xb: torch.Tensor, yb: torch.Tensor) -> tuple[list[float], list[float], dict]:
    grads: dict[int, float] = {}
    grads32: dict[int, float] = {}
    first: dict[str, float] = {}

    def hook_for(index: int):
        def hook(module, grad_input, grad_output):
            g = grad_output[0]
            grads[index] = norm64(g)
            grads32[index] = fnum(g.norm())
            if index == 0:              # the block next to the input: what float32 itself holds
                biggest = g.detach().abs().max()
                first.update(max_abs=fnum(biggest), max_square_f32=fnum(biggest * biggest),
                             zero_entries=int((g == 0).sum()), entries=g.numel())
        return hook

    handles = [blk.register_full_backward_hook(hook_for(i)) for i, blk in enumerate(model.blocks)]
    try:
        model.zero_grad()
        nn.functional.cross_entropy(model(xb), yb).backward()
    finally:
        for handle in handles:
            handle.remove()
    out_grads = [grads[i] for i in range(len(model.blocks))]
    weight_grads = [norm64(blk.linear.weight.grad) for blk in model.blocks]
    first["f32norm"] = grads32[0]
    first["f32norm_zero_layers"] = sum(1 for v in grads32.values() if v == 0.0)
    return out_grads, weight_grads, first


def run(ctx) -> None:
    depth, width, batch = (8, 16, 32) if ctx.quick else (30, 64, 256)
    seed = ctx.seeds[0]
    (x, y), _ = bazarghar.split()
    xb, yb = torch.from_numpy(x[:batch]), torch.from_numpy(y[:batch])
    res = ctx.result
    res.config.update(depth=depth, width=width, batch=batch, init="PyTorch default (nn.Linear)",
                      loss="cross-entropy", seed=seed)
    res.data.update(name="Bazarghar customer segments", generator="gpu_runs.data.bazarghar", rows=4096,
                    features=16, classes=3, data_seed=17, used_rows=batch)
    res.model("network", f"{depth}-layer MLP, width {width}", source="built by gpu_runs.models.mlp")
    picks = [l for l in (1, 5, 10, 20, 30) if l <= depth] if depth >= 30 else sorted({1, depth // 2, depth})
    rows, lines_out = [], {}
    for label, act, kind in ctx.track(VARIANTS, "grad_norms"):
        seed_everything(seed)
        model = DeepMLP(depth, width, act, kind)
        out_g, w_g, first = measure(model, xb, yb)
        ratio = out_g[0] / out_g[-1] if out_g[-1] > 0 else float("nan")
        shown = LEGEND_BN.get(label, label)     # the table names a model as the chart does
        row = {"model": shown, "quantity": "dL/dh"}
        wrow = {"model": shown, "quantity": "weight.grad"}
        for layer in picks:
            row[f"l{layer}"] = out_g[layer - 1]
            wrow[f"l{layer}"] = w_g[layer - 1]
        row["first_over_last"] = ratio
        wrow["first_over_last"] = None
        rows += [row, wrow]
        lines_out[(LEGEND_BN.get(label, label), label)] = out_g
        key = label.replace(" ", "_")
        res.values[f"{key}_first"] = out_g[0]
        res.values[f"{key}_last"] = out_g[-1]
        res.values[f"{key}_ratio"] = ratio
        res.values[f"{key}_weight_grad_last"] = w_g[-1]
        res.values[f"{key}_zero_layers"] = sum(1 for g in out_g if g == 0.0)        # float64 norm exactly 0
        res.values[f"{key}_first_f32norm"] = first["f32norm"]                       # tensor.norm() in float32
        res.values[f"{key}_first_max_abs"] = first["max_abs"]
        res.values[f"{key}_first_max_square_f32"] = first["max_square_f32"]         # its square, in float32
        res.values[f"{key}_first_zero_entries"] = first["zero_entries"]
        res.values[f"{key}_first_entries"] = first["entries"]
        res.values[f"{key}_f32norm_zero_layers"] = first["f32norm_zero_layers"]    # tensor.norm() read 0.0
    columns = [("model", "model", "model"), ("quantity", "কী মাপা", "quantity")]
    # ".3g": plain between 0.0001 and 1000, powers of ten beyond (not "৪.৮ × ১০⁰")
    columns += [(f"l{l}", f"স্তর {l}", f"layer {l}", ".3g") for l in picks]
    columns += [("first_over_last", "প্রথম/শেষ", "first/last", ".3g")]
    bn = {k: format_number(v, bangla=True) for k, v in {"depth": depth, "width": width, "batch": batch}.items()}
    res.table("per_layer", (f"{bn['depth']}টি hidden স্তর, প্রতিটিতে {bn['width']}টি neuron, "
                            f"PyTorch-এর নিজস্ব init, batch {bn['batch']}",
                            f"{depth} hidden layers, width {width}, default init, batch {batch}"), columns, rows)
    res.add_series("per_layer_curve",
                   ("প্রতিটি block-এর output-এ gradient-এর norm", "Gradient norm at each block output"),
                   list(range(1, depth + 1)), lines_out,
                   x_label=(f"স্তর ({format_number(1, bangla=True)} = input-এর পাশেরটি)",
                            "layer (1 = next to the input)"),
                   y_label=("||dL/dh|| (log স্কেল)", "||dL/dh|| (log scale)"), log_y=True)
    res.notes.append("One batch, one seed, PyTorch's default nn.Linear init (weight variance about 1/(3n)).")
    res.notes.append("Norms are computed in float64 from the float32 gradients; *_first_f32norm is tensor.norm() "
                     "in float32, which reads 0.0 when the squares of tiny entries underflow.")
    res.values["float32_smallest_normal"] = float(torch.finfo(torch.float32).tiny)
    res.values["float32_smallest_subnormal"] = fnum(torch.tensor(1, dtype=torch.int32).view(torch.float32))
