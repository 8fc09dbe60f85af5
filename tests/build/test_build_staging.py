"""Staging the Pyodide distribution: closure, lock trimming, hash checks, our runtime wheel, the
two layers (the shared base, the course's own on top)."""

from __future__ import annotations

import gzip
import hashlib
import io
import subprocess
import json
import shutil
import zipfile

import pytest
from pyodide_lock import PyodideLockSpec

from py_lessons.plugin.base import dependencies
from py_lessons.plugin.ship import staging
from py_lessons.plugin.ship.runtime_wheel import build_runtime_wheel, runtime_sources
from support.site import ROOT

NODE_MODULES = dependencies.node_modules()   # the plugin's own npm packages (installed once)
NPM_PYODIDE = NODE_MODULES / "pyodide"
CARRIER = dependencies.wheel_carrier()        # the hash-pinned wheel carrier (downloaded once)


@pytest.fixture(scope="module")
def official_lock() -> PyodideLockSpec:
    return PyodideLockSpec.from_json(NPM_PYODIDE / "pyodide-lock.json")


def test_closure_follows_the_locks_depends(official_lock):
    closure = staging.dependency_closure(official_lock, ["matplotlib"])
    assert "numpy" in closure and "matplotlib" in closure
    for name in closure:  # closed: every dependency of a member is a member
        assert set(official_lock.packages[name].depends) <= set(closure)
    assert "scipy" not in closure and "pandas" not in closure
    assert staging.dependency_closure(official_lock, ["numpy"]) == ["numpy"]


def test_unknown_package_is_an_error(official_lock):
    with pytest.raises(staging.StagingError, match="not in the Pyodide lock"):
        staging.dependency_closure(official_lock, ["tensorflow"])


def test_trim_keeps_only_the_named_packages(official_lock):
    trimmed = staging.trim_lock(official_lock, ["numpy"])
    assert list(trimmed.packages) == ["numpy"]
    assert trimmed.info == official_lock.info
    assert len(official_lock.packages) > 100  # the original is untouched


def test_runtime_wheel_is_reproducible_and_holds_only_the_runtime(tmp_path):
    first = build_runtime_wheel(tmp_path / "a")
    second = build_runtime_wheel(tmp_path / "b")
    assert first.read_bytes() == second.read_bytes()
    names = zipfile.ZipFile(first).namelist()
    assert all(n.startswith(("py_lessons/runtime/", "py_lessons/__init__.py", "py_lessons-")) for n in names)
    assert {name for name, _ in runtime_sources()} <= set(names)
    assert not any("build/" in n or "__pycache__" in n for n in names)


def _fonts():
    from py_lessons.plugin.base.fonts import plot_fonts

    return plot_fonts(NODE_MODULES)


@pytest.fixture(scope="module")
def numpy_layers(tmp_path_factory):
    """A base layer of NumPy alone, as the build stages it (bytecode and snapshot), made once here."""
    return tmp_path_factory.mktemp("layers")


def test_course_layers_share_one_base_and_a_course_edit_stages_in_no_pyodide(numpy_layers, tmp_path, monkeypatch):
    """The base layer (Pyodide, wheels, bytecode, snapshot) is made once; a course layer on it holds
    the course's modules as source in a wheel of their own, and making one runs nothing in Pyodide."""
    source = staging.resolve_source(None, NPM_PYODIDE, lambda: CARRIER)
    plain = staging.stage(source, ["numpy"], numpy_layers, _fonts())
    module = tmp_path / "docs" / "lessons" / "a" / "steppers.py"
    module.parent.mkdir(parents=True)
    module.write_text("RATE = 0.1\n", encoding="utf-8")
    ran = []
    monkeypatch.setattr(staging, "_node", lambda *args: ran.append(args))
    course = staging.stage(source, ["numpy"], numpy_layers, _fonts(), {"lessons_a": module})
    assert ran == []  # no wheel compiled, no snapshot: the base layer and the compiled runtime were kept
    assert course.base == plain.base and course.path != plain.path and course.key != plain.key
    assert course.cells_key == plain.cells_key  # a course module never re-runs every cell
    lock = json.loads((course.path / "pyodide-lock.json").read_text())
    numpy = lock["packages"]["numpy"]["file_name"]
    assert (course.path / numpy).samefile(course.base / numpy)  # linked, not copied
    content = lock["packages"]["py-lessons-content"]
    assert content["file_name"].endswith("-py3-none-any.whl")
    assert hashlib.sha256((course.path / content["file_name"]).read_bytes()).hexdigest() == content["sha256"]
    assert "py_lessons_content/lessons_a.py" in zipfile.ZipFile(course.path / content["file_name"]).namelist()
    manifest = json.loads((course.path / staging.MANIFEST_NAME).read_text())
    assert manifest["runtime_packages"] == ["py-lessons", "py-lessons-content"]
    assert json.loads((plain.path / staging.MANIFEST_NAME).read_text())["runtime_packages"] == ["py-lessons"]


def test_stage_numpy_only_trims_lock_and_matches_hashes(tmp_path, official_lock):
    source = staging.resolve_source(None, NPM_PYODIDE, lambda: CARRIER)
    staged = staging.stage(source, ["numpy"], tmp_path, _fonts(), compiled=False, snapshot=False)
    lock = json.loads((staged.path / "pyodide-lock.json").read_text())
    assert sorted(lock["packages"]) == ["numpy", "py-lessons"]
    for name, entry in lock["packages"].items():
        data = (staged.path / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    assert lock["packages"]["numpy"]["sha256"] == official_lock.packages["numpy"].sha256
    for core in staging.CORE_FILES:
        assert (staged.path / core).read_bytes() == (NPM_PYODIDE / core).read_bytes()
    assert not list(staged.path.glob("matplotlib*"))
    assert json.loads((staged.path / staging.MANIFEST_NAME).read_text())["snapshot"] is None
    # staging again reuses the finished folder
    assert staging.stage(source, ["numpy"], tmp_path, _fonts(), compiled=False, snapshot=False).path == staged.path
    assert staged.path.parent.parent == staged.base  # the course layer lives in its base layer


# CPython 3.12's bytecode magic number (Lib/importlib/_bootstrap_external.py: 3531 for 3.12 final),
# the Python inside Pyodide 0.27; the build's own CPython (3.11) writes another.
PYTHON_312_MAGIC = (3531).to_bytes(2, "little") + b"\r\n"


def test_the_builds_python_refuses_a_message_the_protocol_does_not_have(numpy_layers):
    """protocol.js lists every message the build's runner takes: any other is refused, not run."""
    from py_lessons.plugin.execute.runner import PyodideRunner, RunnerError

    staged = staging.stage(staging.resolve_source(None, NPM_PYODIDE, lambda: CARRIER), ["numpy"], numpy_layers,
                           _fonts())
    runner = PyodideRunner(staged.path)
    try:
        with pytest.raises(RunnerError, match="refused.*unknown message type \"exec\""):
            runner._request({"type": "exec", "code": "print(1)"}, 60)
        answer = runner.run("print(6 * 7)", None, "after", 60)  # and it goes on serving the protocol
        assert answer["items"] == [{"type": "stdout", "text": "42\n"}]
    finally:
        runner.close()


def test_staged_wheels_are_pyodides_bytecode_and_a_snapshot_ships(numpy_layers, official_lock):
    source = staging.resolve_source(None, NPM_PYODIDE, lambda: CARRIER)
    staged = staging.stage(source, ["numpy"], numpy_layers, _fonts())
    lock = json.loads((staged.path / "pyodide-lock.json").read_text())
    manifest = json.loads((staged.path / staging.MANIFEST_NAME).read_text())
    for name, entry in lock["packages"].items():  # the lock vouches for the files as shipped
        data = (staged.path / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert manifest["packages"][name] == {**manifest["packages"][name], "file": entry["file_name"],
                                              "bytes": len(data)}
    official = official_lock.packages["numpy"].file_name
    assert lock["packages"]["numpy"]["file_name"] == official  # tagged cp312 already
    with zipfile.ZipFile(CARRIER) as carrier:
        sources = zipfile.ZipFile(io.BytesIO(carrier.read(staging.WHEEL_ARCHIVE_PREFIX + official))).namelist()
    compiled = zipfile.ZipFile(staged.path / lock["packages"]["numpy"]["file_name"])
    assert sorted(compiled.namelist()) == sorted(n + "c" if n.endswith(".py") else n for n in sources)
    assert compiled.read("numpy/__init__.pyc")[:4] == PYTHON_312_MAGIC
    runtime = zipfile.ZipFile(staged.path / lock["packages"]["py-lessons"]["file_name"]).namelist()
    assert "py_lessons/runtime/execute.pyc" in runtime and not any(n.endswith(".py") for n in runtime)
    assert lock["packages"]["py-lessons"]["file_name"].endswith("-cp312-none-any.whl")
    # Python's start-up snapshot: as taken, Pyodide's layout (magic, then whole 64 KiB pages); its
    # size for the page's progress is what it costs compressed (gzip, level 6)
    raw = (staged.path / manifest["snapshot"]).read_bytes()
    assert manifest["snapshot_bytes"] == len(gzip.compress(raw, compresslevel=6))
    assert manifest["snapshot_bytes"] < len(raw) / 3  # the zeroed free memory compresses away
    assert int.from_bytes(raw[:4], "little") == 0x706E7300
    assert (len(raw) - int.from_bytes(raw[4:8], "little")) % 65536 == 0


def test_a_tampered_wheel_fails_staging(tmp_path):
    tampered = tmp_path / "carrier.whl"
    name = staging.WHEEL_ARCHIVE_PREFIX + PyodideLockSpec.from_json(NPM_PYODIDE / "pyodide-lock.json").packages["numpy"].file_name
    with zipfile.ZipFile(CARRIER) as src, zipfile.ZipFile(tampered, "w") as dst:
        dst.writestr(name, src.read(name) + b"\0")
    source = staging.resolve_source(None, NPM_PYODIDE, lambda: tampered)
    with pytest.raises(staging.StagingError, match="differs from the official lock"):
        staging.stage(source, ["numpy"], tmp_path / "out", _fonts())


def test_a_release_folder_wins_and_no_carrier_is_fetched(tmp_path):
    release = tmp_path / "release"
    release.mkdir()
    for name in (*staging.CORE_FILES, "pyodide-lock.json"):
        shutil.copyfile(NPM_PYODIDE / name, release / name)

    def no_carrier():
        raise AssertionError("the carrier must not be fetched when a release folder is given")

    source = staging.resolve_source(str(release), NPM_PYODIDE, no_carrier)
    assert source.core_dir == release and source.wheel_archive is None
    with pytest.raises(staging.StagingError, match="not in the Pyodide release folder"):
        source.read_wheel("numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl")


def test_missing_carrier_explains_what_to_do(tmp_path):
    with pytest.raises(staging.StagingError, match="pyodide_release"):
        staging.resolve_source(None, NPM_PYODIDE, lambda: tmp_path / "absent.whl")


def test_the_pins_are_written_once():
    """The Pyodide version is pinned in the plugin's package.json alone, the wheel carrier in
    pyodide-carrier.txt alone; nothing else in the project spells either out."""
    version = json.loads((ROOT / "py_lessons" / "plugin" / "package.json").read_text())["dependencies"]["pyodide"]
    carrier = dependencies.carrier_pin()
    assert carrier["name"] and len(carrier["sha"]) == 64
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    allowed = {"py_lessons/plugin/package.json", "py_lessons/plugin/package-lock.json",
               "py_lessons/plugin/pyodide-carrier.txt", "package-lock.json"}
    mentions = []
    for name in tracked:
        path = ROOT / name
        if name in allowed or name.startswith("gpu_runs/results/") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        if version in text or carrier["version"] in text or carrier["sha"] in text:
            mentions.append(name)
    assert mentions == []
