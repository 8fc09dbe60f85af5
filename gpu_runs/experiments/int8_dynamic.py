"""Dynamic int8 quantization of the review classifier on CPU (lesson smaller-models, section 4).

Two routes: the eager-mode ``torch.ao.quantization.quantize_dynamic`` (still
in torch 2.13, deprecated) and torchao's ``quantize_`` configs.  Every
outcome is recorded, including the ones that fail (torchao int4 on CPU).
"""
from __future__ import annotations

import copy
import warnings

import torch
from torch import nn

from gpu_runs import provenance
from gpu_runs.models import teacher as teacher_mod
from gpu_runs.util import (FASTER_BN, MIN_REPEATS, STATUS_BN, faster, fnum, state_dict_mib, time_interleaved,
                            timing_columns)
from py_lessons.runtime.numbers import format_number

DEFAULT_SEEDS = [0]


def _capture(fn):
    """Run fn, return (result or None, error text or None, warnings as dicts).
    Warnings are re-issued so the run's provenance records them as well."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, err = fn(), None
        except Exception as exc:  # an unavailable backend is a result, not a crash
            out, err = None, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return out, err, [{"category": w.category.__name__, "message": str(w.message).splitlines()[0]} for w in caught]


def _torchao(config_name: str):
    def apply(model):
        import torchao.quantization as tq

        config = getattr(tq, config_name)()
        m = copy.deepcopy(model)
        tq.quantize_(m, config)
        return m
    return apply


def time_models(models: dict, tokenizer, texts: list[str], max_len: int, n_single: int, repeats: int,
                device: str = "cpu") -> dict:
    """Batch-1 latency and full-test time of several classifiers, measured interleaved.

    One batch-1 call runs the first *n_single* test examples one at a time
    (inputs encoded beforehand); its time is divided by *n_single*, so the
    value is seconds per example.  One full call runs the whole test set in
    batches of 64.  Both go through :func:`gpu_runs.util.time_interleaved`:
    warm-up, then *repeats* rounds with the models in rotating order.
    Returns ``{key: {"batch1": Timing (s per example), "full": Timing (s)}}``.
    """
    singles = [teacher_mod.encode(tokenizer, [t], max_len) for t in texts[:n_single]]
    full = [teacher_mod.encode(tokenizer, texts[i:i + 64], max_len) for i in range(0, len(texts), 64)]

    def runner(model, inputs):
        def call():
            for enc in inputs:
                model(**enc)
        return call

    with torch.inference_mode():
        b1 = time_interleaved({k: runner(m, singles) for k, m in models.items()}, repeats=repeats,
                              device=device, per_call=len(singles))
        ft = time_interleaved({k: runner(m, full) for k, m in models.items()}, repeats=repeats, device=device)
    return {k: {"batch1": b1[k], "full": ft[k]} for k in models}


TIMING_NOTE = ("Timings: each variant is warmed up, then the variants run in interleaved rounds (order rotated "
               "each round, {repeats} rounds); the value is the median over rounds, min and max are kept, and "
               "faster_A_than_B is true/false only when the min-max ranges of A and B do not overlap, else "
               "'about_equal'.  Batch 1 = one pass over {n_single} test examples one at a time, per example.")


def run(ctx) -> None:
    model, tokenizer, info, data, cfg = teacher_mod.get_teacher(ctx)
    res = ctx.result
    teacher_mod.describe(res, model, info)
    teacher_mod.describe_data(res, data, ctx.quick)
    n_single, repeats = (20, 2) if ctx.quick else (200, MIN_REPEATS)
    res.config.update(batch1_examples=n_single, full_test_batch=64, repeats=repeats, max_len=cfg["max_len"],
                      threads=torch.get_num_threads(),
                      timing="gpu_runs.util.time_interleaved: warm-up, variants interleaved in rotating order, "
                             "median over rounds with min/max; batch 1 = mean per example within a round")
    texts, labels = data["test"]["text"], data["test"]["label"]
    base_logits = teacher_mod.logits(model, tokenizer, texts, cfg["max_len"])
    base_pred = base_logits.argmax(1)
    variants = [
        ("fp32", "none", lambda m: m),
        ("torch.ao dynamic int8", "torch.ao.quantization.quantize_dynamic(qint8)",
         lambda m: torch.ao.quantization.quantize_dynamic(copy.deepcopy(m), {nn.Linear}, dtype=torch.qint8)),
        ("torchao int8 dyn-act + int8 weight", "torchao Int8DynamicActivationInt8WeightConfig",
         _torchao("Int8DynamicActivationInt8WeightConfig")),
        ("torchao int8 weight-only", "torchao Int8WeightOnlyConfig", _torchao("Int8WeightOnlyConfig")),
        ("torchao int4 weight-only", "torchao Int4WeightOnlyConfig", _torchao("Int4WeightOnlyConfig")),
    ]
    rows, models, warn_lists = [], {}, {}
    for label, how, make in ctx.track(variants, "int8_dynamic"):
        qmodel, err, warns = _capture(lambda: make(model))
        row = {"variant": label, "method": how, "status": "ok" if err is None else "unavailable", "error": err,
               "warnings": len(warns), "size_mib": None, "batch1_ms": None, "full_test_s": None,
               "macro_f1": None, "same_decisions": None, "max_logit_diff": None}
        if qmodel is not None:
            lg, err2, warns2 = _capture(lambda: teacher_mod.logits(qmodel, tokenizer, texts, cfg["max_len"]))
            warns += warns2
            row["warnings"] = len(warns)
            if err2 is not None:
                row.update(status="failed at inference", error=err2)
            else:
                row.update(size_mib=state_dict_mib(qmodel), macro_f1=teacher_mod.f1_of(lg, labels),
                           same_decisions=int((lg.argmax(1) == base_pred).sum()),
                           max_logit_diff=fnum((lg - base_logits).abs().max()))
                models[_key(label)] = qmodel
        if qmodel is not None:
            lin = next(m for m in qmodel.base_model.encoder.modules() if "Linear" in type(m).__name__)
            weight = lin.weight() if callable(getattr(lin, "weight", None)) else getattr(lin, "weight", None)
            row["weight_type"] = f"{type(lin).__name__} / {type(weight).__name__}"
            if qmodel is not model and type(weight) is torch.nn.Parameter and type(lin) is nn.Linear:
                row["status"] = "no-op: weights left in fp32"
                row["error"] = "quantize_ returned without replacing any encoder Linear weight"
        else:
            row["weight_type"] = None
        rows.append(row)
        warn_lists[label] = warns
    # all working variants timed together, interleaved, so machine load hits them alike
    times = {}
    if models:
        times, err3, _ = _capture(lambda: time_models(models, tokenizer, texts, cfg["max_len"], n_single,
                                                             repeats, ctx.device))
        if err3 is not None:
            raise RuntimeError(f"timing failed: {err3}")
    timing_rows = []
    for row in rows:
        k = _key(row["variant"])
        if k in times:
            t = times[k]
            b1, ft = t["batch1"].fields("batch1_ms", 1000), t["full"].fields("full_test_s")
            row.update({c: b1[c] for c in ("batch1_ms", "batch1_ms_min", "batch1_ms_max")},
                       **{c: ft[c] for c in ("full_test_s", "full_test_s_min", "full_test_s_max")})
            for name, v in (b1 | ft).items():
                res.values[f"{k}_{name}"] = v
            timing_rows.append({"variant": row["variant"], **{c: row[c] for c in (
                "batch1_ms", "batch1_ms_min", "batch1_ms_max", "full_test_s", "full_test_s_min", "full_test_s_max")},
                "batch1_vs_fp32": None if k == "fp32" else faster(t["batch1"], times["fp32"]["batch1"]),
                "full_vs_fp32": None if k == "fp32" else faster(t["full"], times["fp32"]["full"])})
            if k != "fp32":
                res.values[f"faster_{k}_than_fp32_batch1"] = timing_rows[-1]["batch1_vs_fp32"]
                res.values[f"faster_{k}_than_fp32_full_test"] = timing_rows[-1]["full_vs_fp32"]
        res.values[f"{k}_weight_type"] = row["weight_type"]
        for c in ("status", "error", "size_mib", "batch1_ms", "full_test_s", "macro_f1", "same_decisions",
                  "max_logit_diff"):
            res.values[f"{k}_{c}"] = row[c]
        res.values[f"{k}_warnings"] = repr([w["category"] + ": " + w["message"]
                                            for w in warn_lists[row["variant"]]])
    res.values["test_examples"] = len(texts)
    fp32, ao = rows[0], rows[1]
    res.values["torch_ao_batch1_speedup"] = fp32["batch1_ms"] / ao["batch1_ms"] if ao["batch1_ms"] else None
    res.values["torch_ao_full_speedup"] = fp32["full_test_s"] / ao["full_test_s"] if ao["full_test_s"] else None
    # the table shows the status in Bangla; the values (and the pages' claims) keep the English
    shown = [row | {"status": STATUS_BN.get(row["status"], row["status"])} for row in rows]
    res.table("quant_table", ("CPU-তে রিভিউ classifier-এর dynamic int8", "Dynamic int8 of the review classifier on CPU"), [
        ("variant", "model", "model"),
        ("status", "অবস্থা", "status"),
        ("weight_type", "Linear / weight-এর ধরন", "Linear / weight type"),
        ("size_mib", "আকার (MiB)", "size (MiB)", ".2f"),
        ("batch1_ms", "batch ১-এ সময়ের median (ms)", "batch 1 (ms, median)", ".2f"),
        ("full_test_s", "পুরো test-এ সময়ের median (সেকেন্ড)", "full test (s, median)", ".2f"),
        ("macro_f1", "macro-F1", "macro-F1", ".4f"),
        ("same_decisions", "fp32-এর সঙ্গে একই সিদ্ধান্ত", "same decisions as fp32", ","),
        ("max_logit_diff", "logit-এ সর্বোচ্চ পার্থক্য", "max logit difference", ".3f"),
    ], shown)
    res.table("timing_table", (f"CPU-তে সময়: পালা করে {format_number(repeats, bangla=True)} দফা মাপার median আর পরিসর",
                              f"CPU timings, median and range over {repeats} interleaved rounds"), [
        ("variant", "model", "model"),
        *timing_columns(),
        ("batch1_vs_fp32", "batch ১-এ fp32-এর চেয়ে দ্রুত?", "faster than fp32 at batch 1?"),
        ("full_vs_fp32", "পুরো test-এ fp32-এর চেয়ে দ্রুত?", "faster than fp32 on the full test?"),
    ], [row | {c: FASTER_BN.get(row[c], row[c]) for c in ("batch1_vs_fp32", "full_vs_fp32")} for row in timing_rows])
    res.notes.append(cpu_note(provenance.cpu_info()["flags"]))
    res.notes.append(TIMING_NOTE.format(repeats=repeats, n_single=n_single))


def cpu_note(flags: list[str]) -> str:
    """What this CPU's instruction set means for int8 timings (a note, decided from its flags)."""
    fast = [f for f in ("avx512_vnni", "avx_vnni", "amx_int8") if f in flags]
    where = (f"this CPU has {', '.join(fast)}, which make int8 matmuls fast" if fast else
             "this CPU has no AVX-512 VNNI, AVX-VNNI or AMX, so int8 matmuls get no special hardware help")
    return (f"Timings are on this CPU with its instruction-set flags (see provenance.cpu.flags): {where}; "
            "results differ on other CPUs.")


def _key(label: str) -> str:
    return {"fp32": "fp32", "torch.ao dynamic int8": "torch_ao", "torchao int8 dyn-act + int8 weight": "torchao_da8w8",
            "torchao int8 weight-only": "torchao_w8", "torchao int4 weight-only": "torchao_w4"}[label]
