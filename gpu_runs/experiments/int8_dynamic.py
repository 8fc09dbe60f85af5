"""Dynamic int8 quantization of the review classifier on CPU (lesson smaller-models, section 4).

Two routes: the eager-mode ``torch.ao.quantization.quantize_dynamic`` (still
in torch 2.13, deprecated) and torchao's ``quantize_`` configs.  Every
outcome is recorded, including the ones that fail (torchao int4 on CPU).
"""
from __future__ import annotations

import copy
import statistics
import time
import warnings

import torch
from torch import nn

from gpu_runs.models import teacher as teacher_mod
from gpu_runs.util import fnum, state_dict_mib

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


def timings(model, tokenizer, texts: list[str], max_len: int, n_single: int, repeats: int) -> dict:
    singles = [teacher_mod.encode(tokenizer, [t], max_len) for t in texts[:n_single]]
    full = [teacher_mod.encode(tokenizer, texts[i:i + 64], max_len) for i in range(0, len(texts), 64)]
    with torch.inference_mode():
        for enc in singles[:10]:
            model(**enc)
        medians = []
        for _ in range(repeats):
            per = []
            for enc in singles:
                t0 = time.perf_counter()
                model(**enc)
                per.append(time.perf_counter() - t0)
            medians.append(statistics.median(per) * 1000)
        full_times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            for enc in full:
                model(**enc)
            full_times.append(time.perf_counter() - t0)
    return {"batch1_ms": statistics.median(medians), "batch1_ms_runs": medians,
            "full_test_s": statistics.median(full_times), "full_test_s_runs": full_times}


def run(ctx) -> None:
    model, tokenizer, info, data, cfg = teacher_mod.get_teacher(ctx)
    res = ctx.result
    teacher_mod.describe(res, model, info)
    teacher_mod.describe_data(res, data, ctx.quick)
    n_single, repeats = (20, 1) if ctx.quick else (200, 3)
    res.config.update(batch1_examples=n_single, full_test_batch=64, repeats=repeats, max_len=cfg["max_len"],
                      threads=torch.get_num_threads(), timing="median over examples, then median over repeats")
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
    rows = []
    for label, how, make in ctx.track(variants, "int8_dynamic"):
        qmodel, err, warns = _capture(lambda: make(model))
        row = {"variant": label, "method": how, "status": "ok" if err is None else "unavailable", "error": err,
               "warnings": len(warns), "size_mib": None, "batch1_ms": None, "full_test_s": None,
               "macro_f1": None, "same_decisions": None, "max_logit_diff": None}
        if qmodel is not None:
            def measure():
                lg = teacher_mod.logits(qmodel, tokenizer, texts, cfg["max_len"])
                t = timings(qmodel, tokenizer, texts, cfg["max_len"], n_single, repeats)
                return lg, t
            out, err2, warns2 = _capture(measure)
            warns += warns2
            row["warnings"] = len(warns)
            if err2 is not None:
                row.update(status="failed at inference", error=err2)
            else:
                lg, t = out
                row.update(size_mib=state_dict_mib(qmodel), batch1_ms=t["batch1_ms"],
                           full_test_s=t["full_test_s"], macro_f1=teacher_mod.f1_of(lg, labels),
                           same_decisions=int((lg.argmax(1) == base_pred).sum()),
                           max_logit_diff=fnum((lg - base_logits).abs().max()))
                res.values[f"{_key(label)}_batch1_runs_ms"] = repr([round(v, 4) for v in t["batch1_ms_runs"]])
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
        res.values[f"{_key(label)}_weight_type"] = row["weight_type"]
        for k in ("status", "error", "size_mib", "batch1_ms", "full_test_s", "macro_f1", "same_decisions",
                  "max_logit_diff"):
            res.values[f"{_key(label)}_{k}"] = row[k]
        res.values[f"{_key(label)}_warnings"] = repr([w["category"] + ": " + w["message"] for w in warns])
    res.values["test_examples"] = len(texts)
    fp32, ao = rows[0], rows[1]
    res.values["torch_ao_batch1_speedup"] = fp32["batch1_ms"] / ao["batch1_ms"] if ao["batch1_ms"] else None
    res.values["torch_ao_full_speedup"] = fp32["full_test_s"] / ao["full_test_s"] if ao["full_test_s"] else None
    res.table("quant_table", "Dynamic int8 of the review classifier on CPU", [
        ("variant", "মডেল", "model"),
        ("status", "অবস্থা", "status"),
        ("weight_type", "Linear / weight-এর ধরন", "Linear / weight type"),
        ("size_mib", "আকার (MiB)", "size (MiB)", ".2f"),
        ("batch1_ms", "batch ১ (ms)", "batch 1 (ms)", ".2f"),
        ("full_test_s", "পুরো test (s)", "full test (s)", ".2f"),
        ("macro_f1", "Macro-F1", "macro-F1", ".4f"),
        ("same_decisions", "fp32-এর সঙ্গে একই সিদ্ধান্ত", "same decisions as fp32"),
        ("max_logit_diff", "logit-এ সর্বোচ্চ পার্থক্য", "max logit difference", ".3f"),
    ], rows)
    res.notes.append("Timings are on this CPU with its instruction-set flags (see provenance.cpu.flags); "
                     "AVX-512 VNNI / AMX make int8 matmuls fast here, so results differ from older CPUs.")


def _key(label: str) -> str:
    return {"fp32": "fp32", "torch.ao dynamic int8": "torch_ao", "torchao int8 dyn-act + int8 weight": "torchao_da8w8",
            "torchao int8 weight-only": "torchao_w8", "torchao int4 weight-only": "torchao_w4"}[label]
