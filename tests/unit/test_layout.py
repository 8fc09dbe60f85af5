"""The layout's promises: the engine is a library that does not import MkDocs (only the adapter
does), and no test module imports another test module (helpers live in tests/support)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from support.site import ROOT

PACKAGE = ROOT / "py_lessons"
ADAPTER = PACKAGE / "plugin" / "mkdocs_adapter.py"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_only_the_adapter_imports_mkdocs():
    importers = sorted(str(path.relative_to(ROOT)) for path in PACKAGE.rglob("*.py")
                       if any(name.split(".")[0] == "mkdocs" for name in _imports(path)))
    assert importers == [str(ADAPTER.relative_to(ROOT))]


def test_the_engine_runs_without_mkdocs_loaded():
    code = ("import sys\nimport py_lessons.plugin.engine, py_lessons.plugin.scaffold\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'mkdocs'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_no_test_module_imports_another():
    tests = ROOT / "tests"
    modules = {path.stem for path in tests.rglob("test_*.py")} | {"conftest"}
    offenders = []
    for path in tests.rglob("*.py"):
        for name in _imports(path):
            if name.split(".")[0] in modules:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_the_browser_runtime_is_standard_library_only_at_import():
    code = ("import sys\nbefore = set(sys.modules)\nimport py_lessons.runtime.session\n"
            "new = set(sys.modules) - before\n"
            "print(sorted(n for n in new if n.split('.')[0] not in sys.stdlib_module_names"
            " and n.split('.')[0] != 'py_lessons'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_test_module_is_collected():
    """pytest skips some folder names (build, dist, venv...) by default: no test file may be
    silently left out of `./pathshala test`."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True)
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    on_disk = {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")}
    assert on_disk - collected == set()
