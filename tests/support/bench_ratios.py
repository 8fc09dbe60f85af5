"""Medians of the benchmark's runs and each figure as a ratio to the bare Pyodide floor measured in
the same run (tests/support/bench_floor.py): the ratios, not the absolute seconds, are what a busy
or slow machine leaves comparable; and, file by file, what the median run fetched."""

from __future__ import annotations

import statistics

# The site's figure -> the floor it is divided by.
FLOOR_OF = {
    "first_numpy_output_s": "numpy",
    "first_plot_s": "plot",
    "revisit_s": "numpy",
    "next_lesson_s": "numpy",
}


def medians(runs: dict[str, list[float]], digits: int = 3) -> dict[str, float]:
    return {name: round(statistics.median(values), digits) for name, values in runs.items() if values}


def ratios_to_floor(site_runs: dict[str, list[float]], floor_runs: dict[str, list[float]],
                    floor_of: dict[str, str] = FLOOR_OF) -> dict[str, dict[str, float]]:
    """For each figure of ``floor_of`` measured on both sides: the site's and the floor's median
    seconds and ``ratio_to_floor`` = median(site) / median(floor), from the unrounded medians."""
    report = {}
    for figure, floor in floor_of.items():
        if site_runs.get(figure) and floor_runs.get(floor):
            site_s, floor_s = statistics.median(site_runs[figure]), statistics.median(floor_runs[floor])
            report[figure] = {"site_s": round(site_s, 3), "floor": floor, "floor_s": round(floor_s, 3),
                              "ratio_to_floor": round(site_s / floor_s, 3)}
    return report


def files_of_median_run(files: list[dict[str, int]], totals: list[int], least: int = 10_000) -> dict:
    """What the run with the median bytes fetched before its output fetched, file by file (largest
    first; files under ``least`` bytes summed as one line), so every byte is accounted for."""
    if not files:
        return {}
    run = files[sorted(range(len(totals)), key=totals.__getitem__)[len(totals) // 2]]
    listed = {path: size for path, size in sorted(run.items(), key=lambda item: -item[1]) if size >= least}
    small = [size for size in run.values() if size < least]
    return {**listed, f"{len(small)} files under {least} bytes": sum(small)}
