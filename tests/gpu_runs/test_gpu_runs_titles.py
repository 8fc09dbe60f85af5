"""Tables speak Bangla too: the run's and each table's title are {"bn", "en"} (schema 4), the
Bangla headings keep to site/glossary.yml, validation names what lacks Bangla, and the migration
from schema 3 translates titles without touching what was measured."""
import json

import pytest
from support.run_labels import (
    BENGALI,
    SCHEMA_3_HEADINGS,
    as_schema_3,
    as_schema_4,
    avoided_variants,
    committed,
    without_chart_text,
)

from gpu_runs import SCHEMA_VERSION, jsonio, migrate
from gpu_runs.registry import EXPERIMENTS


def test_committed_titles_are_bangla_with_english_and_the_labels_keep_to_the_glossary():
    tables = 0
    for name in sorted(EXPERIMENTS):
        doc = committed(name)
        titles = [doc["title"]] + [table["title"] for table in doc["tables"].values()]
        for title in titles:
            assert BENGALI.search(title["bn"]) and title["en"], (name, title)
        tables += len(titles) - 1
        assert avoided_variants(doc) == [], name
    assert tables == 15
    assert committed("grad_norms")["tables"]["per_layer"]["columns"][0]["bn"] == "model"


def test_the_glossary_check_catches_an_avoided_variant_in_a_heading_or_title():
    doc = committed("train_deep")
    doc["tables"]["final_table"]["columns"][0]["bn"] = "মডেল"
    doc["tables"]["epoch_table"]["title"]["bn"] = "প্রতি epoch-এ মডেলের loss"
    assert avoided_variants(doc) == [
        "tables.final_table.columns.model: 'মডেল': write 'model', not 'মডেল' (glossary: model)",
        "tables.epoch_table.title: 'প্রতি epoch-এ মডেলের loss': write 'model', not 'মডেল' (glossary: model)",
    ]


@pytest.mark.parametrize("spoil, problem", [
    (lambda d: d["tables"]["per_layer"].update(title="30 hidden layers"),
     "experiment 'grad_norms', table 'per_layer': title is '30 hidden layers', not"),
    (lambda d: d["tables"]["per_layer"]["title"].update(bn="30 hidden layers"),
     "experiment 'grad_norms', table 'per_layer': title has no Bangla text"),
    (lambda d: d["title"].pop("bn"),
     "experiment 'grad_norms': the run's title is \\{'en': "),
])
def test_a_title_without_bangla_fails_validation_naming_experiment_and_table(spoil, problem):
    doc = committed("grad_norms")
    jsonio.validate(doc)
    spoil(doc)
    with pytest.raises(ValueError, match=f"grad_norms.json: {problem}"):
        jsonio.validate(doc, where="grad_norms.json")


def test_migration_from_schema_3_translates_titles_and_leaves_the_numbers(tmp_path):
    names = sorted(EXPERIMENTS)
    old = {name: as_schema_3(as_schema_4(committed(name)), SCHEMA_3_HEADINGS) for name in names}
    assert old["grad_norms"]["tables"]["per_layer"]["columns"][0]["bn"] == "মডেল"
    for name in names:
        (tmp_path / f"{name}.json").write_text(jsonio.dumps(old[name]), encoding="utf-8")
        with pytest.raises(ValueError, match="gpu_runs migrate"):
            jsonio.validate(old[name])

    assert migrate.migrate_folder(tmp_path) == [tmp_path / f"{name}.json" for name in names]
    for name in names:
        new = json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))
        assert new["schema_version"] == SCHEMA_VERSION == 5
        assert without_chart_text(new) == without_chart_text(old[name]), name     # values, provenance, keys
        assert new["title"]["en"] == old[name]["title"]
        assert {k: t["title"]["en"] for k, t in new["tables"].items()} == \
            {k: t["title"] for k, t in old[name]["tables"].items()}
        assert avoided_variants(new) == [], name
    per_layer = json.loads((tmp_path / "grad_norms.json").read_text(encoding="utf-8"))["tables"]["per_layer"]
    assert per_layer["title"] == {"bn": "৩০টি hidden স্তর, প্রতিটিতে ৬৪টি neuron, PyTorch-এর নিজস্ব init, batch ২৫৬",
                                  "en": "30 hidden layers, width 64, default init, batch 256"}
    assert per_layer["columns"][0] == {"key": "model", "bn": "model", "en": "model"}

    before = {p.name: p.read_bytes() for p in tmp_path.glob("*.json")}
    assert migrate.migrate_folder(tmp_path) == []                      # idempotent
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.json")} == before


def test_migration_refuses_a_title_it_has_no_bangla_for(tmp_path):
    old = as_schema_3(as_schema_4(committed("explode")), SCHEMA_3_HEADINGS)
    old["tables"]["summary_table"]["title"] = "After 500 steps (new wording)"
    (tmp_path / "explode.json").write_text(jsonio.dumps(old), encoding="utf-8")
    with pytest.raises(ValueError, match="experiment 'explode', table 'summary_table' title: no Bangla"):
        migrate.migrate_folder(tmp_path)
    assert json.loads((tmp_path / "explode.json").read_text(encoding="utf-8")) == old   # left as it was
