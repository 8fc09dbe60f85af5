"""Runs one experiment and writes its JSON file with provenance."""
from __future__ import annotations

import os
import time
from pathlib import Path

from gpu_runs import SCHEMA_VERSION, jsonio, provenance
from gpu_runs.context import Context, WarningCapture
from gpu_runs.registry import EXPERIMENTS


def default_threads(module=None) -> int:
    """GPU_RUNS_THREADS wins; else the experiment's THREADS; else 1.

    One thread is the default because the project machines have two cores
    shared with other work: with two threads, intra-op spin-waiting against
    other load made small runs many times slower and the timings noisy.
    """
    env = os.environ.get("GPU_RUNS_THREADS")
    if env:
        return max(1, int(env))
    if module is not None and getattr(module, "THREADS", None):
        return int(module.THREADS)
    return 1


def make_progress():
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True, disable=not console.is_terminal)


def device_info(device: str, requested: str) -> dict:
    """provenance.device of a run on `device` (this experiment's resolved device, not the request)."""
    import torch

    info = {"requested": requested, "used": device, "cuda_available": bool(torch.cuda.is_available())}
    cuda = provenance.cuda_info(device)
    if device == "cuda":
        info["name"] = cuda["gpu_name"]
    else:
        info["name"] = "CPU: " + provenance.cpu_info()["model"]
    return info | cuda


def run_experiment(name: str, *, device: str, requested: str, quick: bool, seeds: list[int] | None,
                   model_id: str | None, out_dir: Path, command: str, argv: list[str], progress=None) -> Path:
    import torch

    exp = EXPERIMENTS[name]
    module = exp.module()
    torch.set_num_threads(default_threads(module))
    seeds = list(seeds if seeds is not None else module.DEFAULT_SEEDS)
    ctx = Context(device=device, quick=quick, seeds=seeds, model_id=model_id, progress=progress)
    commit, dirty = provenance.git_state()
    started = provenance.utc_now()
    t0 = time.perf_counter()
    with WarningCapture() as captured:
        module.run(ctx)
    duration = time.perf_counter() - t0
    finished = provenance.utc_now()
    res = ctx.result
    dev = device_info(device, requested)
    dev["backends"] = getattr(module, "backends", lambda ctx: {})(ctx)
    doc = {
        "schema_version": SCHEMA_VERSION,
        "experiment": name,
        "lesson": exp.lesson,
        "title": {"bn": exp.title[0], "en": exp.title[1]},
        "quick": quick,
        "provenance": {
            "command": command,
            "argv": argv,
            "git_commit": commit,
            "git_dirty": dirty,
            "started_utc": started,
            "finished_utc": finished,
            "duration_s": round(duration, 3),
            "python": provenance.python_version(),
            "packages": provenance.package_versions(),
            "device": dev,
            "cpu": provenance.cpu_info(),
            "threads": torch.get_num_threads(),
            "seeds": seeds,
            "warnings": captured.as_list(),
            "stand_ins": ctx.stand_ins,
        },
        "config": res.config,
        "models": res.models,
        "data": res.data,
        "tables": res.tables,
        "series": res.series,
        "values": res.values,
        "notes": res.notes,
        "variants_absent": res.variants_absent,
    }
    raw = jsonio.encode(doc)
    jsonio.validate(raw, where=f"{name} (about to be written)")
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / jsonio.result_filename(name, device)   # a CUDA run never replaces the CPU file
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(jsonio.dumps(doc), encoding="utf-8")
    os.replace(tmp, path)
    return path
