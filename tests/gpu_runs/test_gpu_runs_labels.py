"""Charts speak Bangla: result files carry {"bn", "en"} chart labels, validation names what lacks
Bangla, and the migration translates schema-2 files without touching what was measured."""
import json

import pytest
from support.gpu_runs import RESULTS
from support.run_labels import (
    BENGALI,
    CHART_TEXTS,
    SCHEMA_3_HEADINGS,
    as_schema_2,
    as_schema_3,
    as_schema_4,
    chart_labels,
    committed,
    without_chart_text,
)

from gpu_runs import SCHEMA_VERSION, jsonio, migrate
from gpu_runs.registry import EXPERIMENTS

RELABELLED = {"fp16-এ শূন্য হয়ে যাওয়া উপাদানের ভাগ": "fp16-এ শূন্য ঘরের ভাগ"}   # schema 3 -> its schema-2 words


def test_committed_charts_have_bangla_titles_and_axes_and_no_ghor():
    seen = 0
    for name in sorted(EXPERIMENTS):
        doc = committed(name)
        for series in doc["series"].values():
            for text in CHART_TEXTS:
                assert BENGALI.search(series[text]["bn"]), (name, text, series[text])
            for label in chart_labels(series):
                assert label["bn"] and label["en"], (name, label)
            seen += 1
        headings = [c["bn"] for table in doc["tables"].values() for c in table["columns"]]
        assert not [h for h in headings if "ঘর" in h], name      # "ঘর" is a code cell in this course
    assert seen == 5


@pytest.mark.parametrize("spoil, problem", [
    (lambda s: s["x_label"].pop("bn"), r"x_label is \{'en': 'step'\}"),
    (lambda s: s.update(title="Training loss per step"), "title is 'Training loss per step'"),
    (lambda s: s["y_label"].update(bn="loss (log scale)"), "y_label has no Bangla text"),
    (lambda s: s["lines"][2]["label"].update(bn=""), r"lines\[2\].label is"),
])
def test_a_chart_label_without_bangla_fails_validation_naming_experiment_and_series(spoil, problem):
    doc = committed("explode")
    jsonio.validate(doc)
    spoil(doc["series"]["loss_curves"])
    with pytest.raises(ValueError, match=f"explode.json: experiment 'explode', series 'loss_curves': {problem}"):
        jsonio.validate(doc, where="explode.json")


def test_migration_translates_schema_2_charts_and_leaves_the_numbers(tmp_path):
    names = sorted(EXPERIMENTS)
    old = {name: as_schema_2(as_schema_3(as_schema_4(committed(name)), SCHEMA_3_HEADINGS), RELABELLED)
           for name in names}
    assert old["explode"]["series"]["loss_curves"]["x_label"] == "step"
    for name in names:
        (tmp_path / f"{name}.json").write_text(jsonio.dumps(old[name]), encoding="utf-8")
        with pytest.raises(ValueError, match="gpu_runs migrate"):
            jsonio.validate(old[name])

    assert migrate.migrate_folder(tmp_path) == [tmp_path / f"{name}.json" for name in names]
    for name in names:
        text = (tmp_path / f"{name}.json").read_text(encoding="utf-8")
        new = json.loads(text)
        assert new["schema_version"] == SCHEMA_VERSION == 5
        # what was measured, and where, is exactly the schema-2 file's
        assert without_chart_text(new) == without_chart_text(old[name]), name
        for key, series in new["series"].items():
            was = old[name]["series"][key]
            assert [label["en"] for label in chart_labels(series)] == \
                [was[t] for t in CHART_TEXTS] + [line["label"] for line in was["lines"]]
        assert text == (RESULTS / f"{name}.json").read_text(encoding="utf-8"), name   # the committed file
    zero_share = json.loads((tmp_path / "mixed_precision.json").read_text(encoding="utf-8"))
    new_headings = [c["bn"] for c in zero_share["tables"]["underflow_table"]["columns"]]
    assert "fp16-এ শূন্য হয়ে যাওয়া উপাদানের ভাগ" in new_headings and "fp16-এ শূন্য ঘরের ভাগ" not in new_headings

    before = {p.name: p.read_bytes() for p in tmp_path.glob("*.json")}
    assert migrate.migrate_folder(tmp_path) == []                      # idempotent
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.json")} == before


def test_migration_refuses_a_chart_text_it_has_no_bangla_for(tmp_path):
    old = as_schema_2(as_schema_3(as_schema_4(committed("train_deep")), SCHEMA_3_HEADINGS), RELABELLED)
    old["series"]["val_acc_curves"]["y_label"] = "val accuracy (new wording)"
    (tmp_path / "train_deep.json").write_text(jsonio.dumps(old), encoding="utf-8")
    with pytest.raises(ValueError, match="experiment 'train_deep', series 'val_acc_curves' y_label: no Bangla"):
        migrate.migrate_folder(tmp_path)
    assert json.loads((tmp_path / "train_deep.json").read_text(encoding="utf-8")) == old   # left as it was
