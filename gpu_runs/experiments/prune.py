"""Pruning the review classifier without retraining (lesson smaller-models, section 8).

Unstructured: global magnitude pruning over all Linear weights of the
encoder (torch.nn.utils.prune.global_unstructured, L1).  Structured: drop
whole FFN neurons (rows of the intermediate Linear and the matching columns
of the output Linear), scored by the product of those two weight norms, and
actually build the smaller Linear layers so the timing can change.
"""
from __future__ import annotations

import copy

import torch
from torch import nn
from torch.nn.utils import prune

from gpu_runs.experiments.int8_dynamic import TIMING_NOTE, time_models
from gpu_runs.models import teacher as teacher_mod
from gpu_runs.util import MIN_REPEATS, faster, state_dict_mib, timing_columns
from py_lessons.runtime.numbers import format_number

DEFAULT_SEEDS = [0]
UNSTRUCTURED = [p / 100 for p in (20, 40, 50, 60, 70, 80, 90)]   # share of weights set to zero
STRUCTURED = [0.25, 0.5, 0.75]


def encoder_linears(model) -> list[nn.Linear]:
    return [m for m in model.base_model.encoder.modules() if isinstance(m, nn.Linear)]


def magnitude_prune(model, amount: float):
    m = copy.deepcopy(model)
    targets = [(lin, "weight") for lin in encoder_linears(m)]
    prune.global_unstructured(targets, pruning_method=prune.L1Unstructured, amount=amount)
    for lin, name in targets:
        prune.remove(lin, name)      # make the zeros permanent: plain dense weights again
    return m


def slice_ffn(model, fraction: float):
    """Remove *fraction* of the FFN neurons in every layer; returns (model, removed weight count)."""
    m = copy.deepcopy(model)
    removed = 0
    for layer in m.base_model.encoder.layer:
        inter, out = layer.intermediate.dense, layer.output.dense
        score = inter.weight.norm(dim=1) * out.weight.norm(dim=0)
        keep_n = inter.out_features - int(round(fraction * inter.out_features))
        keep = torch.sort(torch.topk(score, keep_n).indices).values
        new_inter = nn.Linear(inter.in_features, keep_n)
        new_out = nn.Linear(keep_n, out.out_features)
        with torch.no_grad():
            new_inter.weight.copy_(inter.weight[keep])
            new_inter.bias.copy_(inter.bias[keep])
            new_out.weight.copy_(out.weight[:, keep])
            new_out.bias.copy_(out.bias)
        removed += inter.weight.numel() - new_inter.weight.numel() + out.weight.numel() - new_out.weight.numel()
        layer.intermediate.dense, layer.output.dense = new_inter, new_out
    return m, removed


def zero_share(model) -> float:
    lins = encoder_linears(model)
    return sum(int((l.weight == 0).sum()) for l in lins) / sum(l.weight.numel() for l in lins)


def run(ctx) -> None:
    model, tokenizer, info, data, cfg = teacher_mod.get_teacher(ctx)
    res = ctx.result
    teacher_mod.describe(res, model, info)
    teacher_mod.describe_data(res, data, ctx.quick)
    texts, labels, max_len = data["test"]["text"], data["test"]["label"], cfg["max_len"]
    n_enc = sum(l.weight.numel() for l in encoder_linears(model))
    res.config.update(unstructured=UNSTRUCTURED, structured=STRUCTURED, retraining=False,
                      encoder_linear_weights=n_enc, neuron_score="||W_in row|| * ||W_out column||")

    def f1(m):
        return teacher_mod.f1_of(teacher_mod.logits(m, tokenizer, texts, max_len), labels)

    dense_f1 = f1(model)
    res.values["dense_f1"] = dense_f1
    rows = [{"method": "কিছু না", "amount": "0%", "zero_share": 0.0, "macro_f1": dense_f1}]
    pruned90 = None
    for amount in ctx.track(UNSTRUCTURED, "prune unstructured"):
        m = magnitude_prune(model, amount)
        score = f1(m)
        rows.append({"method": "ছোট |w|-এর weight (unstructured)", "amount": f"{amount:.0%}",
                     "zero_share": zero_share(m), "macro_f1": score})
        res.values[f"unstructured_{int(amount * 100)}_f1"] = score
        if amount == 0.9:
            pruned90 = m
    sliced50 = None
    for frac in ctx.track(STRUCTURED, "prune FFN neurons"):
        m, removed = slice_ffn(model, frac)
        score = f1(m)
        rows.append({"method": "FFN neuron (কেটে ছোট)", "amount": f"{frac:.0%}", "zero_share": removed / n_enc,
                     "macro_f1": score})
        res.values[f"ffn_{int(frac * 100)}_f1"] = score
        res.values[f"ffn_{int(frac * 100)}_removed_share"] = removed / n_enc
        if frac == 0.5:
            sliced50 = m
    res.table("prune_table", ("Pruning-এর পরে macro-F1, আবার training ছাড়া", "Macro-F1 after pruning, no retraining"), [
        ("method", "কী বাদ", "what is removed"),
        ("amount", "পরিমাণ", "amount"),
        ("zero_share", "encoder Linear-এর যত ভাগ শূন্য/বাদ", "share of encoder Linear weights zero/removed", ".1%"),
        ("macro_f1", "macro-F1", "macro-F1", ".4f"),
    ], rows)
    n_single, repeats = (20, 2) if ctx.quick else (200, MIN_REPEATS)
    res.config.update(batch1_examples=n_single, repeats=repeats,
                      timing="gpu_runs.util.time_interleaved: warm-up, dense/u90/ffn50 interleaved in rotating "
                             "order, median over rounds with min/max")
    timed = [("Dense fp32", "dense", model), ("৯০% unstructured", "u90", pruned90),
             ("FFN ৫০% কাটা (structured)", "ffn50", sliced50)]
    times = time_models({key: m for _, key, m in timed}, tokenizer, texts, max_len, n_single, repeats, ctx.device)
    t_rows = []
    for label, key, m in timed:
        t = times[key]
        b1, ft = t["batch1"].fields("batch1_ms", 1000), t["full"].fields("full_test_s")
        row = {"model": label, "size_mib": state_dict_mib(m), "macro_f1": f1(m),
               **{c: v for c, v in (b1 | ft).items() if not c.endswith("_runs")}}
        t_rows.append(row)
        for k, v in (b1 | ft | {"size_mib": row["size_mib"], "macro_f1": row["macro_f1"]}).items():
            res.values[f"{key}_{k}"] = v
    for key in ("u90", "ffn50"):
        res.values[f"{key}_batch1_ratio"] = res.values[f"{key}_batch1_ms"] / res.values["dense_batch1_ms"]
        res.values[f"{key}_full_test_ratio"] = res.values[f"{key}_full_test_s"] / res.values["dense_full_test_s"]
        res.values[f"faster_{key}_than_dense_batch1"] = faster(times[key]["batch1"], times["dense"]["batch1"])
        res.values[f"faster_{key}_than_dense_full_test"] = faster(times[key]["full"], times["dense"]["full"])
    res.table("timing_table", (f"CPU-তে সময়: dense বনাম pruned (পালা করে {format_number(repeats, bangla=True)} দফা "
                              "মাপার median, সর্বনিম্ন আর সর্বোচ্চ)",
                              f"CPU timing: dense vs pruned (median, min and max over {repeats} interleaved rounds)"), [
        ("model", "model", "model"),
        ("size_mib", "আকার (MiB)", "size (MiB)", ".2f"),
        *timing_columns(),
        ("macro_f1", "macro-F1", "macro-F1", ".4f"),
    ], t_rows)
    res.notes.append(TIMING_NOTE.format(repeats=repeats, n_single=n_single))
    res.notes.append("Zeros in a dense weight matrix are still stored and multiplied, so unstructured sparsity "
                     "does not shrink the file or the time; slicing FFN neurons does.")
