"""The "my work" file's JSON schema (py_lessons/plugin/schemas/work-export.schema.json) is a valid
schema that accepts a file as my-work.js writes it and refuses what the page refuses. A file
exported by real Chromium is checked against it in tests/browser/test_my_work.py."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from support.work import SCHEMA

VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")),
                                            format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
GOOD = {
    "format": "pathshala-work", "version": 2, "site": "pathshala-4a3a918d7e", "course": "পাঠশালা",
    "exported": "2026-03-01T10:00:00.000Z",
    "learner": {"id": "0b5c9a52-5d0e-4a8e-9f3c-2d1e6f7a8b90", "name": "রাহেলা"},
    "items": [
        {"key": "cell:/lessons/optimization/:opt-try", "value": "print(42)\n", "saved": "2026-03-01T09:59:00.000Z"},
        {"key": "mcq:/lessons/optimization/:opt-q1", "value": {"choice": 1, "first": 0, "tries": 2}, "saved": None},
        {"key": "complete:optimization", "value": True, "saved": "2026-02-01T08:00:00Z"},
    ],
}


def test_the_schema_is_valid_and_takes_a_written_file():
    jsonschema.Draft202012Validator.check_schema(VALIDATOR.schema)
    VALIDATOR.validate(GOOD)


def _changed(path, value):
    data = copy.deepcopy(GOOD)
    *parents, last = path
    target = data
    for step in parents:
        target = target[step]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return data


@pytest.mark.parametrize("path, value", [
    (("version",), 3),                                  # a later version: this reader refuses it
    (("version",), 1),                                  # an earlier one: the page migrates it, never writes it
    (("learner",), KeyError),                           # a written file always says whose work it is
    (("learner", "id"), "x"),
    (("learner", "name"), "ন" * 101),
    (("format",), "jupyter"),
    (("site",), KeyError),
    (("exported",), "yesterday"),
    (("items", 0, "key"), "no-kind-here"),
    (("items", 0, "value"), None),
    (("items", 0, "saved"), "soon"),
    (("items", 1, "saved"), KeyError),                  # undated is written as null, never left out
    (("items", 2, "extra"), 1),
])
def test_the_schema_refuses_what_the_page_refuses(path, value):
    assert list(VALIDATOR.iter_errors(_changed(path, value)))


def test_the_page_reads_the_files_format_version_and_key_pattern_from_this_schema():
    """my-work.js and lib/store.js take what a work file is from site.js, which the build writes
    from the schema itself: the page and the schema cannot disagree on these."""
    import re

    from py_lessons.plugin.ship.writer import work_file_format

    schema = VALIDATOR.schema
    assert work_file_format() == {"format": schema["properties"]["format"]["const"],
                                  "version": schema["properties"]["version"]["const"],
                                  "keyPattern": schema["properties"]["items"]["items"]["properties"]["key"]["pattern"]}
    assert re.fullmatch(work_file_format()["keyPattern"].strip("^$"), "cell:/lessons/optimization/:opt-try")
    store = (SCHEMA.parents[1] / "assets" / "lib" / "store.js").read_text(encoding="utf-8")
    assert "new RegExp(workFile.keyPattern)" in store and "KIND:REST" in store
    work = (SCHEMA.parents[1] / "assets" / "components" / "my-work.js").read_text(encoding="utf-8")
    assert '"pathshala-work"' not in work and "VERSION = 1" not in work  # no second copy of the schema's constants
