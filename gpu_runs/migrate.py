"""`python -m gpu_runs migrate`: lift result files to the current schema without re-running.

Nothing measured is changed.  Version 1 -> 2 adds provenance.device's CUDA fields,
provenance.packages' accelerate and safetensors, and provenance.stand_ins, as null ("not
recorded").  Version 2 -> 3 turns each chart's English title, axis and line labels into
``{"bn": ..., "en": ...}`` (the Bangla from :data:`CHART_BN`) and rewords the Bangla column
headings in :data:`COLUMN_BN`.  Version 3 -> 4 turns the run's and each table's English title
into ``{"bn": ..., "en": ...}`` (the Bangla from :data:`TITLE_BN`) and rewords the Bangla column
headings in :data:`COLUMN_BN_4` (site/glossary.yml's choices).  Version 4 -> 5 ("one voice",
issue 24) rewords the Bangla a reader sees and nothing else: the ``bn`` of titles, column headings
and chart texts listed in :data:`LABEL_BN_5` and :data:`LINE_BN_5`, the shown text cells in
:data:`ROW_BN_5` (cells no page path or value looks up), the number formats in :data:`FORMAT_5`;
and the cells of :data:`LIST_CELLS_5`, which version 4 stored as ``repr`` text, become the lists
of numbers they spelt, so that a format can show them.  Every ``en`` and every measured number
stay as they were.
"""
from __future__ import annotations

import ast
import json
import os
from pathlib import Path

from gpu_runs import SCHEMA_VERSION, jsonio

CUDA_FIELDS = ("cuda_version", "cuda_driver_version", "gpu_name", "gpu_compute_capability")

# The Bangla of the chart texts that version-2 files hold, per experiment (the English is kept
# as "en"); since version 3 the experiments write both themselves.
_SEEDS_BN = "ছায়া: ৩টি seed-এর সর্বনিম্ন থেকে সর্বোচ্চ"
CHART_BN = {
    "explode": {
        "Training loss per step (median, band = min-max over 3 seeds)":
            f"প্রতি ধাপে প্রশিক্ষণের loss (median; {_SEEDS_BN})",
        "step": "ধাপ",
        "loss (log scale)": "loss (লগ স্কেল)",
        "no clip": "clip নেই",
        "clip_grad_value_ 0.01": "clip_grad_value_ 0.01",
        "clip_grad_norm_ 1.0": "clip_grad_norm_ 1.0",
    },
    "grad_norms": {
        "Gradient norm at each block output": "প্রতিটি block-এর output-এ gradient-এর norm",
        "layer (1 = next to the input)": "স্তর (১ = input-এর পাশেরটি)",
        "||dL/dh|| (log scale)": "||dL/dh|| (লগ স্কেল)",
        **{name: name for name in ("plain sigmoid", "plain tanh", "plain relu", "residual relu", "residual tanh")},
        "prenorm res relu": "pre-norm residual relu",
    },
    "mixed_precision": {
        "Training loss per step on CPU: fp32, bf16, fp16 + GradScaler":
            "CPU-তে প্রতি ধাপে প্রশিক্ষণের loss: fp32, bf16, fp16 + GradScaler",
        "step": "ধাপ",
        "loss": "প্রশিক্ষণের loss",
        **{name: name for name in ("fp32", "bf16 autocast", "fp16 autocast + GradScaler")},
    },
    "train_deep": {
        "Train loss per epoch, 40-layer MLPs (median, band = min-max over 3 seeds)":
            f"প্রতি epoch-এ প্রশিক্ষণের loss, ৪০ স্তরের MLP (median; {_SEEDS_BN})",
        "Validation accuracy per epoch (median, band = min-max over 3 seeds)":
            f"প্রতি epoch-এ validation accuracy (median; {_SEEDS_BN})",
        "epoch": "epoch নম্বর",
        "train loss": "প্রশিক্ষণের loss",
        "validation accuracy": "validation ডেটায় accuracy",
        "plain": "plain", "residual": "residual", "prenorm residual": "pre-norm residual",
    },
}
# "ঘর" means only a code cell in this course; a tensor's entry is an উপাদান (site/glossary.yml)
COLUMN_BN = {"fp16-এ শূন্য ঘরের ভাগ": "fp16-এ শূন্য হয়ে যাওয়া উপাদানের ভাগ"}

# The Bangla of the run and table titles that version-3 files hold, per experiment (the English
# is kept as "en"); since version 4 the experiments write both themselves.
_ROUNDS_BN = "পালা করে ৫ দফা মাপার"
TITLE_BN = {
    "clip_api": {
        "clip_grad_norm_/clip_grad_value_ return values and errors":
            "clip_grad_norm_/clip_grad_value_: ফেরত মান আর error",
        "clip_grad_norm_ and clip_grad_value_ on hand-made gradients":
            "হাতে বানানো gradient-এ clip_grad_norm_ আর clip_grad_value_",
    },
    "distill": {
        "Teacher -> BiGRU student, hard labels vs KD, 3 seeds":
            "Teacher থেকে BiGRU student: hard label বনাম KD, ৩টি seed",
        "Student test macro-F1 over seeds": "প্রতি seed-এ student-এর test macro-F1",
        "Size and CPU latency, teacher vs student (median, min, max over 5 interleaved rounds)":
            f"আকার আর CPU-তে latency, teacher বনাম student ({_ROUNDS_BN} median, সর্বনিম্ন, সর্বোচ্চ)",
    },
    "explode": {
        "Exploding 16-layer ReLU MLP, value vs norm clipping":
            "বিস্ফোরিত gradient-এ ১৬ স্তরের ReLU MLP: value বনাম norm clipping",
        "After 300 steps: median and range over 3 seeds": "৩০০ ধাপ পরে: ৩টি seed-এর median আর পরিসর",
        "Loss and pre-clip total gradient norm at selected steps (median over 3 seeds; each row also "
        "holds _min and _max)":
            "বাছাই করা ধাপে loss আর clip-এর আগের মোট gradient norm (৩টি seed-এর median; প্রতিটি সারিতে "
            "_min আর _max-ও আছে)",
    },
    "grad_norms": {
        "Per-layer gradient norms, 30 hidden layers": "প্রতিটি স্তরের gradient norm, ৩০টি hidden স্তর",
        "30 hidden layers, width 64, default init, batch 256":
            "৩০টি hidden স্তর, প্রতিটিতে ৬৪টি neuron, default init, batch ২৫৬",
    },
    "int8_dynamic": {
        "Dynamic int8 of the review classifier (torch.ao, torchao)":
            "রিভিউ classifier-এর dynamic int8 (torch.ao, torchao)",
        "Dynamic int8 of the review classifier on CPU": "CPU-তে রিভিউ classifier-এর dynamic int8",
        "CPU timings, median and range over 5 interleaved rounds":
            f"CPU-তে সময়: {_ROUNDS_BN} median আর পরিসর",
    },
    "lowbit_llm": {
        "Causal LM in bf16, bitsandbytes 8-bit and NF4": "bf16, bitsandbytes 8-bit আর NF4-এ causal LM",
        "Loading the causal LM in three precisions": "তিনটি precision-এ causal LM load করা",
    },
    "mixed_precision": {
        "fp32 vs bf16 autocast; fp16 underflow and loss scaling":
            "fp32 বনাম bf16 autocast; fp16-এর underflow আর loss scaling",
        "fp32 vs bf16 vs fp16 + GradScaler on CPU, same seed and batches":
            "CPU-তে fp32 বনাম bf16 বনাম fp16 + GradScaler, একই seed আর batch",
        "30-layer plain tanh MLP: weight-gradient norm per layer":
            "৩০ স্তরের plain tanh MLP: প্রতিটি স্তরে weight-এর gradient norm",
    },
    "prune": {
        "Magnitude and FFN-neuron pruning of the teacher, timings":
            "Teacher-এর magnitude আর FFN-neuron pruning, সময়",
        "Macro-F1 after pruning, no retraining": "Pruning-এর পরে macro-F1, আবার training ছাড়া",
        "CPU timing: dense vs pruned (median, min and max over 5 interleaved rounds)":
            f"CPU-তে সময়: dense বনাম pruned ({_ROUNDS_BN} median, সর্বনিম্ন আর সর্বোচ্চ)",
    },
    "train_deep": {
        "40-layer plain vs residual vs pre-norm MLP": "৪০ স্তরের plain বনাম residual বনাম pre-norm MLP",
        "40 hidden layers after 12 epochs: median and range over 3 seeds":
            "৪০টি hidden স্তর, ১২ epoch পরে: ৩টি seed-এর median আর পরিসর",
        "Train loss per epoch (median over 3 seeds, with min and max)":
            "প্রতি epoch-এ প্রশিক্ষণের loss (৩টি seed-এর median, সর্বনিম্ন আর সর্বোচ্চসহ)",
    },
}
# the glossary keeps "model" in English (site/glossary.yml: avoid মডেল)
COLUMN_BN_4 = {"মডেল": "model"}


# Schema 4 -> 5: one voice (issue 24).  The Bangla a reader sees, old -> new, per experiment; it is
# applied to every "bn" of the run's title, the tables' titles and column headings and the charts'
# titles and axes (the legend's words are in LINE_BN_5).  English phrases become Bangla (names
# such as fp32, clip_grad_norm_, macro-F1, pre-norm stay), "প্রশিক্ষণ" becomes "training"
# (site/glossary.yml), and a chart's numbers are written in Bangla digits (the page draws chart
# text as stored; table headings and cells get their digits from the renderer).  Since version 5
# the experiments write these words themselves.
_TIMING_BN_5 = {
    "batch ১ (ms, median)": "batch ১-এ সময়ের median (ms)",
    "পুরো test (s, median)": "পুরো test-এ সময়ের median (সেকেন্ড)",
    "batch ১ সর্বনিম্ন": "batch ১-এ সর্বনিম্ন",
    "batch ১ সর্বোচ্চ": "batch ১-এ সর্বোচ্চ",
    "পুরো test সর্বনিম্ন": "পুরো test-এ সর্বনিম্ন",
    "পুরো test সর্বোচ্চ": "পুরো test-এ সর্বোচ্চ",
}
# train_deep's epoch table: "plain min" -> "plain সর্বনিম্ন", "prenorm residual" -> "pre-norm residual"
_EPOCH_TABLE_BN_5 = {f"{kind}{suffix}": f"{label}{suffix_bn}"
                     for kind, label in (("plain", "plain"), ("residual", "residual"),
                                         ("prenorm residual", "pre-norm residual"))
                     for suffix, suffix_bn in (("", ""), (" min", " সর্বনিম্ন"), (" max", " সর্বোচ্চ"))
                     if f"{kind}{suffix}" != f"{label}{suffix_bn}"}
LABEL_BN_5 = {
    "distill": {
        "Student যা থেকে শেখে": "student যা থেকে শেখে",   # a heading's Latin word as the lessons write it
        "Label": "label-এর সংখ্যা",
        "Optimiser ধাপ": "optimizer-এর ধাপ",   # the lessons write optimizer
        "Test macro-F1 (প্রতি seed)": "প্রতি seed-এ test macro-F1",
        "Parameter": "parameter-এর সংখ্যা",
        **_TIMING_BN_5,
    },
    "explode": {
        "Clipping": "clipping",
        "loss (লগ স্কেল)": "loss (log স্কেল)",   # the lessons' cells and prose write log স্কেল
        # the row's _min and _max are JSON fields the page does not show
        "বাছাই করা ধাপে loss আর clip-এর আগের মোট gradient norm (৩টি seed-এর median; প্রতিটি সারিতে _min আর "
        "_max-ও আছে)": "বাছাই করা ধাপে loss আর clip-এর আগের মোট gradient norm (৩টি seed-এর median; সর্বনিম্ন আর "
                       "সর্বোচ্চ run-এর ফাইলে আছে)",
        f"প্রতি ধাপে প্রশিক্ষণের loss (median; {_SEEDS_BN})": f"প্রতি ধাপে training loss (median; {_SEEDS_BN})",
    },
    "grad_norms": {
        "||dL/dh|| (লগ স্কেল)": "||dL/dh|| (log স্কেল)",
        "৩০টি hidden স্তর, প্রতিটিতে ৬৪টি neuron, default init, batch ২৫৬":
            "৩০টি hidden স্তর, প্রতিটিতে ৬৪টি neuron, PyTorch-এর নিজস্ব init, batch ২৫৬",
    },
    "int8_dynamic": {"Macro-F1": "macro-F1", **_TIMING_BN_5},
    "lowbit_llm": {
        "তিনটি precision-এ causal LM load করা": "তিনটি precision-এ causal LM লোড করা",   # the lessons' লোড
        "Perplexity": "perplexity",
        "Precision": "precision",
        "Footprint (MiB)": "footprint (MiB)",
        "Peak RSS, process (MiB)": "process-এর সর্বোচ্চ RSS (MiB)",
        "Peak CUDA allocated (MiB)": "CUDA-তে সর্বোচ্চ বরাদ্দ memory (MiB)",
        "Generation (token/s, median)": "generation-এর গতির median (token/s)",
    },
    "mixed_precision": {
        "Run": "run",
        "প্রতি ধাপ (ms, median)": "প্রতি ধাপে সময়ের median (ms)",
        "validation accuracy": "validation-এ accuracy",
        "logit-এর সর্বোচ্চ পার্থক্য": "fp32-এর সঙ্গে logit-এর সর্বোচ্চ পার্থক্য",
        # the table shows five of the thirty layers, not each
        "৩০ স্তরের plain tanh MLP: প্রতিটি স্তরে weight-এর gradient norm":
            "৩০ স্তরের plain tanh MLP: বাছাই করা কয়েকটি স্তরে weight-এর gradient norm",
        **{f"{where}-তে প্রতি ধাপে প্রশিক্ষণের loss: fp32, bf16, fp16 + GradScaler":
           f"{where}-তে প্রতি ধাপে training loss: fp32, bf16, fp16 + GradScaler" for where in ("CPU", "CUDA")},
        "প্রশিক্ষণের loss": "training ডেটায় loss",   # an axis label needs Bangla script
    },
    "prune": {"Macro-F1": "macro-F1", "Encoder Linear-এর যত ভাগ শূন্য/বাদ": "encoder Linear-এর যত ভাগ শূন্য/বাদ",
              **_TIMING_BN_5},
    "train_deep": {
        "শেষ train loss (median)": "শেষ training loss (median)",
        "validation accuracy (median)": "validation-এ accuracy (median)",
        "সময় (সেকেন্ড, median)": "সময়ের median (সেকেন্ড)",
        **_EPOCH_TABLE_BN_5,
        "প্রতি epoch-এ প্রশিক্ষণের loss (৩টি seed-এর median, সর্বনিম্ন আর সর্বোচ্চসহ)":
            "প্রতি epoch-এ training loss (৩টি seed-এর median, সর্বনিম্ন আর সর্বোচ্চসহ)",
        f"প্রতি epoch-এ প্রশিক্ষণের loss, ৪০ স্তরের MLP (median; {_SEEDS_BN})":
            f"প্রতি epoch-এ training loss, ৪০ স্তরের MLP (median; {_SEEDS_BN})",
        f"প্রতি epoch-এ validation accuracy (median; {_SEEDS_BN})":
            f"প্রতি epoch-এ validation ডেটায় accuracy (median; {_SEEDS_BN})",
        "প্রশিক্ষণের loss": "training ডেটায় loss",   # an axis label needs Bangla script
    },
}
# Chart line labels (the legend), old -> new, per experiment: kept apart from LABEL_BN_5 because a
# legend may already read what a heading becomes (train_deep's "pre-norm residual").
LINE_BN_5 = {
    "explode": {"clip_grad_value_ 0.01": "clip_grad_value_ ০.০১", "clip_grad_norm_ 1.0": "clip_grad_norm_ ১.০"},
}
# Text cells a table shows, old -> new, per experiment, table and column.  Only cells that no page
# path (tables.X.rows[col=...]) and no value reads: the values keep their English.
_STATUS_BN_5 = {"ok": "চলেছে", "unavailable": "পাওয়া যায়নি", "failed": "ব্যর্থ",
                "failed at inference": "inference-এ ব্যর্থ",
                "no-op: weights left in fp32": "কিছুই বদলায়নি: weight fp32-এই"}
ROW_BN_5 = {
    "clip_api": {"clip_table": {"case": {
        "g = [0.3, 0.4], max_norm 5 (small)": "g = [0.3, 0.4], max_norm 5 (ছোট)",
        "g = [3.0, 4.0, 12.0]": "g = [3, 4, 12]",
        "g = [-3.0, 0.5, 2.0]": "g = [\u22123, 0.5, 2]",   # the minus sign the number formatter writes
    }}},
    "explode": {"summary_table": {"mode": {"no clip": "clip নেই"}}},
    "grad_norms": {"per_layer": {"model": {"prenorm res relu": "pre-norm residual relu"}}},
    "int8_dynamic": {"quant_table": {"status": _STATUS_BN_5},
                     "timing_table": {c: {"about_equal": "প্রায় সমান"} for c in ("batch1_vs_fp32", "full_vs_fp32")}},
    "lowbit_llm": {"lowbit_table": {"status": _STATUS_BN_5}},
    "prune": {"prune_table": {"method": {"Magnitude, unstructured": "ছোট |w|-এর weight (unstructured)"}}},
    "train_deep": {"final_table": {"model": {"prenorm residual": "pre-norm residual"}}},
}
# Number formats, old -> new, per experiment, table and column (None: the column had none).
# ".3g" prints a number from 0.0001 to 999 plainly ("৬.০৮", not "৬.০৮ × ১০⁰"), ".4g" up to 9999
# (explode's norms reach the thousands); both keep powers of ten for the tiny and the huge.
# ".7g" is about float32's precision.
FORMAT_5 = {
    # "code": the call as written, in code type, its digits Latin ("clip_grad_norm_(max_norm=5)")
    "clip_api": {"clip_table": {"after": (None, ".7g"), "function": (None, "code")}},
    # counts of a thousand and more grouped the Indian way, as the prose and the row labels write them
    # ("১,০০০ label"): "," (py_lessons.runtime.numbers.format_number)
    "distill": {"kd_table": {"labels": (None, ",")}, "cost_table": {"parameters": (None, ",")}},
    "explode": {"summary_table": {c: (".3g", ".4g") for c in ("final_norm_median", "final_norm_min",
                                                                "final_norm_max")},
                "steps_table": {c: (".3g", ".4g") for c in ("none_norm", "value_norm", "norm_norm")}},
    "int8_dynamic": {"quant_table": {"same_decisions": (None, ",")}},
    "grad_norms": {"per_layer": {c: (".1e", ".3g") for c in ("l1", "l5", "l10", "l20", "l30",
                                                             "first_over_last")}},
    "mixed_precision": {"precision_table": {c: (".2e", ".3g") for c in ("max_loss_diff", "max_logit_diff")},
                        "underflow_table": {c: (".2e", ".3g") for c in ("fp32", "fp16", "fp16_scaled")}},
    "train_deep": {"final_table": {"layer1_grad_median": (".1e", ".3g")}},
}
# Cells version 4 stored as the repr of a list (clip_api's gradients after clipping, 17 digits
# wide): the list of numbers itself, one entry per parameter, so FORMAT_5 applies to each number.
LIST_CELLS_5 = {"clip_api": {"clip_table": ("after",)}}


def _to_v2(raw: dict) -> None:
    prov = raw["provenance"]
    for key in CUDA_FIELDS:
        prov["device"].setdefault(key, None)
    for pkg in ("accelerate", "safetensors"):
        prov["packages"].setdefault(pkg, None)
    prov.setdefault("stand_ins", None)


def _translator(name: str, bangla: dict[str, str], what: str, table_name: str):
    """``label(en, where)`` -> {"bn", "en"} from ``bangla``; a text it lacks stops the migration,
    naming the experiment, the place and the table to add it to."""
    def label(en: str, where: str) -> dict:
        if en not in bangla:
            raise ValueError(f"experiment {name!r}, {where}: no Bangla for the {what} {en!r}; add it to "
                             f"gpu_runs.migrate.{table_name} or re-run the experiment")
        return {"bn": bangla[en], "en": en}
    return label


def _to_v3(raw: dict) -> None:
    name = raw["experiment"]
    label = _translator(name, CHART_BN.get(name, {}), "chart text", "CHART_BN")
    for key, series in raw["series"].items():
        for field in ("title", "x_label", "y_label"):
            series[field] = label(series[field], f"series {key!r} {field}")
        for line in series["lines"]:
            line["label"] = label(line["label"], f"series {key!r} line")
    for table in raw["tables"].values():
        for column in table["columns"]:
            column["bn"] = COLUMN_BN.get(column["bn"], column["bn"])


def _to_v4(raw: dict) -> None:
    name = raw["experiment"]
    label = _translator(name, TITLE_BN.get(name, {}), "title", "TITLE_BN")
    raw["title"] = label(raw["title"], "run title")
    for key, table in raw["tables"].items():
        table["title"] = label(table["title"], f"table {key!r} title")
        for column in table["columns"]:
            column["bn"] = COLUMN_BN_4.get(column["bn"], column["bn"])


def _as_number_list(text: str, where: str) -> list:
    """A repr'd list of parameters' gradients as numbers; a flat list is one parameter's."""
    value = ast.literal_eval(text)
    if not isinstance(value, list) or not value:
        raise ValueError(f"{where}: expected the text of a list, got {text!r}")
    return value if isinstance(value[0], list) else [value]


def _to_v5(raw: dict) -> None:
    name = raw["experiment"]
    words = LABEL_BN_5.get(name, {})

    def reword(label: dict) -> None:
        label["bn"] = words.get(label["bn"], label["bn"])

    reword(raw["title"])
    for key, table in raw["tables"].items():
        reword(table["title"])
        formats = FORMAT_5.get(name, {}).get(key, {})
        for column in table["columns"]:
            reword(column)
            if column["key"] in formats:
                old, new = formats[column["key"]]
                if column.get("format") != old:
                    raise ValueError(f"experiment {name!r}, table {key!r}, column {column['key']!r}: format "
                                     f"{column.get('format')!r}, expected {old!r} (gpu_runs.migrate.FORMAT_5)")
                column["format"] = new
        cells = ROW_BN_5.get(name, {}).get(key, {})
        lists = LIST_CELLS_5.get(name, {}).get(key, ())
        for i, row in enumerate(table["rows"]):
            for column, texts in cells.items():
                if isinstance(row.get(column), str):
                    row[column] = texts.get(row[column], row[column])
            for column in lists:
                if isinstance(row.get(column), str):
                    row[column] = _as_number_list(row[column], f"experiment {name!r}, table {key!r}, "
                                                                f"row {i}, {column!r}")
    for series in raw["series"].values():
        for field in ("title", "x_label", "y_label"):
            reword(series[field])
        for line in series["lines"]:
            line["label"]["bn"] = LINE_BN_5.get(name, {}).get(line["label"]["bn"], line["label"]["bn"])


STEPS = {1: _to_v2, 2: _to_v3, 3: _to_v4, 4: _to_v5}     # version -> the step that lifts a file from it


def migrate_doc(raw: dict) -> bool:
    """Upgrade an encoded document in place; True when it changed."""
    version = raw.get("schema_version")
    if version == SCHEMA_VERSION:
        return False
    if version not in STEPS:
        raise ValueError(f"cannot migrate schema version {version!r} (this code writes {SCHEMA_VERSION})")
    while version != SCHEMA_VERSION:
        STEPS[version](raw)
        version += 1
    raw["schema_version"] = SCHEMA_VERSION
    return True


def migrate_folder(folder: Path) -> list[Path]:
    changed = []
    for path in sorted(Path(folder).glob("*.json")):
        if jsonio.parse_result_filename(path.name) is None:
            continue
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not migrate_doc(raw):
            continue
        jsonio.validate(raw, where=f"{path.name} (migrated)")
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(jsonio.dumps(raw), encoding="utf-8")
        os.replace(tmp, path)
        changed.append(path)
    return changed
