"""Every experiment, with what `list` shows.  No torch import here."""
from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Experiment:
    name: str
    lesson: int
    title: str
    devices: str        # what it can use
    expected: str       # full-run duration on the 2-core reference machine
    suite: str          # "lesson17", "stability" or "lesson59"

    def module(self):
        return importlib.import_module(f"gpu_runs.experiments.{self.name}")


EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in [
    Experiment("grad_norms", 17, "Per-layer gradient norms, 30 hidden layers", "cpu", "<1 s", "lesson17"),
    Experiment("train_deep", 17, "40-layer plain vs residual vs pre-norm MLP", "cpu", "~15 s", "lesson17"),
    Experiment("explode", 17, "Exploding 16-layer ReLU MLP, value vs norm clipping", "cpu", "~6 s", "lesson17"),
    Experiment("clip_api", 17, "clip_grad_norm_/clip_grad_value_ return values and errors", "cpu", "<1 s", "lesson17"),
    Experiment("mixed_precision", 12, "fp32 vs bf16 autocast; fp16 underflow and loss scaling",
               "cpu; cuda adds fp16+GradScaler", "~12 s", "stability"),
    Experiment("int8_dynamic", 59, "Dynamic int8 of the review classifier (torch.ao, torchao)", "cpu",
               "~40 s (+ teacher training once, ~4-6 min)", "lesson59"),
    Experiment("lowbit_llm", 59, "Causal LM in bf16, bitsandbytes 8-bit and NF4", "cpu or cuda (bitsandbytes backend)",
               "~40 s (+ LM training once, ~2 min)", "lesson59"),
    Experiment("distill", 59, "Teacher -> BiGRU student, hard labels vs KD, 3 seeds", "cpu",
               "~3 min (+ teacher training once)", "lesson59"),
    Experiment("prune", 59, "Magnitude and FFN-neuron pruning of the teacher, timings", "cpu",
               "~30 s (+ teacher training once)", "lesson59"),
]}

SUITES = {
    "lesson17": [n for n, e in EXPERIMENTS.items() if e.suite == "lesson17"],
    "lesson59": [n for n, e in EXPERIMENTS.items() if e.suite == "lesson59"],
}
