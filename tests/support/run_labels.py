"""Chart labels of gpu_runs result documents: read them, and undo or strip them (for the
migration tests)."""
import json


CHART_TEXTS = ("title", "x_label", "y_label")


def chart_labels(series: dict) -> list[dict]:
    """A series' {"bn", "en"} labels: title, axes, then each line's."""
    return [series[name] for name in CHART_TEXTS] + [line["label"] for line in series["lines"]]


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
    charts' labels and the tables' Bangla headings; what was measured and where stays."""
    out = json.loads(json.dumps(doc))
    del out["schema_version"]
    for series in out["series"].values():
        for name in CHART_TEXTS:
            del series[name]
        for line in series["lines"]:
            del line["label"]
    for table in out["tables"].values():
        for column in table["columns"]:
            del column["bn"]
    return out
