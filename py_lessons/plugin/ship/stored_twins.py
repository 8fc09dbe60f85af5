"""Stored twins: each wheel and the standard-library zip once more, in ``stored/``, its members
kept without compression, for hosts that compress what they send.

A wheel's members are deflated one by one, so brotli finds little left to take from the whole
file (NumPy: 3.60 MB as it is, 3.56 MB brotli). Stored, the same members compress as one stream:
NumPy 2.32 MB brotli, the standard library 1.49 MB instead of 2.36 MB, matplotlib 4.95 MB instead
of 7.84 MB (gzip also gains a little: NumPy 3.47 MB). A host that sends files as they are would
send the stored twins at three times the size, so they ship beside the originals, never instead:
the page's Python worker takes the twins only when the host sent it the manifest compressed
(``assets/python/worker.js``: a lock of its own, ``pyodide-lock.stored.json``, and the zip as
``stdLibURL``), and the service worker keeps one of each pair (``ship/frontend/service-worker.js``).
A twin's members are the original's, in its order, with its dates and permissions (same input,
same bytes), but for the files only a compiler or a type checker reads, which no cell can use in
the browser: C headers and sources, static libraries, Cython declarations and type stubs (NumPy's
twin: 1.2 MB of 12.7 MB, 172 KB of its 2.32 MB brotli).
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

FOLDER = "stored"
LOCK_NAME = "pyodide-lock.stored.json"
BUILD_ONLY = re.compile(r"\.(h|c|a|pxd|pyi)$|/include/")


def runtime_member(name: str) -> bool:
    """Whether Python in the browser may read the member called ``name``."""
    return not BUILD_ONLY.search(name)


def stored_copy(data: bytes) -> bytes:
    """The zip ``data`` with every member Python may read at run time, stored (no compression)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as target:
        for info in source.infolist():
            if not runtime_member(info.filename):
                continue
            entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            entry.external_attr = info.external_attr
            target.writestr(entry, source.read(info))
    return out.getvalue()


def write_twins(folder: Path, names: list[str]) -> None:
    """``folder/stored/NAME`` for each zip ``folder/NAME``."""
    (folder / FOLDER).mkdir(exist_ok=True)
    for name in names:
        (folder / FOLDER / name).write_bytes(stored_copy((folder / name).read_bytes()))


def is_twin(path: Path) -> bool:
    """A stored twin of the built site (a wheel or zip in a ``stored`` folder): compress it."""
    return path.parent.name == FOLDER and path.suffix in {".whl", ".zip"}
