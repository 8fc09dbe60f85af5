"""Wheels rewritten to bytecode (py_lessons/plugin/ship/bytecode.py). At build this runs inside Pyodide
(CPython 3.12); here it runs in the host's CPython, whose bytecode this very process can import."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile

import pytest

from py_lessons.plugin.ship import bytecode

TAG = f"cp{sys.version_info[0]}{sys.version_info[1]}"


def _wheel(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 2, 3, 4, 6)), text)
    return out.getvalue()


SOURCE = {
    "pkg/__init__.py": "from .maths import answer\n",
    "pkg/maths.py": "def answer():\n    return 41 + 1\n\ndef broken():\n    return 1 / 0\n",
    "pkg/maths.cpython-39.pyc": "stale bytecode of another Python",
    "pkg/data.json": '{"kept": true}',
    "pkg-1.0.dist-info/RECORD": "pkg/__init__.py,,\n",
}


def test_every_module_becomes_bytecode_and_everything_else_is_kept():
    compiled = zipfile.ZipFile(io.BytesIO(bytecode.compile_wheel(_wheel(SOURCE))))
    names = set(compiled.namelist())
    assert names == {"pkg/__init__.pyc", "pkg/maths.pyc", "pkg/data.json", "pkg-1.0.dist-info/RECORD"}
    assert compiled.read("pkg/data.json") == b'{"kept": true}'
    import importlib.util
    assert compiled.read("pkg/maths.pyc")[:4] == importlib.util.MAGIC_NUMBER  # this interpreter's bytecode


def test_the_same_wheel_gives_the_same_bytes():
    assert bytecode.compile_wheel(_wheel(SOURCE)) == bytecode.compile_wheel(_wheel(SOURCE))


def test_the_compiled_wheel_imports_and_its_tracebacks_name_the_installed_files(tmp_path):
    wheel = tmp_path / "pkg.zip"
    wheel.write_bytes(bytecode.compile_wheel(_wheel(SOURCE)))
    probe = ("import sys, traceback\nsys.path.insert(0, sys.argv[1])\nimport pkg, pkg.maths\n"
             "print(pkg.answer(), pkg.maths.__file__.endswith('maths.pyc'))\n"
             "try:\n    pkg.maths.broken()\nexcept ZeroDivisionError as exc:\n"
             "    print(traceback.extract_tb(exc.__traceback__)[-1].filename)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(wheel)], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["42 True", bytecode.SITE_PACKAGES + "pkg/maths.py"]


@pytest.mark.parametrize(("name", "expected"), [
    ("cycler-0.12.1-py3-none-any.whl", f"cycler-0.12.1-{TAG}-none-any.whl"),
    ("six-1.16.0-py2.py3-none-any.whl", f"six-1.16.0-{TAG}-none-any.whl"),
    ("numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl", f"numpy-2.0.2-{TAG}-cp312-pyodide_2024_0_wasm32.whl"),
])
def test_the_wheel_name_names_the_interpreter(name, expected):
    assert bytecode.compiled_name(name) == expected


def test_a_name_that_is_not_a_plain_wheel_is_refused():
    with pytest.raises(ValueError, match="build tag"):
        bytecode.compiled_name("pkg-1.0-1-py3-none-any.whl")


def test_compile_wheels_renames_and_removes_the_source_wheel(tmp_path):
    (tmp_path / "pkg-1.0-py3-none-any.whl").write_bytes(_wheel(SOURCE))
    assert bytecode.compile_wheels(str(tmp_path), ["pkg-1.0-py3-none-any.whl"]) == {
        "pkg-1.0-py3-none-any.whl": f"pkg-1.0-{TAG}-none-any.whl"}
    assert [p.name for p in tmp_path.iterdir()] == [f"pkg-1.0-{TAG}-none-any.whl"]
