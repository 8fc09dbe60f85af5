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
    titles, the charts' labels and the tables' Bangla headings; what was measured and where stays."""
    out = json.loads(json.dumps(doc))
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
    return out


def bangla_texts(doc: dict) -> list[tuple[str, str]]:
    """Every Bangla text a reader sees of a schema-4 result document, as (where, text)."""
    found = [("title", doc["title"]["bn"])]
    for key, table in doc["tables"].items():
        found.append((f"tables.{key}.title", table["title"]["bn"]))
        found += [(f"tables.{key}.columns.{c['key']}", c["bn"]) for c in table["columns"]]
    for key, series in doc["series"].items():
        found += [(f"series.{key}", label["bn"]) for label in chart_labels(series)]
    return found


def avoided_variants(doc: dict) -> list[str]:
    """The glossary's variants to avoid (site/glossary.yml `avoid`) in a result's Bangla texts, each
    as "where: 'text': advice"."""
    rules = avoid_rules(yaml.safe_load(GLOSSARY.read_text(encoding="utf-8")))
    return [f"{where}: {text!r}: {rule.advice}" for where, text in bangla_texts(doc)
            for rule in rules if rule.pattern.search(text)]
