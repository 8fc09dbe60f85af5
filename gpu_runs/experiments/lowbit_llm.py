"""A causal LM loaded in bf16, bitsandbytes 8-bit and 4-bit NF4 (lesson smaller-models, section 5).

Each precision runs in its own Python process, as a memory measurement
needs: the peak resident memory of a process only grows, so sharing one
process would mix the three loads.  On CUDA the peak is the allocator's.
"""
from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import time
import warnings

DEFAULT_SEEDS = [0]
PROMPT = "শিয়াল পণ্ডিত একদিন বনের ধারে বসে ভাবছিল,"
PRECISIONS = ["bf16", "int8", "nf4"]


def backends(ctx) -> dict:
    import bitsandbytes

    return {"bitsandbytes": f"{bitsandbytes.__version__} ({'cuda' if ctx.device == 'cuda' else 'cpu'} backend)"}


def _rss_mib() -> float:
    with open("/proc/self/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def worker(args: dict) -> dict:
    """Load one precision, measure it, return a dict (runs in a child process)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig

    torch.set_num_threads(args["threads"])
    torch.manual_seed(0)
    device = args["device"]
    # import what loading pulls in before taking the baseline, so the peak
    # measures the model and its activations rather than library code
    import accelerate  # noqa: F401
    import bitsandbytes  # noqa: F401
    import transformers.models.qwen2.modeling_qwen2  # noqa: F401
    import transformers.integrations.bitsandbytes  # noqa: F401
    rss_before = _rss_mib()
    kwargs: dict = {"device_map": {"": 0} if device == "cuda" else "cpu", "dtype": torch.bfloat16}
    if args["precision"] == "int8":
        kwargs["quantization_config"] = BitsAndBytesConfig(load_in_8bit=True)
    elif args["precision"] == "nf4":
        kwargs["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
            bnb_4bit_compute_dtype=torch.bfloat16)
    t0 = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(args["model"])
    model = AutoModelForCausalLM.from_pretrained(args["model"], **kwargs).eval()
    load_s = time.perf_counter() - t0
    footprint = model.get_memory_footprint() / 2**20
    linear_types = sorted({type(m).__name__ for m in model.modules() if "Linear" in type(m).__name__})
    # perplexity over non-overlapping windows of the held-out text
    ids = tokenizer("\n".join(args["texts"]), return_tensors="pt")["input_ids"][0][: args["ppl_tokens"]]
    window = args["window"]
    nll, count = 0.0, 0
    with torch.inference_mode():
        for start in range(0, len(ids) - 1, window):
            chunk = ids[start:start + window].unsqueeze(0).to(model.device)
            if chunk.shape[1] < 2:
                break
            out = model(input_ids=chunk, labels=chunk)
            n = chunk.shape[1] - 1
            nll += float(out.loss) * n
            count += n
        ppl = math.exp(nll / count)
        enc = tokenizer(args["prompt"], return_tensors="pt").to(model.device)
        model.generate(**enc, max_new_tokens=4, do_sample=False, pad_token_id=tokenizer.eos_token_id)  # warm-up
        speeds, text, new_ids = [], "", []
        for _ in range(args["repeats"]):
            t0 = time.perf_counter()
            gen = model.generate(**enc, max_new_tokens=args["new_tokens"], min_new_tokens=args["new_tokens"],
                                 do_sample=False, pad_token_id=tokenizer.eos_token_id)
            dt = time.perf_counter() - t0
            new_ids = gen[0, enc["input_ids"].shape[1]:].tolist()
            speeds.append(len(new_ids) / dt)
            text = tokenizer.decode(new_ids, skip_special_tokens=True)
    if device == "cuda":
        peak = torch.cuda.max_memory_allocated() / 2**20
        peak_kind = "torch.cuda.max_memory_allocated"
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - rss_before
        peak_kind = "peak process RSS minus RSS before loading"
    speeds.sort()
    return {"precision": args["precision"], "footprint_mib": footprint, "peak_mib": peak, "peak_kind": peak_kind,
            "perplexity": ppl, "ppl_tokens": count, "tokens_per_s": speeds[len(speeds) // 2],
            "generated": text, "first_tokens": new_ids[:10], "load_s": load_s, "linear_types": linear_types}


def run(ctx) -> None:
    from gpu_runs.models import causal_lm
    from gpu_runs.runner import default_threads

    model_path, info, held = causal_lm.get_lm(ctx)
    res = ctx.result
    res.model("language model", info["name"], stand_in=info.get("stand_in"), source=info.get("source", ""),
              train_seconds=round(info.get("train_seconds", 0.0), 2), loaded_from_cache=info.get("cached", False),
              final_train_loss=info.get("final_train_loss"))
    res.data.update(name="generated Bangla fables (held-out set)", generator="gpu_runs.data.reviews.make_stories",
                    stand_in="replaces three Upendrakishore stories from Bangla Wikisource", stories=len(held))
    args_common = {"model": model_path, "device": ctx.device, "threads": default_threads(), "texts": held,
                   "prompt": PROMPT, "window": 512, "ppl_tokens": 1024 if ctx.quick else 8192,
                   "new_tokens": 8 if ctx.quick else 40, "repeats": 1 if ctx.quick else 3}
    res.config.update({k: v for k, v in args_common.items() if k not in ("texts", "model")},
                      bnb_8bit="BitsAndBytesConfig(load_in_8bit=True)",
                      bnb_4bit="BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4', "
                               "bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=torch.bfloat16)",
                      device_map="cpu" if ctx.device == "cpu" else {"": 0}, decoding="greedy")
    rows = []
    for precision in ctx.track(PRECISIONS, "lowbit_llm"):
        payload = json.dumps(args_common | {"precision": precision})
        env = dict(os.environ, PYTHONWARNINGS="always")
        proc = subprocess.run([sys.executable, "-m", "gpu_runs.experiments.lowbit_llm"], input=payload,
                              capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            tail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
            row = {"precision": precision, "status": "failed", "error": tail}
        else:
            row = json.loads(proc.stdout.strip().splitlines()[-1]) | {"status": "ok", "error": None}
        seen = set()
        for line in proc.stderr.splitlines():   # child warnings go into this run's provenance
            line = line.strip()
            if not line or "it/s]" in line or "%|" in line or line in seen or line.startswith(("File ", "^", "warnings.warn(")):
                continue
            seen.add(line)
            warnings.warn(f"[{precision} worker] {line}", RuntimeWarning)
        rows.append(row)
        for k, v in row.items():
            if k not in ("first_tokens", "linear_types"):
                res.values[f"{precision}_{k}"] = v
        res.values[f"{precision}_linear_types"] = repr(row.get("linear_types"))
    table_rows = [{"precision": {"bf16": "bf16", "int8": "8-bit (LLM.int8())", "nf4": "4-bit NF4 (double quant)"}[r["precision"]],
                   "status": r["status"], "footprint_mib": r.get("footprint_mib"), "peak_mib": r.get("peak_mib"),
                   "perplexity": r.get("perplexity"), "tokens_per_s": r.get("tokens_per_s"),
                   "generated": r.get("generated", r.get("error"))} for r in rows]
    res.table("lowbit_table", "Loading the causal LM in three precisions", [
        ("precision", "Precision", "precision"),
        ("status", "অবস্থা", "status"),
        ("footprint_mib", "Footprint (MiB)", "footprint (MiB)", ".2f"),
        ("peak_mib", "Peak (MiB)", "peak (MiB)", ".1f"),
        ("perplexity", "Perplexity", "perplexity", ".3f"),
        ("tokens_per_s", "Generation (token/s)", "generation (tokens/s)", ".1f"),
        ("generated", "প্রথম token-গুলো", "first generated text"),
    ], table_rows)
    res.values["prompt"] = PROMPT
    if ctx.device == "cpu":
        res.variants_absent.append({"variant": "cuda", "reason": "no CUDA GPU was available to this run; "
                                    "bitsandbytes ran its CPU backend"})
    res.notes.append("Peak on CPU is the child process's peak RSS minus its RSS after importing the libraries "
                     "and before loading (weights, activations, the logits of a 512-token window, and any "
                     "lazily loaded kernels).")


if __name__ == "__main__":
    result = worker(json.loads(sys.stdin.read()))
    print(json.dumps(result, ensure_ascii=False))
