"""Command line: `python -m gpu_runs list | run | bench | migrate | prepare-gpu`."""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

from gpu_runs.registry import EXPERIMENTS, Experiment

DEFAULT_OUT = Path(__file__).resolve().parent / "results"


class UsageError(Exception):
    """A problem with what the user asked for; printed as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line instead of usage + message
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m gpu_runs", description="Run the lesson experiments and write JSON results.")
    sub = parser.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    sub.add_parser("list", help="list experiments")
    run = sub.add_parser("run", help="run experiments")
    run.add_argument("names", nargs="*", metavar="NAME")
    run.add_argument("--all", action="store_true", help="run every experiment")
    run.add_argument("--quick", action="store_true", help="tiny sizes, for tests")
    run.add_argument("--device", default="auto",
                     help="auto, cpu or cuda; resolved per experiment: CPU-only experiments always run on the CPU")
    run.add_argument("--seeds", default=None, help="comma-separated seeds, e.g. 0,1,2")
    run.add_argument("--model", default=None, metavar="ID_OR_PATH",
                     help="load a real model with from_pretrained instead of the offline stand-in")
    run.add_argument("--out", default=None, metavar="DIR", help="folder for the JSON files")
    bench = sub.add_parser("bench", help="time the vanishing-gradients and smaller-models CPU suites")
    bench.add_argument("--out", default=None, metavar="DIR")
    bench.add_argument("--skip-uncached", action="store_true", help="do not re-train the cached stand-ins")
    migrate = sub.add_parser("migrate", help="lift older result files to the current schema "
                             "(new fields null, chart labels translated)")
    migrate.add_argument("--results", default=None, metavar="DIR",
                         help="folder of result files (default: gpu_runs/results)")
    prep = sub.add_parser("prepare-gpu", help="a folder with everything an offline GPU machine needs for the CUDA runs")
    prep.add_argument("--out", required=True, metavar="DIR", help="folder to create (must not exist or be empty)")
    prep.add_argument("--quick", action="store_true", help="bundle the quick-size stand-in LM (tests)")
    prep.add_argument("--wheels-from", default=None, metavar="DIR",
                      help="copy the wheels from this folder instead of downloading them from PyPI")
    prep.add_argument("--no-wheels", action="store_true", help="bundle no wheels (tests; the GPU side has them)")
    return parser


def parse_seeds(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        seeds = [int(s) for s in text.split(",") if s.strip() != ""]
    except ValueError:
        raise UsageError(f"--seeds must be comma-separated integers, got {text!r}") from None
    if not seeds:
        raise UsageError("--seeds is empty")
    return seeds


def resolve_device(requested: str, experiment: Experiment | str | None = None) -> str:
    """The device one experiment runs on (and is labelled with) for --device `requested`.

    An experiment that can only use the CPU (registry ``uses_cuda=False``) runs on
    the CPU under ``auto`` even where CUDA is present; ``--device cuda`` for it
    is a usage error.  Without an experiment: what ``requested`` means here.
    """
    if requested not in ("auto", "cpu", "cuda"):
        raise UsageError(f"unknown --device {requested!r} (choose auto, cpu or cuda)")
    if requested == "cpu":
        return "cpu"
    exp = EXPERIMENTS[experiment] if isinstance(experiment, str) else experiment
    if exp is not None and not exp.uses_cuda and requested == "auto":
        return "cpu"    # no need to ask torch
    import torch

    available = bool(torch.cuda.is_available())
    if requested == "cuda" and not available:
        raise UsageError(f"--device cuda requested but CUDA is not available here (torch {torch.__version__})")
    if exp is None:
        return "cuda" if available else "cpu"
    device = exp.device_for(requested, available)
    if device is None:
        cuda_ones = ", ".join(e.name for e in EXPERIMENTS.values() if e.uses_cuda)
        raise UsageError(f"{exp.name} runs on the CPU only ({exp.devices}); use --device cpu or auto "
                         f"(experiments that use CUDA: {cuda_ones})")
    return device


def plan_runs(names: list[str], requested: str, *, run_all: bool = False) -> tuple[list[tuple[str, str]], list[str]]:
    """(experiment, device) for each run, resolved before anything runs, and the experiments skipped.

    ``--all --device cuda`` skips the CPU-only experiments (named on stderr); naming a CPU-only
    experiment with ``--device cuda`` is a usage error.
    """
    plan, skipped = [], []
    for name in names:
        if run_all and requested == "cuda" and not EXPERIMENTS[name].uses_cuda:
            resolve_device("cuda")          # still an error where CUDA is absent
            skipped.append(name)
            continue
        plan.append((name, resolve_device(requested, EXPERIMENTS[name])))
    return plan, skipped


def cmd_list() -> int:
    width = max(len(n) for n in EXPERIMENTS)
    lesson_width = max(len("lesson"), *(len(e.lesson) for e in EXPERIMENTS.values()))
    print(f"{'name':<{width}}  {'lesson':<{lesson_width}}  {'devices':<37} expected (full run)")
    for exp in EXPERIMENTS.values():
        print(f"{exp.name:<{width}}  {exp.lesson:<{lesson_width}}  {exp.devices:<37} {exp.expected}")
    return 0


def cmd_run(args, argv: list[str]) -> int:
    names = list(args.names)
    if args.all and names:
        raise UsageError("give experiment names or --all, not both")
    if args.all:
        names = list(EXPERIMENTS)
    if not names:
        raise UsageError("no experiment named (see `python -m gpu_runs list`, or use --all)")
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        raise UsageError(f"unknown experiment {unknown[0]!r}; known: {', '.join(EXPERIMENTS)}")
    seeds = parse_seeds(args.seeds)
    if args.model and not Path(args.model).expanduser().exists() and Path(args.model).expanduser().is_absolute():
        raise UsageError(f"--model {args.model}: no such folder")
    plan, skipped = plan_runs(names, args.device, run_all=args.all)
    for name in skipped:
        print(f"gpu_runs: skipping {name}: it runs on the CPU only (--device cuda)", file=sys.stderr)
    out = Path(args.out) if args.out else DEFAULT_OUT
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")

    from gpu_runs.provenance import public_arg
    from gpu_runs.runner import make_progress, run_experiment

    argv = [public_arg(a) for a in argv]    # no machine-specific folders in the stored command
    command = "python -m gpu_runs " + shlex.join(argv)
    if os.environ.get("GPU_RUNS_THREADS"):
        command = f"GPU_RUNS_THREADS={shlex.quote(os.environ['GPU_RUNS_THREADS'])} " + command
    with make_progress() as progress:
        for name, device in plan:
            t0 = time.perf_counter()
            path = run_experiment(name, device=device, requested=args.device, quick=args.quick, seeds=seeds,
                                  model_id=args.model, out_dir=out, command=command, argv=argv, progress=progress)
            progress.console.log(f"{name}: {time.perf_counter() - t0:.1f} s -> {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(argv)
        if args.cmd == "list":
            return cmd_list()
        if args.cmd == "bench":
            from gpu_runs.bench import run_bench

            return run_bench(out=args.out, skip_uncached=args.skip_uncached)
        if args.cmd == "migrate":
            from gpu_runs.migrate import migrate_folder

            for path in migrate_folder(Path(args.results) if args.results else DEFAULT_OUT):
                print(f"migrated {path}")
            return 0
        if args.cmd == "prepare-gpu":
            from gpu_runs.prepare_gpu import prepare

            return prepare(Path(args.out), quick=args.quick, wheels_from=args.wheels_from, no_wheels=args.no_wheels)
        return cmd_run(args, argv)
    except UsageError as exc:
        print(f"gpu_runs: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gpu_runs: interrupted", file=sys.stderr)
        return 130
