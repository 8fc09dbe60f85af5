"""Every experiment, with what `list` shows.  No torch import here."""
from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Experiment:
    name: str
    lesson: str         # the lesson's slug: its page is site/lessons/<slug>/index.md
    title: tuple[str, str]  # (bn, en): the runs index shows the Bangla, the English as its tooltip
    devices: str        # what it can use, in words (`list` shows it)
    expected: str       # full-run duration on a 2-core project machine (AMD EPYC, 1 thread)
    suite: str          # a suite of `python -m gpu_runs bench`, named by lesson slug
    uses_cuda: bool = False  # False: runs (and is labelled) on the CPU even when CUDA is present

    def device_for(self, requested: str, cuda_available: bool) -> str | None:
        """The device this experiment runs on for --device `requested`; None: it cannot honour it."""
        if requested == "cpu":
            return "cpu"
        if requested == "cuda":
            return "cuda" if (self.uses_cuda and cuda_available) else None
        return "cuda" if (self.uses_cuda and cuda_available) else "cpu"

    def module(self):
        return importlib.import_module(f"gpu_runs.experiments.{self.name}")


VANISHING = "vanishing-gradients"
STABILITY = "numerical-stability"
SMALLER = "smaller-models"

EXPERIMENTS: dict[str, Experiment] = {e.name: e for e in [
    Experiment("grad_norms", VANISHING, ("প্রতিটি স্তরের gradient norm, ৩০টি hidden স্তর",
                                                "Per-layer gradient norms, 30 hidden layers"), "cpu", "<1 s", VANISHING),
    Experiment("train_deep", VANISHING, ("৪০ স্তরের plain বনাম residual বনাম pre-norm MLP, ৩টি seed",
                                                "40-layer plain vs residual vs pre-norm MLP, 3 seeds"), "cpu", "~30 s", VANISHING),
    Experiment("explode", VANISHING, ("বিস্ফোরিত gradient-এ ১৬ স্তরের ReLU MLP: value বনাম norm clipping, ৩টি seed",
                                             "Exploding 16-layer ReLU MLP, value vs norm clipping, 3 seeds"), "cpu", "~8 s", VANISHING),
    Experiment("clip_api", VANISHING, ("clip_grad_norm_/clip_grad_value_: ফেরত মান আর error",
                                              "clip_grad_norm_/clip_grad_value_ return values and errors"), "cpu", "<1 s",
               VANISHING),
    Experiment("mixed_precision", STABILITY, ("একই device-এ fp32 বনাম bf16 বনাম fp16+GradScaler; fp16-এর underflow আর loss scaling",
                                                    "fp32 vs bf16 vs fp16+GradScaler on one device; fp16 underflow and loss scaling"),
               "cpu or cuda", "~30 s", STABILITY, uses_cuda=True),
    Experiment("int8_dynamic", SMALLER, ("রিভিউ classifier-এর dynamic int8 (torch.ao, torchao)",
                                                 "Dynamic int8 of the review classifier (torch.ao, torchao)"), "cpu",
               "~60 s (+ teacher training once, ~3-4 min)", SMALLER),
    Experiment("lowbit_llm", SMALLER, ("bf16, bitsandbytes 8-bit আর NF4-এ causal LM",
                                               "Causal LM in bf16, bitsandbytes 8-bit and NF4"),
               "cpu or cuda (bitsandbytes backend)", "~50 s (+ LM training once, ~1-2 min)", SMALLER, uses_cuda=True),
    Experiment("distill", SMALLER, ("Teacher থেকে BiGRU student: hard label বনাম KD (+ সমান ধাপের নিয়ন্ত্রণ), ৩টি seed",
                                           "Teacher -> BiGRU student, hard labels vs KD (+ equal-steps control), 3 seeds"),
               "cpu", "~3 min (+ teacher training once)", SMALLER),
    Experiment("prune", SMALLER, ("Teacher-এর magnitude আর FFN-neuron pruning, সময়",
                                        "Magnitude and FFN-neuron pruning of the teacher, timings"), "cpu",
               "~30 s (+ teacher training once)", SMALLER),
]}

# suite name (a lesson slug) -> its experiments, in registry order
SUITES: dict[str, list[str]] = {}
for _exp in EXPERIMENTS.values():
    SUITES.setdefault(_exp.suite, []).append(_exp.name)
