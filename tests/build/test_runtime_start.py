"""What start.js does to the Python every page and the build start (through the build's runner,
which calls the same startRuntime as a reader's worker)."""

from __future__ import annotations

import pytest

from py_lessons.plugin.execute.runner import PyodideRunner


@pytest.fixture(scope="module")
def runner(built_site):
    started = PyodideRunner(built_site / "pyodide")
    yield started
    started.close()


# After invalidate_caches() (Pyodide calls it after every package load): do the standard library's
# zip importers hold the directories they had, and does a reader's own zip show a file added to it?
KEPT_AND_REREAD = '''
import importlib, sys, zipfile, zipimport
stdlib = [i for i in sys.path_importer_cache.values() if isinstance(i, zipimport.zipimporter)]
held = [i._files for i in stdlib]
with zipfile.ZipFile("/tmp/mine.zip", "w") as z:
    z.writestr("mine_a.py", "A = 1\\n")
sys.path.insert(0, "/tmp/mine.zip")
import mine_a
with zipfile.ZipFile("/tmp/mine.zip", "a") as z:
    z.writestr("mine_b.py", "B = 2\\n")
importlib.invalidate_caches()
import mine_b
print(len(stdlib) > 3, all(i._files is h for i, h in zip(stdlib, held)), mine_a.A + mine_b.B)
'''


def test_a_package_load_keeps_the_standard_librarys_zip_directory_and_rereads_a_readers_zip(runner):
    answer = runner.run(KEPT_AND_REREAD, None, "zips", 120)
    assert answer["result"]["ok"], answer["result"]
    printed = "".join(item["text"] for item in answer["items"] if item["type"] == "stdout")
    assert printed.split() == ["True", "True", "3"]
