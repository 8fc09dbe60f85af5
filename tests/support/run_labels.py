"""Chart labels and titles of gpu_runs result documents: read them, undo or strip them (for the
migration tests), and find glossary variants to avoid in their Bangla."""
import json
import re
from pathlib import Path

import yaml

from py_lessons.plugin.page.prose_checks import avoid_rules

GLOSSARY = Path(__file__).resolve().parents[2] / "site" / "glossary.yml"


BENGALI = re.compile("[\u0980-\u09ff]")
CHART_TEXTS = ("title", "x_label", "y_label")
# schema 4's Bangla column headings -> the words schema 3 wrote (site/glossary.yml keeps "model")
SCHEMA_3_HEADINGS = {"model": "মডেল"}


def committed(name: str) -> dict:
    """The committed result file of experiment ``name``."""
    from .gpu_runs import RESULTS

    return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))


def chart_labels(series: dict) -> list[dict]:
    """A series' {"bn", "en"} labels: title, axes, then each line's."""
    return [series[name] for name in CHART_TEXTS] + [line["label"] for line in series["lines"]]


def as_schema_4(doc: dict) -> dict:
    """A copy of a schema-5 result document as schema 4 wrote it: gpu_runs.migrate's one-voice
    tables (LABEL_BN_5, LINE_BN_5, ROW_BN_5, FORMAT_5) read backwards, and the list cells of
    LIST_CELLS_5 as the repr text schema 4 stored (clip_grad_value_'s one tensor unwrapped)."""
    from gpu_runs import migrate

    old = json.loads(json.dumps(doc))
    old["schema_version"] = 4
    name = old["experiment"]
    words = {new: was for was, new in migrate.LABEL_BN_5.get(name, {}).items()}
    legend = {new: was for was, new in migrate.LINE_BN_5.get(name, {}).items()}
    for label in [old["title"]] + [s[t] for s in old["series"].values() for t in CHART_TEXTS]:
        label["bn"] = words.get(label["bn"], label["bn"])
    for line in (line for s in old["series"].values() for line in s["lines"]):
        line["label"]["bn"] = legend.get(line["label"]["bn"], line["label"]["bn"])
    for key, table in old["tables"].items():
        table["title"]["bn"] = words.get(table["title"]["bn"], table["title"]["bn"])
        formats = migrate.FORMAT_5.get(name, {}).get(key, {})
        for column in table["columns"]:
            column["bn"] = words.get(column["bn"], column["bn"])
            if column["key"] in formats:
                was = formats[column["key"]][0]
                column.pop("format") if was is None else column.update(format=was)
        cells = {col: {new: was for was, new in texts.items()}
                 for col, texts in migrate.ROW_BN_5.get(name, {}).get(key, {}).items()}
        for row in table["rows"]:
            for col, texts in cells.items():
                if isinstance(row.get(col), str):
                    row[col] = texts.get(row[col], row[col])
            for col in migrate.LIST_CELLS_5.get(name, {}).get(key, ()):
                flat = row.get("function", "").startswith("clip_grad_value_")
                row[col] = repr(row[col][0] if flat else row[col])
    return old


def as_schema_3(doc: dict, column_bn: dict[str, str]) -> dict:
    """A copy of a schema-4 result document as schema 3 wrote it: the run's and tables' titles
    plain English, the Bangla column headings ``column_bn`` maps back to their old wording."""
    old = json.loads(json.dumps(doc))
    old["schema_version"] = 3
    old["title"] = old["title"]["en"]
    for table in old["tables"].values():
        table["title"] = table["title"]["en"]
        for column in table["columns"]:
            column["bn"] = column_bn.get(column["bn"], column["bn"])
    return old


def as_schema_2(doc: dict, column_bn: dict[str, str]) -> dict:
    """A copy of a schema-3 result document as schema 2 wrote it: chart labels plain English, the
    Bangla column headings ``column_bn`` maps back to their old wording."""
    old = json.loads(json.dumps(doc))
    old["schema_version"] = 2
    for series in old["series"].values():
        for name in CHART_TEXTS:
            series[name] = series[name]["en"]
        for line in series["lines"]:
            line["label"] = line["label"]["en"]
    for table in old["tables"].values():
        for column in table["columns"]:
            column["bn"] = column_bn.get(column["bn"], column["bn"])
    return old


def without_chart_text(doc: dict) -> dict:
    """A copy of a result document without what a migration may reword: the schema version, the
    titles, the charts' labels, the tables' Bangla headings and number formats, and the shown
    cells schema 5 reworded (gpu_runs.migrate.ROW_BN_5, LIST_CELLS_5; test_gpu_runs_voice.py
    checks those); what was measured and where stays."""
    from gpu_runs import migrate

    out = json.loads(json.dumps(doc))
    for key, table in out["tables"].items():
        reworded = set(migrate.ROW_BN_5.get(out["experiment"], {}).get(key, {}))
        reworded |= set(migrate.LIST_CELLS_5.get(out["experiment"], {}).get(key, ()))
        for row in table["rows"]:
            for col in reworded & set(row):
                del row[col]
    del out["schema_version"], out["title"]
    for table in out["tables"].values():
        del table["title"]
    for series in out["series"].values():
        for name in CHART_TEXTS:
            del series[name]
        for line in series["lines"]:
            del line["label"]
    for table in out["tables"].values():
        for column in table["columns"]:
            del column["bn"]
            column.pop("format", None)
    return out


def bangla_texts(doc: dict, *, cells: bool = False) -> list[tuple[str, str]]:
    """Every Bangla text a reader sees of a result document, as (where, text); ``cells`` adds the
    tables' shown text cells (but not the language model's generated text)."""
    found = [("title", doc["title"]["bn"])]
    for key, table in doc["tables"].items():
        found.append((f"tables.{key}.title", table["title"]["bn"]))
        found += [(f"tables.{key}.columns.{c['key']}", c["bn"]) for c in table["columns"]]
        if cells:
            found += [(f"tables.{key}.rows[{i}].{c['key']}", row[c["key"]]) for i, row in enumerate(table["rows"])
                      for c in table["columns"] if isinstance(row.get(c["key"]), str) and c["key"] != "generated"
                      and row[c["key"]] not in ("NaN", "Infinity", "-Infinity")]     # numbers, as stored
    for key, series in doc["series"].items():
        found += [(f"series.{key}", label["bn"]) for label in chart_labels(series)]
    return found


def avoided_variants(doc: dict) -> list[str]:
    """The glossary's variants to avoid (site/glossary.yml `avoid`) in a result's Bangla texts and
    shown text cells, each as "where: 'text': advice"."""
    rules = avoid_rules(yaml.safe_load(GLOSSARY.read_text(encoding="utf-8")))
    return [f"{where}: {text!r}: {rule.advice}" for where, text in bangla_texts(doc, cells=True)
            for rule in rules if rule.pattern.search(text)]
