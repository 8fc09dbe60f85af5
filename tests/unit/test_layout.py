"""The layout's promises (README.md's map of the architecture):

* the plugin is laid out by stage, and a stage imports only the stages below it (STAGE_RULES);
  only the adapter imports MkDocs;
* the runtime that ships to the browser has no import circle, imports only the standard library at
  import time, and its session declares its public names;
* the front end's modules import by the same kind of rule (ASSET_RULES), every relative import
  names a file that exports what is imported;
* every module and folder opens with what it is for;
* no test module imports another test module (helpers live in tests/support).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.site import ROOT

PACKAGE = ROOT / "py_lessons"
PLUGIN = PACKAGE / "plugin"
RUNTIME = PACKAGE / "runtime"
ASSETS = PLUGIN / "assets"
ADAPTER = PLUGIN / "mkdocs_adapter.py"

# stage -> the stages of the plugin it may import (besides itself); "*": any
STAGE_RULES = {
    "base": set(),
    "config": {"base"},
    "page": {"base"},
    "execute": {"base", "page"},
    "render": {"base", "page"},
    "ship": {"base"},
    "cli": {"base", "page", "render"},
    "engine": {"base", "config", "page", "execute", "render", "ship"},
    "mkdocs_adapter": {"*"},
}
# folder of assets/ -> the folders it may import from ("site.js" and "strings.js" are generated
# at the assets' root and may be imported by every folder; vendor/ is the site's third-party code)
ASSET_RULES = {
    "lib": set(),
    "python": set(),
    "cells": {"lib", "python", "site"},  # site: Python starts once the service worker keeps its files
    "components": {"lib", "python", "cells"},
    "site": {"lib"},
}
GENERATED = {"site.js": {"siteRoot", "storageNamespace", "pyodidePath", "runsPage", "offline", "componentScripts",
                         "workFile", "courseName"},
             "strings.js": {"default"}}


def _imports(path: Path) -> set[str]:
    """Absolute names of what ``path`` imports (relative imports resolved)."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.removesuffix(".__init__")
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names.add(target)
            names.update(f"{target}.{alias.name}" for alias in node.names)  # "from . import x" names a module
    return names


def _stage(path: Path) -> str:
    part = path.relative_to(PLUGIN).parts[0]
    return part.removesuffix(".py")


def test_each_stage_imports_only_the_stages_below_it():
    broken = []
    for path in sorted(PLUGIN.rglob("*.py")):
        stage = _stage(path)
        if stage == "__init__":
            continue
        allowed = STAGE_RULES[stage]
        for name in _imports(path):
            if not name.startswith("py_lessons.plugin."):
                continue
            target = name.split(".")[2]
            if target not in (stage, "*") and "*" not in allowed and target not in allowed:
                if (PLUGIN / target).exists() or (PLUGIN / f"{target}.py").exists():
                    broken.append(f"{path.relative_to(ROOT)} ({stage}) imports {name}")
    assert broken == []


def test_every_plugin_file_belongs_to_a_stage():
    stray = [str(p.relative_to(ROOT)) for p in PLUGIN.glob("*.py") if p.stem not in STAGE_RULES and p.stem != "__init__"]
    stages = {p.name for p in PLUGIN.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert stray == [] and stages <= set(STAGE_RULES)


def test_only_the_adapter_imports_mkdocs():
    importers = sorted(str(path.relative_to(ROOT)) for path in PACKAGE.rglob("*.py")
                       if any(name.split(".")[0] == "mkdocs" for name in _imports(path)))
    assert importers == [str(ADAPTER.relative_to(ROOT))]


def test_the_engine_runs_without_mkdocs_loaded():
    code = ("import sys\nimport py_lessons.plugin.engine, py_lessons.plugin.cli.new_lesson, "
            "py_lessons.plugin.cli.check_prose\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'mkdocs'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def _runtime_graph() -> dict[str, set[str]]:
    graph = {}
    for path in RUNTIME.glob("*.py"):
        module = f"py_lessons.runtime.{path.stem}"
        graph[module] = {name for name in _imports(path) if name.startswith("py_lessons.runtime.")
                         and (RUNTIME / f"{name.split('.')[2]}.py").exists()}
        graph[module] = {".".join(name.split(".")[:3]) for name in graph[module]} - {module}
    return graph


def test_the_runtime_has_no_import_circle():
    graph = _runtime_graph()
    done, doing, circles = set(), [], []

    def visit(module):
        if module in doing:
            circles.append(doing[doing.index(module):] + [module])
            return
        if module in done:
            return
        doing.append(module)
        for target in sorted(graph.get(module, ())):
            visit(target)
        doing.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
    assert circles == []


def test_the_runtime_session_declares_its_public_names():
    from py_lessons.runtime import session

    assert "run" in session.__all__ and "call" in session.__all__
    assert all(hasattr(session, name) for name in session.__all__)
    # what the worker and the build's runner call of it is declared
    called = set()
    for script in (*ASSETS.rglob("*.js"), *PLUGIN.rglob("*.mjs")):
        called |= set(re.findall(r"\bsession\.([A-Za-z_]+)\b", script.read_text(encoding="utf-8")))
    assert called and called <= set(session.__all__)


def test_the_browser_runtime_is_standard_library_only_at_import():
    code = ("import sys\nbefore = set(sys.modules)\nimport py_lessons.runtime.session\n"
            "new = set(sys.modules) - before\n"
            "print(sorted(n for n in new if n.split('.')[0] not in sys.stdlib_module_names"
            " and n.split('.')[0] != 'py_lessons'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


_IMPORT = re.compile(r'import\s+(?:(\*\s+as\s+\w+)|(\w+)|\{([^}]*)\})\s+from\s+"([^"]+)"')
_DYNAMIC = re.compile(r'import\(\s*"([^"]+)"\s*\)')


def _exports(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = set(re.findall(r"export\s+(?:async\s+)?(?:function\*?|const|class|let)\s+(\w+)", text))
    for group in re.findall(r"export\s*\{([^}]*)\}", text):
        found |= {item.strip().split(" as ")[-1] for item in group.split(",") if item.strip()}
    if "export default" in text:
        found.add("default")
    return found


def _asset_modules():
    return sorted(p for p in ASSETS.rglob("*.js") if p.parent != ASSETS)


def test_the_front_ends_modules_import_by_its_rules():
    broken = []
    for path in _asset_modules():
        folder = path.relative_to(ASSETS).parts[0]
        text = path.read_text(encoding="utf-8")
        for star, default, names, spec in _IMPORT.findall(text):
            if not spec.startswith("."):
                broken.append(f"{path.relative_to(ASSETS)}: a bare import {spec!r} (the site has no bundler)")
                continue
            target = (path.parent / spec).resolve()
            rel = target.relative_to(ASSETS.resolve()) if target.is_relative_to(ASSETS.resolve()) else None
            if rel is None:  # outside the plugin's assets: the site's vendor folder
                assert spec.startswith("../../vendor/"), f"{path}: {spec}"
                continue
            if rel.as_posix() in GENERATED:
                exports = GENERATED[rel.as_posix()]
            elif target.is_file():
                exports = _exports(target)
                other = rel.parts[0]
                if other != folder and other not in ASSET_RULES[folder]:
                    broken.append(f"{path.relative_to(ASSETS)} ({folder}) imports {rel}")
            else:
                broken.append(f"{path.relative_to(ASSETS)}: {spec} does not exist")
                continue
            wanted = {"default"} if default else {n.strip().split(" as ")[0] for n in names.split(",") if n.strip()}
            broken += [f"{path.relative_to(ASSETS)}: {spec} exports no {name}" for name in sorted(wanted - exports)]
        for spec in _DYNAMIC.findall(text):
            if spec.startswith(".") and "vendor/" not in spec and not (path.parent / spec).is_file():
                broken.append(f"{path.relative_to(ASSETS)}: import({spec!r}) does not exist")
    assert broken == []


def test_every_component_kind_has_its_script():
    from py_lessons.plugin.render.components import KINDS

    for kind, cls in KINDS.items():
        if cls.script:
            script = ASSETS / "components" / cls.script
            assert script.is_file() and "enhance" in _exports(script), kind


def _opening(path: Path) -> str:
    text = path.read_text(encoding="utf-8").lstrip()
    if path.suffix == ".py":
        tree = ast.parse(text)
        return ast.get_docstring(tree) or ""
    if path.suffix in (".js", ".mjs"):
        return text.split("\n", 1)[0] if text.startswith("//") else ""
    return text.split("\n", 1)[0] if text.startswith("/*") else ""


@pytest.mark.parametrize("folder", [PLUGIN, RUNTIME, PACKAGE / "host"])
def test_every_module_and_folder_opens_with_its_purpose(folder):
    silent = [str(p.relative_to(ROOT)) for p in sorted(folder.rglob("*"))
              if p.suffix in (".py", ".js", ".mjs", ".css") and "node_modules" not in p.parts
              and p.stat().st_size and not _opening(p).strip()]
    folders = [str(d.relative_to(ROOT)) for d in sorted(folder.rglob("*")) if d.is_dir()
               and any(d.glob("*.py")) and not (d / "__init__.py").is_file()]
    assert silent == [] and folders == []


def test_no_test_module_imports_another():
    tests = ROOT / "tests"
    modules = {path.stem for path in tests.rglob("test_*.py")} | {"conftest"}
    offenders = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            offenders += [f"{path.relative_to(ROOT)} imports {name}" for name in names if name.split(".")[0] in modules]
    assert offenders == []


def test_every_test_module_is_collected():
    """pytest skips some folder names (build, dist, venv...) by default: no test file may be
    silently left out of `./pathshala test`."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True)
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    on_disk = {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")}
    assert on_disk - collected == set()
