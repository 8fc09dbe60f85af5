"""Wheels rewritten to CPython bytecode, so that the reader's Python does not compile them.

Importing NumPy in the page means compiling ~170 modules from source first (about half of the
import's time); a wheel that carries ``.pyc`` files instead skips that. This is what Pyodide's own
``pyodide py-compile`` (pyodide-build) does: every ``.py`` becomes ``.pyc`` beside it (the legacy,
sourceless layout that the import system loads without a source file), everything else is kept,
and the wheel's tag names the interpreter (``py3-none-any`` -> ``cp312-none-any``).

Bytecode belongs to one CPython minor version, the one *inside* Pyodide (3.12), not the build's
(3.11). So this module runs inside the staged Pyodide itself (``ship/node/compile_wheels.mjs`` feeds it
this file's source): no second host Python is needed, and the magic number is right by
construction. pyodide-build itself needs a host CPython 3.12 and its build toolchain, hence not
used. Standard library only.
"""

from __future__ import annotations

import io
import py_compile
import re
import sys
import tempfile
import zipfile
from pathlib import Path

SITE_PACKAGES = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages/"


def compiled_name(wheel_name: str) -> str:
    """The wheel's file name with the running interpreter as its Python tag (PEP 425)."""
    match = re.fullmatch(r"(?P<head>[^-]+-[^-]+)-(?P<python>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl",
                         wheel_name)
    if match is None:
        raise ValueError(f"not a wheel file name (or one with a build tag): {wheel_name}")
    interpreter = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    return f"{match['head']}-{interpreter}-{match['abi']}-{match['platform']}.whl"


def compile_wheel(data: bytes) -> bytes:
    """The wheel ``data`` with every ``.py`` replaced by its ``.pyc``.
    Code objects carry the installed path as their file name, so tracebacks name the same files
    as the source wheel's do (without the source lines)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, \
            zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as target, \
            tempfile.TemporaryDirectory() as work:
        for info in source.infolist():
            name = info.filename
            if name.endswith(".pyc"):
                continue  # stale bytecode of another Python: recompiled below from its source
            body = source.read(info)
            if not name.endswith(".py"):
                target.writestr(_entry(name, info), body)
                continue
            py = Path(work) / "module.py"
            py.write_bytes(body)
            pyc = py_compile.compile(str(py), cfile=str(py) + "c", dfile=SITE_PACKAGES + name, doraise=True,
                                     invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            target.writestr(_entry(name + "c", info), Path(pyc).read_bytes())
    return out.getvalue()


def _entry(name: str, like: zipfile.ZipInfo) -> zipfile.ZipInfo:
    """A member named ``name`` with ``like``'s date and permissions: same input, same bytes."""
    entry = zipfile.ZipInfo(name, date_time=like.date_time)
    entry.external_attr = like.external_attr
    entry.compress_type = zipfile.ZIP_DEFLATED
    return entry


def compile_wheels(folder: str, names: list[str]) -> dict[str, str]:
    """Rewrite each wheel ``names`` of ``folder`` to bytecode under its compiled name (the source
    wheel is removed). Returns {old name: new name}. (The course's own modules are never passed
    here: a learner's traceback into course.py shows its lines.)"""
    renamed = {}
    for name in names:
        path = Path(folder) / name
        new_name = compiled_name(name)
        (Path(folder) / new_name).write_bytes(compile_wheel(path.read_bytes()))
        if new_name != name:
            path.unlink()
        renamed[name] = new_name
    return renamed
