"""The early start of Python from a page's <head> (ship/writer.py early_python) names its worker as
python/protocol.js says, and chooses as python/worker.js would from the cells' code."""

from __future__ import annotations

import re
from pathlib import Path

from py_lessons.plugin.ship.writer import CALLS_INPUT, EARLY_START, early_python

ASSETS = Path(__file__).parents[2] / "py_lessons" / "plugin" / "assets" / "python"


def test_the_names_are_the_protocols():
    protocol = (ASSETS / "protocol.js").read_text(encoding="utf-8")
    line = re.search(r"export const EARLY_START = Object\.freeze\(\{(.*?)\}\)", protocol).group(1)
    names = dict(re.findall(r'(\w+): "([^"]*)"', line))
    assert names == {"START": EARLY_START["start"], "READS_INPUT": EARLY_START["reads_input"]}


def test_the_input_pattern_is_the_workers():
    worker = (ASSETS / "worker.js").read_text(encoding="utf-8")
    pattern = re.search(r"const usesInput = \(code\) => /(.*?)/\.test\(code\);", worker).group(1)
    assert pattern == CALLS_INPUT.pattern


def test_a_page_whose_cell_calls_input_says_so():
    reads = early_python("../", ["import numpy as np", 'name = input("নাম? ")'])
    plain = early_python("../", ["import numpy as np", "inputs = [1, 2]", "print(len(inputs))"])
    assert f'name:"{EARLY_START["reads_input"]}"' in reads
    assert f'name:"{EARLY_START["start"]}"' in plain
    # relative to the page, and never where the reader asked the browser to save data
    assert '"../assets/pathshala/python/worker.js"' in plain and "saveData" in plain
