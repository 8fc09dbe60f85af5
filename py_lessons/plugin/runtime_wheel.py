"""Package ``py_lessons.runtime`` (and the course's own modules, ``py_lessons_content``: see
content.py) as a pure-Python wheel that Pyodide installs in the page.

Built with the ``wheel`` project's WheelFile (it writes RECORD for us); file times are pinned so
the same sources always give the same bytes, and so the same sha256 in the lock and cache keys.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from wheel.wheelfile import WheelFile

import py_lessons
from py_lessons.runtime.steppers import CONTENT_PACKAGE

DIST_NAME = "py-lessons"
IMPORT_NAME = "py_lessons"
VERSION = "0.1.0"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)

PACKAGE_DIR = Path(py_lessons.__file__).parent


CONTENT_INIT = (b'"""The course\'s own modules (py_lessons.plugin.content), imported together."""\n'
                b"import importlib, pkgutil\n"
                b"for _module in pkgutil.iter_modules(__path__):\n"
                b"    importlib.import_module(f\"{__name__}.{_module.name}\")\n")


def runtime_sources(content: dict[str, Path] | None = None) -> list[tuple[str, Path | bytes]]:
    """(archive name, file or bytes) for everything that ships to the browser, in a stable order."""
    files: list[tuple[str, Path | bytes]] = [("py_lessons/__init__.py", PACKAGE_DIR / "__init__.py")]
    runtime = PACKAGE_DIR / "runtime"
    for path in sorted([*runtime.rglob("*.py"), *runtime.glob("*.json")]):  # the catalogue too
        files.append((f"py_lessons/{path.relative_to(PACKAGE_DIR).as_posix()}", path))
    if content:
        files.append((f"{CONTENT_PACKAGE}/__init__.py", CONTENT_INIT))
        files.extend((f"{CONTENT_PACKAGE}/{name}.py", path) for name, path in sorted(content.items()))
    return files


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def build_runtime_wheel(out_dir: Path, content: dict[str, Path] | None = None) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    dist_info = f"py_lessons-{VERSION}.dist-info"
    path = out_dir / f"py_lessons-{VERSION}-py3-none-any.whl"
    metadata = f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {VERSION}\nSummary: Pathshala browser runtime\n"
    wheel_meta = "Wheel-Version: 1.0\nGenerator: py_lessons\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    os.environ.setdefault("SOURCE_DATE_EPOCH", "315532800")  # WheelFile reads it for RECORD's entry
    with WheelFile(path, "w") as wheel:
        for name, source in runtime_sources(content):
            wheel.writestr(_entry(name), source if isinstance(source, bytes) else source.read_bytes())
        wheel.writestr(_entry(f"{dist_info}/METADATA"), metadata)
        wheel.writestr(_entry(f"{dist_info}/WHEEL"), wheel_meta)
    return path
