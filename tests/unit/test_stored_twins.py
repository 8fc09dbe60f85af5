"""A stored twin holds the original's members that Python can use, stored, with their bytes,
dates and permissions; what only a compiler or a type checker reads stays out."""

from __future__ import annotations

import io
import zipfile

from py_lessons.plugin.ship.stored_twins import stored_copy

MEMBERS = {
    "pkg/__init__.py": b"from .core import f\n" * 50,
    "pkg/core.cpython-312-wasm32-emscripten.so": bytes(range(256)) * 40,
    "pkg/data/table.json": b'{"a": 1}',
    "pkg/__init__.pyi": b"def f() -> int: ...\n",
    "pkg/core/include/pkg/api.h": b"int f(void);\n",
    "pkg/lib/libmath.a": b"!<arch>\n",
    "pkg/src/helper.c": b"int f(void) { return 1; }\n",
    "pkg/core.pxd": b"cdef int f()\n",
    "pkg-1.0.dist-info/RECORD": b"pkg/__init__.py,,\n",
}
KEPT = {"pkg/__init__.py", "pkg/core.cpython-312-wasm32-emscripten.so", "pkg/data/table.json", "pkg-1.0.dist-info/RECORD"}


def _wheel() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in MEMBERS.items():
            entry = zipfile.ZipInfo(name, date_time=(2024, 5, 6, 7, 8, 10))
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return out.getvalue()


def test_the_twin_keeps_what_python_reads_and_drops_what_a_compiler_reads():
    with zipfile.ZipFile(io.BytesIO(stored_copy(_wheel()))) as twin:
        infos = twin.infolist()
        assert [info.filename for info in infos] == [name for name in MEMBERS if name in KEPT]  # the original's order
        for info in infos:
            assert info.compress_type == zipfile.ZIP_STORED
            assert twin.read(info) == MEMBERS[info.filename]
            assert info.date_time == (2024, 5, 6, 7, 8, 10) and info.external_attr == 0o644 << 16


def test_the_same_wheel_gives_the_same_twin():
    assert stored_copy(_wheel()) == stored_copy(_wheel())
