"""The benchmark's medians and ratios to the bare Pyodide floor (support/bench_ratios.py); the
expected values are worked out by hand in the comments."""

from __future__ import annotations

from support.bench_ratios import files_of_median_run, medians, ratios_to_floor


def test_medians_take_the_middle_or_the_mean_of_the_middle_two_and_skip_empty_runs():
    # odd: sorted 1, 3, 8 -> 3 (the mean would be 4); even: sorted 1, 2, 3, 10 -> 2.5 (mean 4)
    assert medians({"odd": [3.0, 1.0, 8.0], "even": [10.0, 1.0, 3.0, 2.0], "none": []}) == {"odd": 3.0, "even": 2.5}


def test_each_figure_is_divided_by_the_median_of_its_own_floor():
    site = {"first_numpy_output_s": [4.0, 2.0, 3.0],  # median 3
            "first_plot_s": [8.0, 10.0],             # median 9
            "revisit_s": [1.0],                      # median 1
            "next_lesson_s": [0.5, 0.6, 0.4]}        # median 0.5
    floor = {"numpy": [5.0, 6.0, 4.0],              # median 5
             "plot": [12.0, 18.0, 30.0, 6.0]}       # median (12 + 18) / 2 = 15
    assert ratios_to_floor(site, floor) == {
        "first_numpy_output_s": {"site_s": 3.0, "floor": "numpy", "floor_s": 5.0, "ratio_to_floor": 0.6},
        "first_plot_s": {"site_s": 9.0, "floor": "plot", "floor_s": 15.0, "ratio_to_floor": 0.6},
        "revisit_s": {"site_s": 1.0, "floor": "numpy", "floor_s": 5.0, "ratio_to_floor": 0.2},
        "next_lesson_s": {"site_s": 0.5, "floor": "numpy", "floor_s": 5.0, "ratio_to_floor": 0.1},
    }


def test_the_ratio_comes_from_unrounded_medians_and_figures_without_runs_are_left_out():
    site = {"first_numpy_output_s": [0.0021], "first_plot_s": []}
    floor = {"numpy": [0.0014], "plot": [2.0]}
    # 0.0021 / 0.0014 = 1.5, where the rounded medians would give 0.002 / 0.001 = 2
    assert ratios_to_floor(site, floor) == {
        "first_numpy_output_s": {"site_s": 0.002, "floor": "numpy", "floor_s": 0.001, "ratio_to_floor": 1.5}}


def test_the_bytes_before_the_first_output_are_listed_file_by_file_from_the_median_run():
    runs = [{"/a.wasm": 300, "/s.js": 5}, {"/a.wasm": 100, "/b.gz": 50, "/s.js": 4, "/t.js": 3}, {"/a.wasm": 999}]
    totals = [sum(run.values()) for run in runs]  # 305, 157, 999: the first is the median
    assert files_of_median_run(runs, totals, least=10) == {"/a.wasm": 300, "1 files under 10 bytes": 5}
    listed = files_of_median_run(runs[1:2], totals[1:2], least=10)
    assert list(listed) == ["/a.wasm", "/b.gz", "2 files under 10 bytes"] and sum(listed.values()) == totals[1]
    assert files_of_median_run([], []) == {}
