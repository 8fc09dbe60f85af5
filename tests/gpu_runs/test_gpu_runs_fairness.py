"""Fair comparisons: no split leakage, interleaved timings, seed ranges, equal-steps control."""
import json
import math
import time

import pytest

from gpu_runs.data import reviews
from gpu_runs.models import teacher
from gpu_runs.util import Timing, faster, median_range, time_interleaved


@pytest.mark.parametrize("quick", [False, True], ids=["full", "quick"])
def test_no_test_review_occurs_in_any_training_set(quick):
    data = teacher.corpus(quick)
    cfg = teacher.QUICK if quick else teacher.FULL
    sizes = teacher.CORPUS_QUICK if quick else teacher.CORPUS_FULL
    assert [len(data[s]["text"]) for s in ("train", "val", "test")] == \
        [sizes["n_train"], sizes["n_val"], sizes["n_test"]]
    teacher_train = teacher.teacher_train_split(data, cfg)
    assert len(teacher_train["text"]) == sizes["n_train"] + cfg["extra_train"]
    key = reviews.text_key
    student_keys = {key(t) for t in data["train"]["text"]}
    teacher_keys = {key(t) for t in teacher_train["text"]}
    for split in ("val", "test"):
        texts = data[split]["text"]
        # word for word (punctuation and emoji ignored) and, a fortiori, exactly
        assert not [t for t in texts if key(t) in student_keys], split
        assert not [t for t in texts if key(t) in teacher_keys], split
        assert not set(texts) & set(teacher_train["text"]), split
    assert not {key(t) for t in data["test"]["text"]} & {key(t) for t in data["val"]["text"]}


def test_text_key_ignores_punctuation_and_emoji_only():
    assert reviews.text_key("দাম ন্যায্য 👍") == reviews.text_key("দাম, ন্যায্য।।") == "দাম ন্যায্য"
    assert reviews.text_key("দাম ন্যায্য না") != reviews.text_key("দাম ন্যায্য")


def test_time_interleaved_rotates_order_warms_up_and_records_spread():
    calls = []
    fns = {name: (lambda name=name: calls.append(name)) for name in "ABC"}
    times = time_interleaved(fns, repeats=5, warmup=2)
    assert calls[:6] == list("ABCABC")                       # warm-up, untimed
    assert calls[6:] == list("ABC" "BCA" "CAB" "ABC" "BCA")  # rounds, order rotated
    assert all(len(t.runs) == 5 for t in times.values())


def test_timing_fields_and_faster():
    slow = time_interleaved({"slow": lambda: time.sleep(0.004)}, repeats=5)["slow"]
    quick = Timing([0.001, 0.0011, 0.0012, 0.001, 0.0013])
    f = quick.fields("t_ms", 1000)
    assert f["t_ms"] == pytest.approx(1.1) and f["t_ms_min"] == pytest.approx(1.0)
    assert f["t_ms_max"] == pytest.approx(1.3) and f["t_ms_runs"].startswith("[")
    assert faster(quick, slow) is True and faster(slow, quick) is False
    assert faster(quick, Timing([0.0012, 0.002])) == "about_equal"   # ranges overlap


def test_median_range_ranks_nonfinite_highest():
    assert median_range([3.0, 1.0, 2.0]) == (2.0, 1.0, 3.0)
    med, lo, hi = median_range([1.0, float("nan"), 2.0])
    assert med == 2.0 and lo == 1.0 and math.isnan(hi)
    assert math.isnan(median_range([float("nan")] * 3)[0])


def test_quick_runs_record_controls_spreads_and_bands(quick_runs):
    def load(name):
        return json.loads((quick_runs / f"{name}.json").read_text(encoding="utf-8"))

    distill = load("distill")
    v = distill["values"]
    assert v["hard_1000_equal_steps_steps"] == v["kd_t2_1000_steps"] > v["hard_1000_steps"]
    assert distill["data"]["teacher_extra_train_examples"] == teacher.QUICK["extra_train"]
    assert v["faster_student_than_teacher_batch1"] in (True, False, "about_equal")

    mp = load("mixed_precision")
    assert [r["run"] for r in mp["tables"]["precision_table"]["rows"]] == \
        ["fp32", "bf16 autocast", "fp16 autocast + GradScaler"]
    assert mp["config"]["device"] == "cpu" and "cuda" in mp["config"]["sizes_by_device"]
    assert mp["values"]["faster_bf16_than_fp32"] in (True, False, "about_equal")

    for name, key in (("int8_dynamic", "fp32_batch1_ms"), ("prune", "dense_batch1_ms")):
        v = load(name)["values"]
        assert v[f"{key}_min"] <= v[key] <= v[f"{key}_max"], name

    for name in ("train_deep", "explode"):
        doc = load(name)
        assert len(doc["provenance"]["seeds"]) >= 3
        for line in doc["series"]["loss_curves"]["lines"]:
            assert len(line["band"]["low"]) == len(line["band"]["high"]) == len(line["values"])

    lm = load("lowbit_llm")["values"]
    assert 0 < lm["heldout_sentences_in_train_share"] <= 1
    assert lm["perplexity_measures"].startswith("memorisation")


def test_chart_draws_a_band_when_present():
    from py_lessons.plugin.render.runs.chart import render_chart

    line = {"label": {"bn": "ক", "en": "a"}, "values": [1.0, 2.0, 3.0]}
    run = {"experiment": "x", "series": {"s": {"title": {"bn": "শিরোনাম", "en": "t"}, "x_label": {"bn": "ধাপ", "en": "x"},
                                               "y_label": {"bn": "মান", "en": "y"}, "log_y": False,
                                               "y_clip": None, "x": [1, 2, 3], "lines": [line]}}}
    plain = render_chart(run, "s")
    line["band"] = {"low": [0.5, 1.5, float("nan")], "high": [1.5, 2.5, float("nan")]}
    banded = render_chart(run, "s")
    assert "fill-opacity: 0.2" in banded and "fill-opacity: 0.2" not in plain
