"""The pure-Python wheels Pyodide installs in the page beside the release's own: ``py-lessons``
(``py_lessons.runtime``, the same for every course) and ``py-lessons-content`` (the course's own
modules, ``py_lessons_content``: see execute/course_modules.py), apart so that an author's edit
of a ``steppers.py`` rebuilds a small wheel and nothing else.

Built with the ``wheel`` project's WheelFile (it writes RECORD for us); file times are pinned so
the same sources always give the same bytes, and so the same sha256 in the lock and cache keys.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from wheel.wheelfile import WheelFile

import py_lessons
from py_lessons.runtime.content import CONTENT_PACKAGE

DIST_NAME = "py-lessons"
CONTENT_DIST_NAME = "py-lessons-content"
VERSION = "0.1.0"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)

PACKAGE_DIR = Path(py_lessons.__file__).parent


CONTENT_INIT = (b'"""The course\'s own modules (py_lessons.plugin.execute.course_modules), imported together."""\n'
                b"import importlib, pkgutil\n"
                b"for _module in pkgutil.iter_modules(__path__):\n"
                b"    importlib.import_module(f\"{__name__}.{_module.name}\")\n")


def runtime_sources() -> list[tuple[str, Path]]:
    """(archive name, file) of the runtime that ships to the browser, in a stable order."""
    files: list[tuple[str, Path]] = [("py_lessons/__init__.py", PACKAGE_DIR / "__init__.py")]
    runtime = PACKAGE_DIR / "runtime"
    for path in sorted([*runtime.rglob("*.py"), *runtime.glob("*.json")]):  # the catalogue too
        if "__pycache__" not in path.parts:
            files.append((f"py_lessons/{path.relative_to(PACKAGE_DIR).as_posix()}", path))
    return files


def content_sources(content: dict[str, Path]) -> list[tuple[str, Path | bytes]]:
    """(archive name, file or bytes) of the course's modules, in a stable order."""
    return [(f"{CONTENT_PACKAGE}/__init__.py", CONTENT_INIT),
            *((f"{CONTENT_PACKAGE}/{name}.py", path) for name, path in sorted(content.items()))]


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _wheel(out_dir: Path, dist: str, summary: str, sources) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = dist.replace("-", "_")
    path = out_dir / f"{stem}-{VERSION}-py3-none-any.whl"
    metadata = f"Metadata-Version: 2.1\nName: {dist}\nVersion: {VERSION}\nSummary: {summary}\n"
    wheel_meta = "Wheel-Version: 1.0\nGenerator: py_lessons\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    os.environ.setdefault("SOURCE_DATE_EPOCH", "315532800")  # WheelFile reads it for RECORD's entry
    with WheelFile(path, "w") as wheel:
        for name, source in sources:
            wheel.writestr(_entry(name), source if isinstance(source, bytes) else source.read_bytes())
        wheel.writestr(_entry(f"{stem}-{VERSION}.dist-info/METADATA"), metadata)
        wheel.writestr(_entry(f"{stem}-{VERSION}.dist-info/WHEEL"), wheel_meta)
    return path


def build_runtime_wheel(out_dir: Path) -> Path:
    return _wheel(out_dir, DIST_NAME, "Pathshala browser runtime", runtime_sources())


def build_content_wheel(out_dir: Path, content: dict[str, Path]) -> Path:
    return _wheel(out_dir, CONTENT_DIST_NAME, "The course's own modules", content_sources(content))
