"""Command line: `python -m gpu_runs list | run | bench`."""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

from gpu_runs.registry import EXPERIMENTS

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
    run.add_argument("--device", default="auto", help="auto, cpu or cuda")
    run.add_argument("--seeds", default=None, help="comma-separated seeds, e.g. 0,1,2")
    run.add_argument("--model", default=None, metavar="ID_OR_PATH",
                     help="load a real model with from_pretrained instead of the offline stand-in")
    run.add_argument("--out", default=None, metavar="DIR", help="folder for the JSON files")
    bench = sub.add_parser("bench", help="time the vanishing-gradients and smaller-models CPU suites")
    bench.add_argument("--out", default=None, metavar="DIR")
    bench.add_argument("--skip-uncached", action="store_true", help="do not re-train the cached stand-ins")
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


def resolve_device(requested: str) -> str:
    if requested not in ("auto", "cpu", "cuda"):
        raise UsageError(f"unknown --device {requested!r} (choose auto, cpu or cuda)")
    if requested == "cpu":
        return "cpu"
    import torch

    available = torch.cuda.is_available()
    if requested == "cuda" and not available:
        raise UsageError(f"--device cuda requested but CUDA is not available here (torch {torch.__version__})")
    return "cuda" if available else "cpu"


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
    device = resolve_device(args.device)
    out = Path(args.out) if args.out else DEFAULT_OUT
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")

    from gpu_runs.runner import run_experiment, make_progress

    command = "python -m gpu_runs " + shlex.join(argv)
    if os.environ.get("GPU_RUNS_THREADS"):
        command = f"GPU_RUNS_THREADS={shlex.quote(os.environ['GPU_RUNS_THREADS'])} " + command
    with make_progress() as progress:
        for name in names:
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
        return cmd_run(args, argv)
    except UsageError as exc:
        print(f"gpu_runs: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gpu_runs: interrupted", file=sys.stderr)
        return 130
