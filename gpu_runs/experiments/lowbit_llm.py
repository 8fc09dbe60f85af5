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


def _load_kwargs(precision: str, device: str) -> dict:
    import torch
    from transformers import BitsAndBytesConfig

    kwargs: dict = {"device_map": {"": 0} if device == "cuda" else "cpu", "dtype": torch.bfloat16}
    if precision == "int8":
        kwargs["quantization_config"] = BitsAndBytesConfig(load_in_8bit=True)
    elif precision == "nf4":
        kwargs["quantization_config"] = BitsAndBytesConfig(
            load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
            bnb_4bit_compute_dtype=torch.bfloat16)
    return kwargs


def timing_worker(args: dict) -> dict:
    """Load every working precision in one process and time greedy generation, interleaved
    (gpu_runs.util.time_interleaved: warm-up, rounds in rotating order, CUDA synchronised).
    Memory is measured elsewhere, one precision per process; here only speed counts."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from gpu_runs.util import time_interleaved

    torch.set_num_threads(args["threads"])
    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(args["model"])
    n = args["new_tokens"]
    fns = {}
    for precision in args["precisions"]:
        model = AutoModelForCausalLM.from_pretrained(args["model"], **_load_kwargs(precision, args["device"])).eval()
        enc = tokenizer(args["prompt"], return_tensors="pt").to(model.device)

        def gen(model=model, enc=enc):
            model.generate(**enc, max_new_tokens=n, min_new_tokens=n, do_sample=False,
                           pad_token_id=tokenizer.eos_token_id)
        fns[precision] = gen
    with torch.inference_mode():
        times = time_interleaved(fns, repeats=args["repeats"], device=args["device"], per_call=n)
    return {k: t.runs for k, t in times.items()}   # seconds per generated token, one per round


def worker(args: dict) -> dict:
    """Load one precision, measure it, return a dict (runs in a child process)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if args.get("mode") == "timing":
        return timing_worker(args)
    torch.set_num_threads(args["threads"])
    torch.manual_seed(0)
    device = args["device"]
    # import what loading pulls in before taking the baseline, so the peak
    # measures the model and its activations rather than library code
    import accelerate  # noqa: F401
    import bitsandbytes  # noqa: F401
    import transformers.integrations.bitsandbytes  # noqa: F401
    import transformers.models.qwen2.modeling_qwen2  # noqa: F401
    rss_before = _rss_mib()
    kwargs = _load_kwargs(args["precision"], device)
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
        # the text only; speed is measured by timing_worker, all precisions interleaved
        gen = model.generate(**enc, max_new_tokens=args["new_tokens"], min_new_tokens=args["new_tokens"],
                             do_sample=False, pad_token_id=tokenizer.eos_token_id)
        new_ids = gen[0, enc["input_ids"].shape[1]:].tolist()
        text = tokenizer.decode(new_ids, skip_special_tokens=True)
    if device == "cuda":
        peak = torch.cuda.max_memory_allocated() / 2**20
        peak_kind = "torch.cuda.max_memory_allocated"
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - rss_before
        peak_kind = "peak process RSS minus RSS before loading"
    return {"precision": args["precision"], "footprint_mib": footprint, "peak_mib": peak, "peak_kind": peak_kind,
            "perplexity": ppl, "ppl_tokens": count, "generated": text, "first_tokens": new_ids[:10], "load_s": load_s, "linear_types": linear_types}


def _child(payload: dict, tag: str) -> tuple[dict, dict | None]:
    """Run :func:`worker` in a fresh Python process; return (its dict + status, None) or
    ({status: failed, error}, that same dict).  The child's warnings go into this run's provenance."""
    env = dict(os.environ, PYTHONWARNINGS="always")
    proc = subprocess.run([sys.executable, "-m", "gpu_runs.experiments.lowbit_llm"],
                          input=json.dumps(payload), capture_output=True, text=True, env=env)
    seen = set()
    for line in proc.stderr.splitlines():
        line = line.strip()
        if not line or "it/s]" in line or "%|" in line or line in seen or line.startswith(("File ", "^", "warnings.warn(")):
            continue
        seen.add(line)
        warnings.warn(f"[{tag} worker] {line}", RuntimeWarning)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
        failed = {"status": "failed", "error": tail}
        return failed, failed
    return json.loads(proc.stdout.strip().splitlines()[-1]) | {"status": "ok", "error": None}, None


def heldout_overlap(train: list[str], held: list[str]) -> dict:
    """How much of the held-out text the training text already contains, word for word."""
    import re

    def sentences(text):
        return [s.strip() for s in re.split(r"(?<=[।”])\s+", text) if s.strip()]
    train_sents = {s for t in train for s in sentences(t)}
    held_sents = [s for t in held for s in sentences(t)]
    train_set = set(train)
    return {"heldout_sentences_in_train_share": sum(s in train_sents for s in held_sents) / len(held_sents),
            "heldout_stories_in_train_share": sum(t in train_set for t in held) / len(held)}


def run(ctx) -> None:
    from gpu_runs.models import causal_lm
    from gpu_runs.runner import default_threads
    from gpu_runs.util import MIN_REPEATS, STATUS_BN, Timing, faster

    model_path, info, held = causal_lm.get_lm(ctx)
    res = ctx.result
    res.model("language model", info["name"], stand_in=info.get("stand_in"), source=info.get("source", ""),
              train_seconds=round(info.get("train_seconds", 0.0), 2), loaded_from_cache=info.get("cached", False),
              final_train_loss=info.get("final_train_loss"))
    res.data.update(name="generated Bangla fables (held-out set)", generator="gpu_runs.data.reviews.make_stories",
                    stand_in="replaces three Upendrakishore stories from Bangla Wikisource", stories=len(held))
    args_common = {"model": model_path, "device": ctx.device, "threads": default_threads(), "texts": held,
                   "prompt": PROMPT, "window": 512, "ppl_tokens": 1024 if ctx.quick else 8192,
                   "new_tokens": 8 if ctx.quick else 40, "repeats": 2 if ctx.quick else MIN_REPEATS}
    res.config.update({k: v for k, v in args_common.items() if k not in ("texts", "model")},
                      bnb_8bit="BitsAndBytesConfig(load_in_8bit=True)",
                      bnb_4bit="BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4', "
                               "bnb_4bit_use_double_quant=True, bnb_4bit_compute_dtype=torch.bfloat16)",
                      device_map="cpu" if ctx.device == "cpu" else {"": 0}, decoding="greedy")
    rows = []
    for precision in ctx.track(PRECISIONS, "lowbit_llm"):
        row, _ = _child(args_common | {"precision": precision}, precision)
        rows.append(row | {"precision": precision})
    ok = [r["precision"] for r in rows if r["status"] == "ok"]
    speeds, timing_error = {}, None
    if ok:
        out, err = _child(args_common | {"mode": "timing", "precisions": ok}, "timing")
        if err is None:
            speeds = {k: Timing(v) for k, v in out.items() if k in PRECISIONS}
        else:
            timing_error = err["error"]
    res.values["timing_error"] = timing_error
    for row in rows:
        precision = row["precision"]
        t = speeds.get(precision)
        # tokens per second: the inverse of seconds per token (median, and min/max swapped)
        row.update(tokens_per_s=1 / t.median if t else None, tokens_per_s_min=1 / t.max if t else None,
                   tokens_per_s_max=1 / t.min if t else None,
                   tokens_per_s_runs=repr([round(1 / r, 3) for r in t.runs]) if t else None)
        for k, v in row.items():
            if k not in ("first_tokens", "linear_types"):
                res.values[f"{precision}_{k}"] = v
        res.values[f"{precision}_linear_types"] = repr(row.get("linear_types"))
    for a, b in (("int8", "bf16"), ("nf4", "bf16"), ("nf4", "int8")):
        # faster = fewer seconds per token
        res.values[f"faster_{a}_than_{b}"] = faster(speeds[a], speeds[b]) if a in speeds and b in speeds else None
    table_rows = [{"precision": {"bf16": "bf16", "int8": "8-bit (LLM.int8())", "nf4": "4-bit NF4 (double quant)"}[r["precision"]],
                   "status": STATUS_BN.get(r["status"], r["status"]),   # the values keep the English
                   "footprint_mib": r.get("footprint_mib"), "peak_mib": r.get("peak_mib"),
                   "perplexity": r.get("perplexity"), "tokens_per_s": r.get("tokens_per_s"),
                   "tokens_per_s_min": r.get("tokens_per_s_min"), "tokens_per_s_max": r.get("tokens_per_s_max"),
                   "generated": r.get("generated", r.get("error"))} for r in rows]
    res.table("lowbit_table", ("তিনটি precision-এ causal LM লোড করা", "Loading the causal LM in three precisions"), [
        ("precision", "precision", "precision"),
        ("status", "অবস্থা", "status"),
        ("footprint_mib", "footprint (MiB)", "footprint (MiB)", ".2f"),
        ("peak_mib", "process-এর সর্বোচ্চ RSS (MiB)" if ctx.device == "cpu" else "CUDA-তে সর্বোচ্চ বরাদ্দ memory (MiB)",
         "peak process RSS (MiB)" if ctx.device == "cpu" else "peak torch.cuda.max_memory_allocated (MiB)", ".1f"),
        ("perplexity", "perplexity", "perplexity", ".3f"),
        ("tokens_per_s", "generation-এর গতির median (token/s)", "generation (tokens/s, median)", ".1f"),
        ("tokens_per_s_min", "সর্বনিম্ন", "min", ".1f"),
        ("tokens_per_s_max", "সর্বোচ্চ", "max", ".1f"),
        ("generated", "প্রথম token-গুলো", "first generated text"),
    ], table_rows)
    res.values["prompt"] = PROMPT
    if not ctx.model_id:
        train_texts, held_texts = causal_lm.texts(causal_lm.QUICK if ctx.quick else causal_lm.FULL)
        overlap = heldout_overlap(train_texts, held_texts)
        res.values.update(overlap, perplexity_measures="memorisation of the story templates")
        res.notes.append(
            "The held-out fables are new stories but come from the same sentence templates as the training "
            f"fables: {overlap['heldout_sentences_in_train_share']:.0%} of their sentences occur word for word "
            "in the training text.  The perplexity therefore measures how well each precision keeps what the "
            "model memorised, not how it generalises to unseen prose; it is comparable across precisions only.")
    if ctx.device == "cpu":
        res.variants_absent.append({"variant": "cuda", "reason": "no CUDA GPU was available to this run; "
                                    "bitsandbytes ran its CPU backend"})
    res.notes.append("Peak on CPU is the child process's peak RSS minus its RSS after importing the libraries "
                     "and before loading (weights, activations, the logits of a 512-token window, and any "
                     "lazily loaded kernels).")


if __name__ == "__main__":
    result = worker(json.loads(sys.stdin.read()))
    print(json.dumps(result, ensure_ascii=False))
